/** SPEC.md §7: album calls carry a timezone header and a version header (value unset). */
export const TIMEZONE_HEADER = 'x-keepsake-timezone'
export const VERSION_HEADER = 'x-keepsake-version'
export const REQUEST_ID_HEADER = 'x-request-id'
export const SESSION_COOKIE = 'keepsake_session'

export function isValidTimeZone(zone: string): boolean {
  if (zone.length > 64) return false
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone })
    return true
  } catch {
    return false
  }
}

/** Strict-Transport-Security, sent by pages and /v1 alike when PUBLIC_URL is https (issue 15, bug 17). */
export const HSTS = 'max-age=31536000; includeSubDomains'

/** A write sent again under the same key gets the first answer, and is applied once (app/api/idempotency.ts). */
export const IDEMPOTENCY_KEY_HEADER = 'idempotency-key'
export const IDEMPOTENT_REPLAY_HEADER = 'idempotent-replayed'

/**
 * The cart a cart page shows, sent with each change it makes to the cart (issue 43, item 8): when another tab paid
 * that cart meanwhile, the change is refused (409, CART_PAID_MESSAGE) instead of saved to a cart nobody will see.
 */
export const CART_ID_HEADER = 'x-keepsake-cart'
