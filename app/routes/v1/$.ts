import { createFileRoute } from '@tanstack/react-router'
import { serveStoreApi } from '~/api/store-v1'

/** Mounts the album API (app/api/app.ts) at /v1, or forwards /v1 to it when API_BASE_URL is another origin. */
export const Route = createFileRoute('/v1/$')({
  server: {
    handlers: {
      ANY: ({ request }) => serveStoreApi(request),
    },
  },
})
