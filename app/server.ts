import handler, { createServerEntry } from '@tanstack/react-start/server-entry'
import { getConfig } from '../app.config'
import { withRequestClient } from './api/client-address'
import { withCspNonce } from './csp.server'
import { withScriptsAfterFirstPaint } from './first-paint.server'
import { handleApiRequest } from './api/server'
import { registerInProcessApi } from './lib/api-client'
import { guardServerFnRequest, refineServerFnResponse } from './server-fn-guard'

// Same-origin API calls from server functions are dispatched straight into the /v1 app (ARCHITECTURE.md).
registerInProcessApi(handleApiRequest)

export default createServerEntry({
  fetch(request) {
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
  },
})
