/**
 * Serves the production build with plain Node: static files from dist/client, everything else
 * through the Start server entry (pages, server functions and the /v1 API). See docs/decisions/003.
 */
// First: from here on a signal is handled (before the rest loads, it simply exits 0).
import { healthMiddleware, startLifecycle } from './support/shutdown.ts'
import { readdirSync } from 'node:fs'
import { serve } from 'srvx'
import { staticMiddleware } from 'srvx/static'
import { loadConfig } from '../app.config.ts'
import { claimEmbeddedDatabaseOrExit } from '../app/api/db/lock.ts'
import { hasMalformedPath, isApiPath, MALFORMED_LINK_PAGE, malformedApiPathResponse } from '../app/contract/malformed-path.ts'
import { currentRequestId } from '../app/observability/log.ts'
import { withRequestLog } from '../app/observability/request-log.ts'
import { compressResponse } from './http-compression.ts'
import { cutStalledBodies, nodeRequestTimeouts } from './http-timeouts.ts'

let config: ReturnType<typeof loadConfig>
try {
  config = loadConfig()
} catch (error) {
  console.error(error instanceof Error ? error.message : error)
  process.exit(1)
}
// SIGTERM/SIGINT at any instant from here on drains and exits 0 (scripts/support/shutdown.ts, decision 044).
const lifecycle = startLifecycle({ graceSeconds: config.shutdownGraceSeconds, name: 'Keepsake' })
// One process per embedded database (PGlite): a second one stops here with one line.
claimEmbeddedDatabaseOrExit(config)

const { default: entry } = await lifecycle.track(
  import(new URL('../dist/server/server.js', import.meta.url).href) as Promise<{ default: { fetch: (request: Request) => Promise<Response> } }>,
)
const statics = staticMiddleware({ dir: new URL('../dist/client', import.meta.url).pathname })

async function malformedUrlPage(request: Request) {
  const page = await entry.fetch(new Request(`${new URL(request.url).origin}${MALFORMED_LINK_PAGE}`, { headers: new Headers(request.headers) }))
  const headers = new Headers(page.headers)
  headers.delete('content-length')
  return new Response(await page.text(), { status: 400, headers })
}

const answerMalformedPath = (request: Request) =>
  isApiPath(new URL(request.url).pathname) ? malformedApiPathResponse(currentRequestId()) : malformedUrlPage(request)

const server = serve({
  port: config.port,
  hostname: process.env.HOST ?? '0.0.0.0',
  silent: true,
  // Signals are ours (startLifecycle), not srvx's: its handler closed the socket and left the process running.
  gracefulShutdown: false,
  manual: true,
  node: nodeRequestTimeouts(config),
  middleware: [
    // /healthz and /readyz before anything else: cheap, and answered in maintenance too.
    healthMiddleware,
    async (request, next) => {
      // A path that does not decode gets a bare "Bad Request" from srvx's static files and from Start alike;
      // the shopper gets the store's own broken-link page instead, answered 400, with its headers (issue 15, bug 8;
      // issue 32: not called a missing page).
      // Under /v1 the answer is the API's error, in its JSON shape (issue 29, bug 7).
      // Inside the request log, as every other answer: its line, its X-Request-Id, and the id in the body (issue 43, item 9).
      if (hasMalformedPath(request.url)) return withRequestLog(request, 'store', answerMalformedPath)
      const response = await statics(request, next)
      const path = new URL(request.url).pathname
      // Static files carry nosniff as pages do (issue 15, bug 17).
      try {
        if (!response.headers.has('x-content-type-options')) response.headers.set('x-content-type-options', 'nosniff')
      } catch {
        // An immutable response (a proxied image) keeps the headers it came with.
      }
      if (path.startsWith('/assets/') && response.status === 200) {
        response.headers.set('cache-control', 'public, max-age=31536000, immutable')
      }
      // Pages and JSON go out compressed (the static files already are): a page is ~21 KB raw, ~6 KB brotli.
      return compressResponse(request, response)
    },
  ],
  // One log line per request, its X-Request-Id, and GET /metrics (decision 045).
  fetch: (request) => withRequestLog(request, 'store', (request) => entry.fetch(request)),
})
lifecycle.attach(server)
// A request body that stops arriving is cut (408); one that keeps moving never is (decision 066).
cutStalledBodies(server, config)
if (!lifecycle.stopping) await lifecycle.track(Promise.resolve(server.serve()))
if (!lifecycle.stopping) {
  console.log(
    `Keepsake is serving ${config.publicUrl} (port ${config.port}, ${config.databaseUrl ? 'PostgreSQL' : 'PGlite'}${config.demoMode ? ', demo mode' : ''})`,
  )
  // Open the database and seed the demo albums now rather than on the first shopper's request.
  await lifecycle.track(warmUp())
}

/**
 * Every chunk of the server build, loaded now rather than by the first shopper to open each page: a page's first
 * render after a start otherwise waits for its modules to be read, resolved and compiled (about 1.3 s of CPU over
 * a first shopping trip; half a second here). Loading a chunk only defines its modules (decision 056, follow-up).
 */
async function loadServerChunks() {
  const dir = new URL('../dist/server/assets/', import.meta.url)
  const chunks = readdirSync(dir).filter((name) => name.endsWith('.js'))
  const started = performance.now()
  await Promise.all(chunks.map((name) => import(new URL(name, dir).href)))
  console.log(`Loaded the ${chunks.length} server chunks in ${Math.round(performance.now() - started)} ms`)
}

async function warmUp() {
  const started = performance.now()
  if (config.demoMode) {
    console.log('Demo mode is on: anyone can sign in as a demo family at /utils/demo-sign-in. Set DEMO_MODE=false for a real store.')
    console.log('Preparing the album API and the demo albums (the first start renders the demo photos, about 20 s)…')
  }
  const warm = await entry.fetch(new Request(`${config.publicUrl}/v1/openapi.json`))
  if (lifecycle.stopping) return
  console.log(warm.ok ? `Album API ready in ${Math.round(performance.now() - started)} ms` : `Album API answered ${warm.status} while starting`)
  await lifecycle.track(loadServerChunks())
  lifecycle.markWarm()
}
