import { createFileRoute } from '@tanstack/react-router'
import { handleApiRequest } from '~/api/server'

/** Mounts the album API (app/api/app.ts) at /v1. */
export const Route = createFileRoute('/v1/$')({
  server: {
    handlers: {
      ANY: ({ request }) => handleApiRequest(request),
    },
  },
})
