import handler, { createServerEntry } from '@tanstack/react-start/server-entry'
import { withClientAddress } from './api/client-address'
import { handleApiRequest } from './api/server'
import { registerInProcessApi } from './lib/api-client'

// Same-origin API calls from server functions are dispatched straight into the /v1 app (ARCHITECTURE.md).
registerInProcessApi(handleApiRequest)

export default createServerEntry({
  fetch(request) {
    // srvx gives the peer address (or X-Forwarded-For's client with TRUST_PROXY); rate limits key on it.
    return withClientAddress((request as Request & { ip?: string }).ip, () => handler.fetch(request))
  },
})
