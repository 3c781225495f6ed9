/**
 * npm run start:api — the album API alone, so the API and the store can scale apart (ARCHITECTURE.md).
 * Point a store at it with API_BASE_URL.
 */
import { serve } from 'srvx'
import { getConfig } from '../app.config'
import { claimEmbeddedDatabaseOrExit } from '../app/api/db/lock'
import { withRequestClient } from '../app/api/client-address'
import { getApiServer, handleApiRequest } from '../app/api/server'
import { nodeRequestTimeouts } from './http-timeouts'
import { withRequestLog } from '../app/observability/request-log'

const config = getConfig()
claimEmbeddedDatabaseOrExit(config)
await getApiServer()
const server = serve({
  port: config.port,
  hostname: process.env.HOST ?? '0.0.0.0',
  silent: true,
  node: nodeRequestTimeouts(config),
  // One log line per request, its X-Request-Id, and GET /metrics (decision 045).
  fetch: (request) =>
    withRequestLog(request, 'api', (request) =>
      new URL(request.url).pathname.startsWith('/v1/')
        ? withRequestClient(request, config.trustProxyHops, () => handleApiRequest(request))
        : Response.json({ error: { code: 'not_found', message: 'This server only answers /v1' } }, { status: 404 }),
    ),
})
await server.ready()
console.log(`Keepsake album API on port ${config.port} (${config.databaseUrl ? 'PostgreSQL' : 'PGlite'})`)

// Stop on SIGTERM/SIGINT as the store does: stop taking connections, let answers in flight finish, then exit.
for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  process.once(signal, () => {
    setTimeout(() => process.exit(0), 5000).unref()
    void Promise.resolve(server.close()).finally(() => process.exit(0))
  })
}
