/**
 * The request line (decision 045): each request a server process answers is one log line — request id,
 * layer, method, route pattern, path, status, duration, shopper — and one observation of the request
 * duration histogram. The store (scripts/serve.ts, app/server.ts), the API alone (scripts/serve-api.ts)
 * and the store's in-process calls into the API each wrap their handler in `withRequestLog`.
 *
 * A leaf module that plain Node loads too (scripts/serve.ts): its imports carry their extensions.
 */
import { randomUUID } from 'node:crypto'
import { currentRequestContext, isClientAbort, logger, REQUEST_ID_PATTERN, runInRequestContext, type RequestContext } from './log.ts'
import { metrics, metricsResponse, statusClass } from './metrics.ts'

export const REQUEST_ID_HEADER = 'x-request-id'

/** The client's X-Request-Id when it is a sane one, else a new id. */
export function requestIdOf(request: Request): string {
  const given = request.headers.get(REQUEST_ID_HEADER)?.trim()
  return given && REQUEST_ID_PATTERN.test(given) ? given : randomUUID()
}

/** Status 499 (nginx's "client closed request"): what the request line says of a client that left. */
export const CLIENT_CLOSED = 499

/** Marks the current request (and the requests it runs inside) as left by its client. */
export function noteClientLeft() {
  for (let context = currentRequestContext(); context; context = context.parent) context.aborted = true
}

/**
 * Marks the current request (and the requests it runs inside) as met by a dependency's outage: a page whose loader
 * got the API's 503 'unavailable' is answered 503 with Retry-After too, not 500 (app/start.ts, issue 43, item 6).
 */
export function noteOutage() {
  for (let context = currentRequestContext(); context; context = context.parent) context.outage = true
}

/** Whether the current request met a dependency's outage (noteOutage). */
export const metOutage = () => currentRequestContext()?.outage === true

/**
 * When the client leaves, the request's signal aborts with Node's `Error: aborted` (ECONNRESET). TanStack Start
 * abandons the request with that reason and prints every error without an HTTP status with its stack: marked
 * 499 here, it is answered without one, and the request line is the one line it gets (issue 42, item 19).
 */
function markClientAbortOf(request: Request) {
  const { signal } = request
  const mark = () => {
    const reason: unknown = signal.reason
    if (reason !== null && typeof reason === 'object' && isClientAbort(reason, signal)) {
      try {
        Object.assign(reason, { status: CLIENT_CLOSED })
      } catch {
        // A frozen reason keeps its shape.
      }
    }
  }
  if (signal.aborted) mark()
  else signal.addEventListener('abort', mark, { once: true })
}

function routeLabel(context: RequestContext, pathname: string) {
  if (context.route) return context.route
  if (pathname.startsWith('/v1/') || pathname === '/v1') return '/v1/*'
  return 'unmatched'
}

/**
 * Runs `handle` as one request of `layer`: inside its request context (the id as the client sent it, or
 * the id of the request it is part of), with X-Request-Id on the answer, and writes its line. Called
 * again for the same request in the same layer (app/server.ts under scripts/serve.ts), it only runs `handle`.
 * The outermost layer of a process answers GET /metrics (metrics.ts) and observes the duration.
 */
export async function withRequestLog(request: Request, layer: 'store' | 'api', handle: (request: Request) => Response | Promise<Response>): Promise<Response> {
  const parent = currentRequestContext()
  if (parent?.layer === layer) return handle(request)
  const url = new URL(request.url)
  if (!parent && url.pathname === '/metrics') return metricsResponse(request, process.env.METRICS_TOKEN)

  if (!parent) markClientAbortOf(request)
  const context: RequestContext = { id: parent?.id ?? requestIdOf(request), layer, method: request.method, ...(parent ? { parent } : {}) }
  const started = performance.now()
  let response: Response
  try {
    response = await runInRequestContext(context, () => handle(request))
  } catch (error) {
    if (isClientAbort(error, request.signal)) {
      context.aborted = true
    } else if (!context.errorLogged) {
      context.errorLogged = true
      runInRequestContext(context, () => logger().error({ err: error, method: request.method, path: url.pathname }, 'request failed'))
    }
    response = context.aborted
      ? new Response(null, { status: CLIENT_CLOSED })
      : Response.json({ error: { code: 'internal', message: 'Something went wrong on our side', requestId: context.id } }, { status: 500 })
  }
  if (request.signal.aborted) context.aborted = true
  try {
    if (!response.headers.has(REQUEST_ID_HEADER)) response.headers.set(REQUEST_ID_HEADER, context.id)
  } catch {
    // An immutable response (a proxied image) keeps the headers it came with.
  }
  const status = context.aborted ? CLIENT_CLOSED : response.status
  const seconds = (performance.now() - started) / 1000
  const route = routeLabel(context, url.pathname)
  const line = {
    reqId: context.id,
    layer,
    method: request.method,
    route,
    path: url.pathname.slice(0, 200),
    status,
    ms: Math.round(seconds * 10_000) / 10,
    ...(context.accountId ? { accountId: context.accountId } : {}),
  }
  // One info line each, a client that left included (no stack: it is no error of ours).
  if (context.aborted) logger().info({ ...line, aborted: true }, 'client left mid-request')
  else logger().info(line, 'request')
  if (!parent) metrics().requestDuration.observe({ route, method: request.method, status: statusClass(status) }, seconds)
  return response
}
