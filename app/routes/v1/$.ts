import { createFileRoute } from '@tanstack/react-router'
import { getConfig } from '../../../app.config'
import { handleApiRequest } from '~/api/server'
import { apiIsRemote, forwardToApi } from '~/api/forward'

/** Mounts the album API (app/api/app.ts) at /v1, or forwards /v1 to it when API_BASE_URL is another origin. */
export const Route = createFileRoute('/v1/$')({
  server: {
    handlers: {
      ANY: ({ request }) => {
        const config = getConfig()
        return apiIsRemote(config) ? forwardToApi(request, config.apiBaseUrl) : handleApiRequest(request)
      },
    },
  },
})
