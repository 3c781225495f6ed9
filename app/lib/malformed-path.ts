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
