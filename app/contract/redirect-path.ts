const PROBE_ORIGIN = 'https://keepsake.invalid'
const MAX_LENGTH = 512

/** Where a shopper lands after signing in when no (safe) page to return to was named. */
export const DEFAULT_LANDING = '/photo-products'

/**
 * A return path after signing in (a page's `?redirect=`, the e-mailed link's landing page, the
 * transition code's): a path on this site only ("/referral/redeem?code=…"), normalised as a browser
 * would resolve it. Anything else — a full URL, a backslash or control character a browser may read
 * as a slash or drop, or a path whose dot segments resolve to "//host" ("/..//evil.example",
 * "/%2e%2e//", "/.//") — is dropped, so signing in never sends a shopper to another site. The check
 * on "//" comes after the dot segments are resolved: before it, "/..//host" passed as a path.
 * The answer is its own answer (normalising it again changes nothing).
 */
export function safeRedirectPath(value: unknown): string | undefined {
  if (typeof value !== 'string' || value.length > MAX_LENGTH || !value.startsWith('/') || /[\\\u0000-\u001f\u007f]/.test(value)) return undefined
  let url: URL
  try {
    url = new URL(value, PROBE_ORIGIN)
  } catch {
    return undefined
  }
  const path = `${url.pathname}${url.search}${url.hash}`
  if (url.origin !== PROBE_ORIGIN || path.startsWith('//') || path.length > MAX_LENGTH) return undefined
  return path
}
