/**
 * What reaches a server function is input like any other (issue 15, bugs 10 and 17). Before Start
 * reads a `/_serverFn/` request: its body is capped as /v1 caps its own (413), a body that claims to be
 * JSON must parse and a GET's `payload` must be decodable (400), in the API's JSON error shape. A
 * refusal is logged once, without a stack.
 */
import { readBodyCapped } from './api/endpoint'
import { AppError } from './api/errors'

export const SERVER_FN_PREFIX = '/_serverFn/'
export const MAX_SERVER_FN_BODY_BYTES = 1024 * 1024

const refuse = (status: number, code: string, message: string, path: string) => {
  console.warn(`server function refused (${status} ${code}): ${path.slice(0, 120)}`)
  return Response.json({ error: { code, message, issues: [] } }, { status, headers: { 'cache-control': 'no-store' } })
}

/** Start sends a call as seroval's JSON form: an object whose `t` holds the tree (`{"t":{…},"f":…,"m":[]}`). */
const serovalNode = (value: unknown) =>
  typeof value === 'object' &&
  value !== null &&
  !Array.isArray(value) &&
  typeof (value as { t?: unknown }).t === 'object' &&
  (value as { t: unknown }).t !== null
function serovalJson(text: string) {
  try {
    return serovalNode(JSON.parse(text))
  } catch {
    return false
  }
}

/**
 * A call that got past the shallow checks but that seroval cannot read fails inside Start as a 500
 * ("Seroval Error"); it is the caller's malformed input, so it is answered 400 like the rest.
 */
export async function refineServerFnResponse(request: Request, response: Response): Promise<Response> {
  if (response.status !== 500 || !new URL(request.url).pathname.startsWith(SERVER_FN_PREFIX)) return response
  const text = await response.clone().text()
  const pathname = new URL(request.url).pathname
  if (text.includes('Server function info not found')) return refuse(404, 'not_found', 'There is no such server function', pathname)
  if (!text.includes('Seroval Error')) return response
  return refuse(400, 'validation_failed', 'The server function call could not be read', pathname)
}

/** The request to hand to Start (its body read once, within the cap), or the refusal to answer instead. */
export async function guardServerFnRequest(request: Request): Promise<Request | Response> {
  const url = new URL(request.url)
  if (!url.pathname.startsWith(SERVER_FN_PREFIX)) return request
  const payload = url.searchParams.get('payload')
  if (payload !== null && !serovalJson(payload)) {
    return refuse(400, 'validation_failed', 'The server function payload is not a serialized call', url.pathname)
  }
  if (request.method === 'GET' || request.method === 'HEAD') return request
  let body: Buffer
  try {
    body = await readBodyCapped(request, MAX_SERVER_FN_BODY_BYTES, `The request body is larger than ${MAX_SERVER_FN_BODY_BYTES / 1024 / 1024} MB`)
  } catch (error) {
    if (error instanceof AppError) return refuse(413, error.code, error.message, url.pathname)
    throw error
  }
  if (/^application\/json\b/i.test(request.headers.get('content-type') ?? '') && body.length > 0) {
    let parsed: unknown
    try {
      parsed = JSON.parse(body.toString('utf8'))
    } catch {
      return refuse(400, 'validation_failed', 'The request body is not valid JSON', url.pathname)
    }
    if (!serovalNode(parsed)) return refuse(400, 'validation_failed', 'The request body is not a serialized call', url.pathname)
  }
  const guarded = new Request(request.url, {
    method: request.method,
    headers: request.headers,
    body: body.length ? new Uint8Array(body) : null,
    signal: request.signal,
  })
  const ip = (request as Request & { ip?: string }).ip
  if (ip) Object.defineProperty(guarded, 'ip', { value: ip })
  return guarded
}
