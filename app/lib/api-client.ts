import { apiErrorSchema } from '../contract/errors'
import { concretePath, type CallInput, type Endpoint, type EndpointResponse, type NeedsInput } from '../contract/endpoint'
import { IDEMPOTENCY_KEY_HEADER, REQUEST_ID_HEADER, TIMEZONE_HEADER, VERSION_HEADER } from '../contract/headers'
import { ApiClientError } from './api-client-error'
import { wordsForStatus } from './error-status'
import { photoProxyUrl } from './photo-conversion'
import { withRetry, type Sleep } from './retry'

// The error class lives apart from the client: the browser needs it (error-text) without the contract's zod schemas.
export { ApiClientError }

export type Dispatch = (request: Request) => Promise<Response>

let inProcess: Dispatch | null = null
/** The server entry registers the API here so same-origin calls skip the socket (ARCHITECTURE.md). */
export function registerInProcessApi(dispatch: Dispatch) {
  inProcess = dispatch
}

export type ApiClientOptions = {
  baseUrl: string
  /** The app's own origin: calls to it are dispatched in-process when the API is registered. */
  ownOrigin: string
  /** Forwarded from the shopper's request: cookies (SPEC.md §6, "all calls send credentials"). */
  cookie?: string | null
  timezone?: string | null
  /** SPEC.md §7: album calls carry a version header whose value is unset. */
  version?: string
  /** The celebrate client has the photo proxy disabled (SPEC.md §7). */
  photoProxy?: boolean
  productSlug: string
  onSetCookie?: (cookie: string) => void
  /** Retry as app/lib/retry.ts says (SPEC.md §8); unset, every call is made once. */
  retry?: RetryPolicy
  /** The server's calls carry the shopper's request id to the API (X-Request-Id, decision 045). */
  requestId?: () => string | undefined
}

/** How one call may be sent: extra headers (a bearer code), and whether this call may be retried. */
export type CallOptions = {
  headers?: Record<string, string>
  /** A write is retried only under a key the API honours (same key, same answer); one is made per call when retrying. */
  idempotencyKey?: string
  /** Names the call for the shopper: its last failure reads "{operation} failed after 3 attempts: …" (SPEC.md §8). */
  operation?: string
}

/** How the server applies app/lib/retry.ts's rule: `sleep` is replaceable for tests; an attempt with no answer in `timeoutMs` failed. */
export type RetryPolicy = { sleep?: Sleep; timeoutMs: number }

type CallArgs<E extends Endpoint> = NeedsInput<E> extends true ? [input: CallInput<E>, options?: CallOptions] : [input?: CallInput<E>, options?: CallOptions]

const UNSAFE = new Set(['POST', 'PUT', 'PATCH', 'DELETE'])

function retryAfterMs(header: string | null): number | undefined {
  if (!header) return undefined
  const seconds = Number(header)
  if (Number.isFinite(seconds) && seconds >= 0) return seconds * 1000
  const at = Date.parse(header)
  return Number.isNaN(at) ? undefined : Math.max(0, at - Date.now())
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new ApiClientError(0, 'network', wordsForStatus(0), [], new Error(`No answer within ${ms} ms`))), ms)
  })
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer))
}

export function createApiClient(options: ApiClientOptions) {
  const base = options.baseUrl.replace(/\/$/, '')
  const sameOrigin = new URL(base).origin === options.ownOrigin
  const dispatch: Dispatch = sameOrigin && inProcess ? inProcess : (r) => fetch(r)
  // Links the page draws (photo proxy URLs) stay root-relative, so they work under any host name (decision 020); a remote
  // API is reached through the store's own /v1, which forwards there (app/api/forward.ts).
  const linkBase = ''
  const retry = options.retry

  async function send<E extends Endpoint>(endpoint: E, input: Partial<CallInput<E>>, callOptions: CallOptions): Promise<EndpointResponse<E>> {
    const url = new URL(`${base}/v1${concretePath(endpoint.path, options.productSlug, input.params as Record<string, unknown> | undefined)}`)
    for (const [key, value] of Object.entries((input.query ?? {}) as Record<string, unknown>)) {
      if (value !== undefined && value !== null) url.searchParams.set(key, String(value))
    }
    const headers = new Headers(callOptions.headers)
    headers.set('accept', 'application/json')
    headers.set(TIMEZONE_HEADER, options.timezone || 'UTC')
    headers.set(VERSION_HEADER, options.version ?? '')
    if (options.cookie) headers.set('cookie', options.cookie)
    const requestId = options.requestId?.()
    if (requestId) headers.set(REQUEST_ID_HEADER, requestId)
    if (callOptions.idempotencyKey) headers.set(IDEMPOTENCY_KEY_HEADER, callOptions.idempotencyKey)
    if (input.body !== undefined) headers.set('content-type', 'application/json')
    const method = endpoint.method.toUpperCase()
    // Server-to-API calls identify as same-origin so the API's CSRF guard treats them as our own pages.
    if (method !== 'GET') headers.set('origin', new URL(base).origin)

    let response: Response
    try {
      const request = new Request(url, {
        method,
        headers,
        body: input.body === undefined ? undefined : JSON.stringify(input.body),
        credentials: 'include',
      })
      response = await (retry ? withTimeout(dispatch(request), retry.timeoutMs) : dispatch(request))
    } catch (error) {
      if (error instanceof ApiClientError) throw error
      throw new ApiClientError(0, 'network', wordsForStatus(0), [], error)
    }
    for (const cookie of response.headers.getSetCookie()) options.onSetCookie?.(cookie)
    const text = await response.text()
    let json: unknown = null
    try {
      json = text ? JSON.parse(text) : null
    } catch {
      // A proxy's HTML error page or a cut-off body: reported by status below, never as a SyntaxError.
      if (response.ok) throw new ApiClientError(502, 'provider_failed', 'Keepsake answered with something that is not JSON')
    }
    if (!response.ok) {
      const parsed = apiErrorSchema.safeParse(json)
      const wait = retryAfterMs(response.headers.get('retry-after'))
      if (parsed.success)
        throw new ApiClientError(response.status, parsed.data.error.code, parsed.data.error.message, parsed.data.error.issues, undefined, wait)
      throw new ApiClientError(response.status, 'internal', wordsForStatus(response.status), [], undefined, wait)
    }
    return endpoint.response.parse(json) as EndpointResponse<E>
  }

  /** One /v1 call, described once in app/contract/endpoints: path, method and schemas come from the descriptor. */
  async function call<E extends Endpoint>(endpoint: E, ...[input, callOptions]: CallArgs<E>): Promise<EndpointResponse<E>> {
    const given = (input ?? {}) as Partial<CallInput<E>>
    const opts = { ...callOptions }
    if (!retry) return send(endpoint, given, opts)
    const unsafe = UNSAFE.has(endpoint.method.toUpperCase())
    // A write is retried only under one key for all its attempts, so the API answers a repeat with the first answer.
    if (unsafe && !opts.idempotencyKey) opts.idempotencyKey = crypto.randomUUID()
    try {
      return await withRetry(() => send(endpoint, given, opts), { sleep: retry.sleep })
    } catch (error) {
      throw opts.operation && error instanceof ApiClientError ? error.named(opts.operation) : error
    }
  }

  return {
    call,
    /** Album photo URLs go through /v1/{product}-photos/proxy unless this client has the proxy disabled. */
    photoUrl(url: string, sizes: { inputSize?: string; outputSize?: string } = {}) {
      return options.photoProxy === false ? url : photoProxyUrl(linkBase, options.productSlug, url, sizes)
    },
  }
}

export type ApiClient = ReturnType<typeof createApiClient>
