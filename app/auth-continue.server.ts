/**
 * The store's side of SPEC.md §7's transition code (issue 16): the album app opens the store at
 * `/auth/continue?code=…&redirect=…`, or any page with `?transitionCode=…` (a campaign e-mail's deep
 * link). The code is exchanged once with `POST /v1/growth/transition-token`, the session cookie is set,
 * and the answer is a 302 to the landing page: the code leaves the address bar and the history. A
 * spent, expired or forged code lands on `/auth/continue?failed=…`, the friendly page with the way to
 * sign in, without the code.
 */
import { growthApi } from './contract/endpoints/growth'
import { DEFAULT_LANDING, safeRedirectPath } from './contract/redirect-path'
import { ApiClientError } from './lib/api-client'
import { serverApiClient } from './lib/api-call.server'

export const CONTINUE_PATH = '/auth/continue'
/** The query parameter that carries a transition code on any other page. */
export const TRANSITION_CODE_PARAM = 'transitionCode'

/** The code and where to land, when this page load carries a transition code; null otherwise. */
export function transitionCodeOf(url: URL): { code: string; landing: string } | null {
  if (url.pathname === CONTINUE_PATH) {
    const code = url.searchParams.get('code')
    if (code === null) return null
    return { code, landing: safeRedirectPath(url.searchParams.get('redirect')) ?? DEFAULT_LANDING }
  }
  const code = url.searchParams.get(TRANSITION_CODE_PARAM)
  if (code === null) return null
  const rest = new URLSearchParams(url.search)
  rest.delete(TRANSITION_CODE_PARAM)
  const query = rest.toString()
  return { code, landing: safeRedirectPath(`${url.pathname}${query ? `?${query}` : ''}`) ?? DEFAULT_LANDING }
}

const redirectTo = (location: string, cookies: string[] = []) => {
  const headers = new Headers({ location, 'cache-control': 'no-store', 'referrer-policy': 'no-referrer' })
  for (const cookie of cookies) headers.append('set-cookie', cookie)
  return new Response(null, { status: 302, headers })
}

/** The API issues base64url codes; anything else (a NUL, a broken %-escape, 4,000 characters) is refused here, never sent as a header. */
const CODE_SHAPE = /^[A-Za-z0-9_-]{1,128}$/

const refusedTo = (landing: string, failed: 'expired' | 'unavailable') => redirectTo(`${CONTINUE_PATH}?${new URLSearchParams({ failed, redirect: landing })}`)

/** Exchanges the code through the album API (in-process or remote) and answers the redirect. */
export async function continueWithTransitionCode(request: Request, found: { code: string; landing: string }): Promise<Response> {
  if (!CODE_SHAPE.test(found.code)) {
    console.warn('[sign-in] a malformed transition code was refused')
    return refusedTo(found.landing, 'expired')
  }
  const cookies: string[] = []
  const api = serverApiClient({ cookie: request.headers.get('cookie'), onSetCookie: (cookie) => cookies.push(cookie) })
  try {
    await api.call(growthApi.exchangeTransitionToken, undefined, { headers: { authorization: `Bearer ${found.code}` } })
    return redirectTo(found.landing, cookies)
  } catch (error) {
    const refused = error instanceof ApiClientError && error.status >= 400 && error.status < 500
    if (!refused) console.error('[sign-in] a transition code could not be exchanged:', error instanceof Error ? error.message : error)
    return refusedTo(found.landing, refused ? 'expired' : 'unavailable')
  }
}
