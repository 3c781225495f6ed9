import './lib/zod-jitless'
import { createCsrfMiddleware, createMiddleware, createStart } from '@tanstack/react-start'
import { getConfig } from '../app.config'
import { continueWithTransitionCode, transitionCodeOf } from './auth-continue.server'
import { currentCspNonce, setSecurityHeaders } from './csp.server'
import { resolveLegacyRedirect } from './lib/redirects'
import { metOutage } from './observability/request-log'
import { OUTAGE_RETRY_AFTER_MS } from './api/errors'

/** SPEC.md §2: a full page load of a legacy path answers 302 to its new home. */
const legacyRedirects = createMiddleware().server(({ request, pathname, next }) => {
  if (request.method === 'GET' || request.method === 'HEAD') {
    const target = resolveLegacyRedirect(pathname, new URL(request.url).search)
    if (target) return new Response(null, { status: 302, headers: { location: target, 'cache-control': 'no-store' } })
  }
  return next()
})

/** Issue 16: a page load carrying the album app's transition code signs in and lands without the code. */
const transitionSignIn = createMiddleware().server(({ request, handlerType, next }) => {
  // GET only: a HEAD (a link checker, a preview bot) must not spend the code.
  if (handlerType === 'router' && request.method === 'GET' && !getConfig().maintenance) {
    const found = transitionCodeOf(new URL(request.url))
    if (found) return continueWithTransitionCode(request, found)
  }
  return next()
})

/**
 * SPEC.md §1: in maintenance every page is the maintenance screen, served as 503 so crawlers and
 * monitors know. A redirect stays a redirect (`/` → `/photo-products`, a legacy path → its page): a 503
 * with a Location and no body is an error page of the browser's own (issue 15, bug 2); the shopper
 * follows it to a page that then shows the maintenance screen.
 */
const maintenanceStatus = createMiddleware().server(async ({ handlerType, pathname, next }) => {
  const result = await next()
  if (!getConfig().maintenance || handlerType !== 'router' || pathname.startsWith('/v1/')) return result
  if (result.response.status >= 300 && result.response.status < 400) return result
  const headers = new Headers(result.response.headers)
  headers.set('retry-after', '600')
  headers.set('cache-control', 'no-store')
  return new Response(result.response.body, { status: 503, headers })
})

/**
 * A page whose loaders met a dependency's outage (the API answered 503 'unavailable': the database, Redis or the photo
 * storage gone or past its deadline) shows "We'll be right back" and is answered 503 with Retry-After, as the API is,
 * not 500: monitors and crawlers see an outage, not a crash (issue 43, item 6).
 */
const outageStatus = createMiddleware().server(async ({ handlerType, next }) => {
  const result = await next()
  if (handlerType !== 'router' || result.response.status !== 500 || !metOutage()) return result
  const headers = new Headers(result.response.headers)
  headers.set('retry-after', String(OUTAGE_RETRY_AFTER_MS / 1000))
  headers.set('cache-control', 'no-store')
  return new Response(result.response.body, { status: 503, headers })
})

const securityHeaders = createMiddleware().server(async ({ next }) => {
  const result = await next()
  const headers = result.response.headers
  try {
    setSecurityHeaders(headers, currentCspNonce(), getConfig())
  } catch {
    // Some responses (a proxied image, a redirect) carry immutable headers; they keep their own.
  }
  return result
})

/** Creating start.ts drops Start's automatic CSRF check, so server functions get it back here. */
const serverFnCsrf = createCsrfMiddleware({ filter: ({ handlerType }) => handlerType === 'serverFn' })

export const startInstance = createStart(() => ({
  requestMiddleware: [securityHeaders, legacyRedirects, transitionSignIn, maintenanceStatus, outageStatus, serverFnCsrf],
}))
