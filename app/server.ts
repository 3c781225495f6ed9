import handler, { createServerEntry } from '@tanstack/react-start/server-entry'
import { getConfig } from '../app.config'
import { withRequestClient } from './api/client-address'
import { handleApiRequest } from './api/server'
import { registerInProcessApi } from './lib/api-client'
import { guardServerFnRequest, refineServerFnResponse } from './server-fn-guard'

// Same-origin API calls from server functions are dispatched straight into the /v1 app (ARCHITECTURE.md).
registerInProcessApi(handleApiRequest)

export default createServerEntry({
  fetch(request) {
    // The socket's peer, or X-Forwarded-For's client behind TRUST_PROXY's hops; rate limits key on it.
    return withRequestClient(request, getConfig().trustProxyHops, async () => {
      const guarded = await guardServerFnRequest(request)
      return guarded instanceof Response ? guarded : refineServerFnResponse(guarded, await handler.fetch(guarded))
    })
  },
})
