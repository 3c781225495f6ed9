import handler, { createServerEntry } from '@tanstack/react-start/server-entry'
import { getConfig } from '../app.config'
import { withRequestClient } from './api/client-address'
import { withCspNonce } from './csp.server'
import { withScriptsAfterFirstPaint } from './first-paint.server'
import { handleApiRequest } from './api/server'
import { registerInProcessApi } from './lib/api-client'
import { guardServerFnRequest, refineServerFnResponse } from './server-fn-guard'
import { describeRequest } from './observability/log'
import { withRequestLog } from './observability/request-log'
import { getRouter } from './router'

// Same-origin API calls from server functions are dispatched straight into the /v1 app (ARCHITECTURE.md),
// each one a request line of the API's, under the page's request id (decision 045).
registerInProcessApi((request) => withRequestLog(request, 'api', handleApiRequest))

let routes: ReturnType<typeof getRouter> | undefined
/** The request line's route for a page or a server function: the page's route id, never the raw path (decision 045). */
function storeRouteOf(pathname: string): string | undefined {
  if (pathname.startsWith('/v1/')) return undefined // the API names its own route pattern
  if (pathname.startsWith('/_serverFn/')) return '/_serverFn'
  routes ??= getRouter()
  const [, , found] = routes.getMatchedRoutes(pathname)
  return found ? found.id : 'not-found'
}

export default createServerEntry({
  fetch: (request) =>
    // One request line per request (scripts/serve.ts opens it already; `vite dev` comes straight here).
    withRequestLog(request, 'store', (request) => {
      describeRequest({ route: storeRouteOf(new URL(request.url).pathname) })
      return answer(request)
    }),
})

function answer(request: Request) {
  // The socket's peer, or X-Forwarded-For's client behind TRUST_PROXY's hops; rate limits key on it.
  // Each page gets its own CSP nonce: the router stamps it on its scripts, start.ts puts it in the header.
  return withRequestClient(request, getConfig().trustProxyHops, () =>
    withCspNonce(async () => {
      const guarded = await guardServerFnRequest(request)
      if (guarded instanceof Response) return guarded
      const response = await refineServerFnResponse(guarded, await handler.fetch(guarded))
      // The built store paints before it loads its scripts (decision 024); the dev server keeps Vite's own.
      return import.meta.env.PROD ? withScriptsAfterFirstPaint(guarded, response) : response
    }),
  )
}
