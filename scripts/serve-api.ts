/**
 * npm run start:api — the album API alone, so the API and the store can scale apart (ARCHITECTURE.md).
 * Point a store at it with API_BASE_URL.
 */
// First: from here on a signal is handled (before the rest loads, it simply exits 0).
import { healthMiddleware, startLifecycle } from './support/shutdown'
import { serve } from 'srvx'
import { getConfig } from '../app.config'
import { claimEmbeddedDatabaseOrExit } from '../app/api/db/lock'
import { withRequestClient } from '../app/api/client-address'
import { getApiServer, handleApiRequest } from '../app/api/server'
import { isDependencyOutage } from '../app/api/outages'
import { cutStalledBodies, nodeRequestTimeouts } from './http-timeouts'
import { withRequestLog } from '../app/observability/request-log'

const config = getConfig()
// SIGTERM/SIGINT at any instant from here on drains and exits 0 (scripts/support/shutdown.ts, decision 044).
const lifecycle = startLifecycle({ graceSeconds: config.shutdownGraceSeconds, name: 'Keepsake album API' })
claimEmbeddedDatabaseOrExit(config)
await lifecycle.track(getApiServer()).catch((error: unknown) => {
  // A signal during warm-up stops it; the shutdown exits 0 once what it opened is closed.
  if (lifecycle.stopping) return
  // The database is not answering: serve anyway, not ready and answering 503, until it does (the API opens again by itself; decision 073).
  if (!isDependencyOutage(error)) throw error
})
const server = serve({
  port: config.port,
  hostname: process.env.HOST ?? '0.0.0.0',
  silent: true,
  // Signals are ours (startLifecycle), not srvx's.
  gracefulShutdown: false,
  manual: true,
  node: nodeRequestTimeouts(config),
  // /healthz and /readyz before anything else: cheap, never rate limited.
  middleware: [healthMiddleware],
  // One log line per request, its X-Request-Id, and GET /metrics (decision 045).
  fetch: (request) =>
    withRequestLog(request, 'api', (request) =>
      new URL(request.url).pathname.startsWith('/v1/')
        ? withRequestClient(request, config.trustProxyHops, () => handleApiRequest(request))
        : Response.json({ error: { code: 'not_found', message: 'This server only answers /v1' } }, { status: 404 }),
    ),
})
lifecycle.attach(server)
// A request body that stops arriving is cut (408); one that keeps moving never is (decision 066).
cutStalledBodies(server, config)
if (!lifecycle.stopping) await lifecycle.track(Promise.resolve(server.serve()))
if (!lifecycle.stopping) {
  lifecycle.markWarm()
  console.log(`Keepsake album API on port ${config.port} (${config.databaseUrl ? 'PostgreSQL' : 'PGlite'})`)
}
