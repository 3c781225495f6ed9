import handler, { createServerEntry } from '@tanstack/react-start/server-entry'
import { handleApiRequest } from './api/server'
import { registerInProcessApi } from './lib/api-client'

// Same-origin API calls from server functions are dispatched straight into the /v1 app (ARCHITECTURE.md).
registerInProcessApi(handleApiRequest)

export default createServerEntry({
  fetch(request) {
    return handler.fetch(request)
  },
})
