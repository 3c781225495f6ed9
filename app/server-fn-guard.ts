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

/** The request to hand to Start (its body read once, within the cap), or the refusal to answer instead. */
export async function guardServerFnRequest(request: Request): Promise<Request | Response> {
  const url = new URL(request.url)
  if (!url.pathname.startsWith(SERVER_FN_PREFIX)) return request
  const payload = url.searchParams.get('payload')
  if (payload !== null) {
    try {
      JSON.parse(payload)
    } catch {
      return refuse(400, 'validation_failed', 'The server function payload is not valid JSON', url.pathname)
    }
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
    try {
      JSON.parse(body.toString('utf8'))
    } catch {
      return refuse(400, 'validation_failed', 'The request body is not valid JSON', url.pathname)
    }
  }
  const guarded = new Request(request.url, { method: request.method, headers: request.headers, body: body.length ? new Uint8Array(body) : null, signal: request.signal })
  const ip = (request as Request & { ip?: string }).ip
  if (ip) Object.defineProperty(guarded, 'ip', { value: ip })
  return guarded
}
