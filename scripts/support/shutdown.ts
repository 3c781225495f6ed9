/**
 * Graceful shutdown and health for the process entries (scripts/serve.ts, scripts/serve-api.ts), as
 * docs/decisions/044 describes. `startLifecycle` installs the SIGTERM/SIGINT handlers before anything
 * else happens, so a signal at any instant (before listening, while warming up, after, in maintenance)
 * ends in the same steps:
 *
 * 1. /readyz answers 503 (draining) and the listening socket closes: new connections are refused.
 * 2. Requests in flight finish; their connections are told `Connection: close`, idle kept-alive ones
 *    are closed. The job worker stops claiming and lets its running job finish. A warm-up in progress
 *    stops at its next step. All of this within the grace (SHUTDOWN_GRACE_SECONDS, less a close budget).
 * 3. When the grace for them runs out, the connections left are closed and the job leases still held
 *    are handed back (queued again, due now).
 * 4. Redis, mail and the database close (database last; the embedded lock goes with it), and the
 *    process exits 0, at the latest when SHUTDOWN_GRACE_SECONDS is up.
 *
 * A second signal skips the waiting of step 2 (the grace is cut short), then does 3 and 4.
 */
import type { IncomingMessage, Server as NodeServer, ServerResponse } from 'node:http'
import { beginDrain, isDraining, markWarm, readiness, runShutdownHooks } from '../../app/api/lifecycle.ts'
import { logger } from '../../app/observability/log.ts'

/**
 * Until startLifecycle runs, nothing is open and no lock is held: a signal then exits 0 at once. Entries
 * import this module first, so these handlers are in place before the rest of the code loads.
 */
let onSignal: ((signal: NodeJS.Signals) => void) | null = null
for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  process.on(signal, () => (onSignal ? onSignal(signal) : process.exit(0)))
}

/** What this module needs of srvx's server. */
type ServedServer = { node?: { server?: unknown } }

export type Lifecycle = ReturnType<typeof startLifecycle>

/** The part of the grace kept for closing connections and the database (at most 5 s, a fifth of a short grace). */
const closeBudgetMs = (graceMs: number) => Math.min(5000, graceMs / 5)

export function startLifecycle({ graceSeconds, name }: { graceSeconds: number; name: string }) {
  const graceMs = Math.round(graceSeconds * 1000)
  let node: NodeServer | null = null
  const inFlight = new Set<ServerResponse>()
  const starting: Promise<unknown>[] = []
  const deadline = new AbortController()
  let signals = 0

  const onRequest = (_req: IncomingMessage, res: ServerResponse) => {
    inFlight.add(res)
    res.once('close', () => inFlight.delete(res))
    // A request that came on a kept-alive connection during the drain is answered, and its connection closed after.
    if (isDraining()) res.shouldKeepAlive = false
  }

  const untilAborted = (signal: AbortSignal) =>
    new Promise<void>((resolve) => (signal.aborted ? resolve() : signal.addEventListener('abort', () => resolve(), { once: true })))

  /** Stops listening, lets requests in flight finish until `deadline`, then closes what is left. */
  async function drainHttp(signal: AbortSignal) {
    if (!node) return
    const server = node
    // Answers in flight say Connection: close, so their clients send nothing more on those connections.
    for (const res of inFlight) if (!res.headersSent) res.shouldKeepAlive = false
    const closed = new Promise<void>((resolve) => server.close(() => resolve()))
    server.closeIdleConnections()
    const sweep = setInterval(() => server.closeIdleConnections(), 100)
    try {
      await Promise.race([closed, untilAborted(signal)])
    } finally {
      clearInterval(sweep)
    }
    if (signal.aborted && inFlight.size > 0) console.warn(`${name}: the grace ran out; closing ${inFlight.size} request(s) still in flight`)
    server.closeAllConnections()
  }

  async function stop(signal: NodeJS.Signals) {
    const started = performance.now()
    beginDrain()
    // The process is gone within the grace whatever happens below.
    setTimeout(() => {
      console.error(`${name}: still stopping after ${graceSeconds} s; exiting now`)
      process.exit(0)
    }, graceMs).unref()
    const drainTimer = setTimeout(() => deadline.abort(), Math.max(0, graceMs - closeBudgetMs(graceMs)))
    // drainHttp closes the listening socket before its first await: once this line is out, connections are refused.
    const http = drainHttp(deadline.signal)
    console.log(`${name}: ${signal} received; draining (up to ${graceSeconds} s)`)
    // A warm-up in progress stops at its next step; what it opened is then registered for closing.
    await Promise.race([Promise.allSettled(starting), untilAborted(deadline.signal)])
    const failed = await runShutdownHooks('drain', deadline.signal)
    await http
    clearTimeout(drainTimer)
    failed.push(...(await runShutdownHooks('close', deadline.signal, closeBudgetMs(graceMs) || 1000)))
    for (const problem of failed) console.error(`${name}: while stopping, ${problem}`)
    console.log(`${name}: stopped in ${Math.round(performance.now() - started)} ms`)
    process.exit(0)
  }

  onSignal = (signal) => {
    signals++
    if (signals === 1) {
      void stop(signal).catch((error) => {
        console.error(`${name}: stopping failed`, error)
        process.exit(1)
      })
    } else {
      // A second signal: no more waiting for requests and jobs; leases are handed back and connections closed.
      console.log(`${name}: ${signal} again; closing what is in flight now`)
      deadline.abort()
    }
  }

  return {
    graceMs,
    /** True once a signal came: start nothing more. */
    get stopping() {
      return isDraining()
    },
    /** A start-up step (loading the build, warming up) the shutdown waits for before closing what it opened. */
    track<T>(step: Promise<T>): Promise<T> {
      starting.push(step)
      return step
    },
    /** The server to drain; call before it listens. */
    attach(server: ServedServer) {
      // srvx serves HTTP/1.1 here (no TLS, no http2 option): a node:http server.
      node = (server.node?.server as NodeServer | undefined) ?? null
      node?.on('request', onRequest)
      // A signal that came while the socket was being opened: close it as soon as it is open.
      node?.on('listening', function (this: NodeServer) {
        if (isDraining()) this.close()
      })
    },
    /** Warm-up is done: /readyz may answer ready (when its checks pass). */
    markWarm,
  }
}

const HEALTH_HEADERS = { 'cache-control': 'no-store' }

/**
 * GET /healthz (the process lives) and GET /readyz (it can serve: warmed up, not draining, database,
 * Redis and storage answer), as a srvx middleware placed before everything else: no rate limit, no
 * maintenance page, no log line of its own. /readyz names each check and its state ('ok' or 'failing'); why a
 * check failed goes to the log, once per run of the checks (at most one a second, lifecycle.ts).
 */
export async function healthMiddleware(request: Request, next: () => Response | Promise<Response>): Promise<Response> {
  const { pathname } = new URL(request.url)
  if (pathname !== '/healthz' && pathname !== '/readyz') return next()
  if (request.method !== 'GET' && request.method !== 'HEAD') {
    return Response.json(
      { error: { code: 'method_not_allowed', message: `${pathname} answers GET and HEAD only` } },
      { status: 405, headers: { ...HEALTH_HEADERS, allow: 'GET, HEAD' } },
    )
  }
  if (pathname === '/healthz') return Response.json({ status: 'ok' }, { headers: HEALTH_HEADERS })
  const state = await readiness({ onProblem: (check, reason) => logger().warn({ check, reason }, 'readiness check failed') })
  return Response.json({ status: state.status, checks: state.checks }, { status: state.ready ? 200 : 503, headers: HEALTH_HEADERS })
}
