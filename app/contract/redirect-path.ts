const PROBE_ORIGIN = 'https://keepsake.invalid'

/** Where a shopper lands after signing in when no (safe) page to return to was named. */
export const DEFAULT_LANDING = '/photo-products'

/**
 * A `?redirect=` target after signing in: a path on this site only ("/referral/redeem?code=…").
 * Anything else — "//host", a full URL, backslashes a browser may read as slashes — is dropped, so
 * the sign-in page never sends a shopper to another site.
 */
export function safeRedirectPath(value: unknown): string | undefined {
  if (typeof value !== 'string' || value.length > 512) return undefined
  if (!value.startsWith('/') || value.startsWith('//') || /[\\\u0000-\u001f\u007f]/.test(value)) return undefined
  try {
    const url = new URL(value, PROBE_ORIGIN)
    if (url.origin !== PROBE_ORIGIN) return undefined
    return `${url.pathname}${url.search}${url.hash}`
  } catch {
    return undefined
  }
}
