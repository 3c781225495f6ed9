// A leaf module with no imports: scripts/serve.ts (plain Node) loads it too.

/** Whether a path is the album API's (/v1). */
export const isApiPath = (pathname: string) => pathname === '/v1' || pathname.startsWith('/v1/')

/** Whether a URL's path does not decode (a malformed percent escape such as %ZZ or %E0%A4%A). */
export function hasMalformedPath(url: string): boolean {
  try {
    decodeURIComponent(new URL(url).pathname)
    return false
  } catch {
    return true
  }
}

export const MALFORMED_PATH_MESSAGE = 'The path has a malformed percent escape'

/**
 * The API's refusal of such a /v1 path, in its error shape, for scripts/serve.ts: Start's server entry
 * refuses a path that does not decode with a bare 400 before the API could see it (issue 29, bug 7).
 */
export const malformedApiPathResponse = () =>
  Response.json(
    { error: { code: 'validation_failed', message: MALFORMED_PATH_MESSAGE } },
    { status: 400, headers: { 'cache-control': 'no-store', 'x-content-type-options': 'nosniff' } },
  )
