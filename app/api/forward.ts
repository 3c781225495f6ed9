/**
 * The store and the API apart (README "Scaling the API apart"): when API_BASE_URL names another origin,
 * the store's own `/v1` forwards every request there instead of opening a database of its own. The browser
 * keeps talking to the store's origin only (base images, the bundles shelf, photo and preview media, signed
 * upload URLs), so no CORS is needed and the session cookie goes along. The API sees the shopper's address
 * in `X-Forwarded-For`, resolved by the store under its own TRUST_PROXY: run the API with TRUST_PROXY=1.
 */
import { currentClientAddress } from './client-address'
import { currentRequestId, isClientAbort, logger } from '../observability/log'
import { CLIENT_CLOSED, noteClientLeft, noteOutage } from '../observability/request-log'
import { OUTAGE_RETRY_AFTER_MS } from './errors'

/** Whether the store should forward `/v1` rather than answer it itself. */
export function apiIsRemote(config: { apiBaseUrl: string; publicUrl: string }): boolean {
  return new URL(config.apiBaseUrl).origin !== new URL(config.publicUrl).origin
}

/** Hop-by-hop headers, and what the store decides afresh for the next hop. */
const DROPPED_REQUEST_HEADERS = ['host', 'connection', 'keep-alive', 'transfer-encoding', 'upgrade', 'x-forwarded-for', 'accept-encoding', 'content-length']
const DROPPED_RESPONSE_HEADERS = ['connection', 'keep-alive', 'transfer-encoding', 'content-encoding', 'content-length']

export async function forwardToApi(request: Request, apiBaseUrl: string, fetchImpl: typeof fetch = fetch): Promise<Response> {
  const incoming = new URL(request.url)
  const target = new URL(`${incoming.pathname}${incoming.search}`, `${apiBaseUrl.replace(/\/$/, '')}/`)
  const headers = new Headers(request.headers)
  for (const name of DROPPED_REQUEST_HEADERS) headers.delete(name)
  headers.set('x-forwarded-for', currentClientAddress())
  headers.set('x-forwarded-host', incoming.host)
  headers.set('x-forwarded-proto', incoming.protocol.replace(':', ''))
  // The API logs the store's request id, so one search finds both lines (decision 045).
  const requestId = currentRequestId()
  if (requestId) headers.set('x-request-id', requestId)
  const hasBody = request.method !== 'GET' && request.method !== 'HEAD'
  let answer: Response
  try {
    answer = await fetchImpl(target, {
      method: request.method,
      headers,
      body: hasBody ? request.body : undefined,
      redirect: 'manual',
      signal: request.signal,
      ...(hasBody ? { duplex: 'half' } : {}),
    } as RequestInit)
  } catch (error) {
    // The shopper went away and the forward was cancelled with it: the request line says so, no error.
    if (isClientAbort(error, request.signal)) {
      noteClientLeft()
      return new Response(null, { status: CLIENT_CLOSED })
    }
    // The album API is a dependency like the database: its outage is a 503 'unavailable' with Retry-After and the
    // request's id, logged as a warning, and a page that met it says "We'll be right back" (issue 43, item 6).
    logger().warn({ err: error }, `[api-forward] ${request.method} ${target.pathname}: the album API at ${target.origin} did not answer`)
    noteOutage()
    const requestId = currentRequestId()
    return Response.json(
      { error: { code: 'unavailable', message: 'The album service is not answering; try again in a moment', ...(requestId ? { requestId } : {}) } },
      { status: 503, headers: { 'retry-after': String(OUTAGE_RETRY_AFTER_MS / 1000), 'cache-control': 'no-store' } },
    )
  }
  const out = new Headers(answer.headers)
  for (const name of DROPPED_RESPONSE_HEADERS) out.delete(name)
  return new Response(request.method === 'HEAD' ? null : answer.body, { status: answer.status, statusText: answer.statusText, headers: out })
}
