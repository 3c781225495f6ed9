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

/**
 * The page scripts/serve.ts asks the store for when a page's path does not decode (Start refuses the path itself):
 * the splat route shows the broken-link page for it, and for a tab whose own address does not decode.
 */
export const MALFORMED_LINK_PAGE = '/page-not-found/malformed-link'

/** The not-found data the splat route throws for such a path: the root's not-found screen shows the broken-link page. */
export const MALFORMED_LINK = 'malformed-link'

export const MALFORMED_PATH_MESSAGE = 'The path has a malformed percent escape'

/**
 * The API's refusal of such a /v1 path, in its error shape, for scripts/serve.ts: Start's server entry
 * refuses a path that does not decode with a bare 400 before the API could see it (issue 29, bug 7). It carries the
 * request's id like every other error (issue 43, item 9).
 */
export const malformedApiPathResponse = (requestId?: string) =>
  Response.json(
    { error: { code: 'validation_failed', message: MALFORMED_PATH_MESSAGE, ...(requestId ? { requestId } : {}) } },
    { status: 400, headers: { 'cache-control': 'no-store', 'x-content-type-options': 'nosniff' } },
  )
