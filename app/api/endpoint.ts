import { UNSTORABLE_TEXT_MESSAGE, unstorableTextPath } from '../contract/text'
import type { Context, Hono } from 'hono'
import { pathForProduct, type Endpoint } from '../contract/endpoint'
import type { z } from '../contract/zod'
import type { ApiEnv, SessionUser } from './env'
import { AppError } from './errors'

/** An endpoint as the API registers it: a descriptor from app/contract/endpoints with the product slug in its path. */
export type EndpointSpec = Endpoint

/** The contract descriptor each copy made by `forProduct` came from (the OpenAPI document names operations after it). */
const descriptorOfCopy = new WeakMap<Endpoint, Endpoint>()

/** A descriptor whose path carries `{product}`, for the router built for one product slug. */
export function forProduct<E extends Endpoint>(endpoint: E, productSlug: string): E {
  const copy = { ...endpoint, path: pathForProduct(endpoint.path, productSlug) }
  descriptorOfCopy.set(copy, endpoint)
  return copy
}

/** The app/contract/endpoints descriptor a registered endpoint is. */
export const descriptorOf = (spec: EndpointSpec): Endpoint => descriptorOfCopy.get(spec) ?? spec

/** Every endpoint declared, for /v1/openapi.json; a route module built again (per product slug) replaces its entries. */
export const endpointRegistry: EndpointSpec[] = []

/** Whether a /v1-relative path is an operation's SPEC.md spelling (a trailing slash), answered rather than redirected. */
export const isSpecSpelling = (path: string) => endpointRegistry.some((spec) => spec.specSpelling === path)

function register(spec: EndpointSpec) {
  const at = endpointRegistry.findIndex((s) => s.method === spec.method && s.path === spec.path)
  if (at >= 0) endpointRegistry[at] = spec
  else endpointRegistry.push(spec)
}

type Parsed<S, K extends keyof S> = S[K] extends z.ZodType ? z.output<S[K]> : undefined

type Input<S extends Endpoint> = {
  params: Parsed<S, 'params'>
  query: Parsed<S, 'query'>
  body: Parsed<S, 'body'>
  user: S['auth'] extends 'user' ? SessionUser : SessionUser | null
}

function issuesOf(error: z.ZodError, where: string) {
  return error.issues.map((issue) => ({
    path: [where, ...issue.path.map(String)].join('.'),
    message: issue.message,
  }))
}

async function parsePart(schema: z.ZodType | undefined, value: unknown, where: string) {
  if (!schema) return undefined
  const unstorable = unstorableTextPath(value)
  if (unstorable) {
    const issues = [{ path: [where, ...unstorable].join('.'), message: UNSTORABLE_TEXT_MESSAGE }]
    throw new AppError('validation_failed', `Invalid ${where}: ${issues[0]!.path}: ${UNSTORABLE_TEXT_MESSAGE}`, issues)
  }
  const result = await schema.safeParseAsync(value)
  if (!result.success) {
    const issues = issuesOf(result.error, where)
    throw new AppError('validation_failed', `Invalid ${where}: ${issues.map((i) => `${i.path}: ${i.message}`).join('; ')}`, issues)
  }
  return result.data
}

export const MAX_JSON_BODY_BYTES = 1024 * 1024

/** Reads a request body, refusing (413, with `message`) as soon as it passes the limit, whatever Content-Length claimed. */
export async function readBodyCapped(request: Request, limit: number, message: string): Promise<Buffer> {
  const tooLarge = () => new AppError('payload_too_large', message)
  if (Number(request.headers.get('content-length') ?? 0) > limit) throw tooLarge()
  if (!request.body) return Buffer.alloc(0)
  const reader = request.body.getReader()
  const chunks: Uint8Array[] = []
  let size = 0
  for (;;) {
    const { done, value } = await reader.read()
    if (done) break
    size += value.byteLength
    if (size > limit) {
      await reader.cancel()
      throw tooLarge()
    }
    chunks.push(value)
  }
  return Buffer.concat(chunks)
}

async function readJsonBody(c: Context<ApiEnv>): Promise<unknown> {
  const type = c.req.header('content-type') ?? ''
  const text = (await readBodyCapped(c.req.raw, MAX_JSON_BODY_BYTES, `The request body is larger than ${MAX_JSON_BODY_BYTES / 1024 / 1024} MB`)).toString(
    'utf8',
  )
  if (text.trim() === '' && type === '') return undefined
  if (!/^application\/json\b/i.test(type)) {
    throw new AppError('unsupported_media_type', 'Send the request body as application/json')
  }
  if (text.trim() === '') return undefined
  try {
    return JSON.parse(text) as unknown
  } catch {
    throw new AppError('validation_failed', 'The request body is not valid JSON')
  }
}

/** Declares one /v1 endpoint: validation at the edge, typed input, documented in OpenAPI. */
export function endpoint<S extends Endpoint>(
  router: Hono<ApiEnv>,
  spec: S,
  handler: (input: Input<S>, c: Context<ApiEnv>) => Promise<z.input<S['response']> | Response> | z.input<S['response']> | Response,
) {
  register(spec)
  router.on(spec.method.toUpperCase(), spec.specSpelling ? [spec.path, spec.specSpelling] : [spec.path], async (c) => {
    const user = c.get('user')
    if (spec.auth === 'user' && !user) throw new AppError('unauthenticated', 'Sign in to continue')
    const params = await parsePart(spec.params, c.req.param(), 'params')
    const query = await parsePart(spec.query, c.req.query(), 'query')
    const body = spec.body ? await parsePart(spec.body, await readJsonBody(c), 'body') : undefined
    const result = await handler({ params, query, body, user } as Input<S>, c)
    const answer = result instanceof Response ? result : c.json(spec.response.parse(result) as object, spec.status ?? 200)
    // Kept beside c.res, which a write past its deadline no longer gets (the 503 is there): idempotency.ts reads it.
    c.set('answer', answer)
    return answer
  })
}
