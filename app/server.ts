import handler, { createServerEntry } from '@tanstack/react-start/server-entry'
import { getConfig } from '../app.config'
import { withRequestClient } from './api/client-address'
import { withCspNonce } from './csp.server'
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
        return guarded instanceof Response ? guarded : refineServerFnResponse(guarded, await handler.fetch(guarded))
      }),
    )
  },
})
