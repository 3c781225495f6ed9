import { getConfig } from '../../app.config'
import { apiIsRemote, forwardToApi } from './forward'
import { handleApiRequest } from './server'

/** The store's /v1: the album API in this process, or forwarded to API_BASE_URL when that is another origin. */
export function serveStoreApi(request: Request): Promise<Response> {
  const config = getConfig()
  return apiIsRemote(config) ? forwardToApi(request, config.apiBaseUrl) : handleApiRequest(request)
}
