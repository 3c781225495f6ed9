/**
 * The sign-in link's terms (issue 16), without zod, so the sign-in form can tell them without loading the
 * contract's schemas (decisions 004, 046).
 */
/** A one-time sign-in link, e-mailed to the address of an album account, works this long. */
export const SIGN_IN_LINK_TTL_MINUTES = 15
export const SIGN_IN_LINKS_PER_HOUR = 5
