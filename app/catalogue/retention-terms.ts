/**
 * How long Keepsake keeps what the privacy page names: read by the API that enforces them and by
 * /privacy that states them, so the page cannot say one thing while the API does another.
 */
export const SESSION_TTL_DAYS = 30
/** Previews nobody bought or kept in a cart are deleted (rows and files) after this many days. */
export const PREVIEW_RETENTION_DAYS = 30
