import { apiErrorSchema, type ErrorCode } from '../contract/errors'
import { TIMEZONE_HEADER, VERSION_HEADER } from '../contract/headers'
import type { z } from '../contract/zod'
import { wordsForStatus } from './error-status'
import { photoProxyUrl } from './photo-conversion'

export type Dispatch = (request: Request) => Promise<Response>

/** A refusal or failure from the album API, carrying its status and error code. */
export class ApiClientError extends Error {
  constructor(
    readonly status: number,
    readonly code: ErrorCode | 'network',
    message: string,
    /** Field-level refusals of a 400, e.g. `{ path: 'body.shippingAddress.postalCode', message }`. */
    readonly issues: { path: string; message: string }[] = [],
    /** What went wrong underneath (a network error), for logs; never shown. */
    cause?: unknown,
  ) {
    super(message, cause === undefined ? undefined : { cause })
    this.name = 'ApiClientError'
  }
}

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
}

type CallOptions<S extends z.ZodType> = {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE'
  query?: Record<string, string | number | boolean | undefined | null>
  body?: unknown
  headers?: Record<string, string>
  schema: S
}

export function createApiClient(options: ApiClientOptions) {
  const base = options.baseUrl.replace(/\/$/, '')
  const sameOrigin = new URL(base).origin === options.ownOrigin
  const dispatch: Dispatch = sameOrigin && inProcess ? inProcess : (r) => fetch(r)
  // Links the page draws (photo proxy URLs) stay root-relative on our own API, so they work under any host name (issue 15, bug 6).
  const linkBase = sameOrigin ? '' : base

  async function call<S extends z.ZodType>(path: string, call: CallOptions<S>): Promise<z.output<S>> {
    const url = new URL(`${base}/v1${path}`)
    for (const [key, value] of Object.entries(call.query ?? {})) {
      if (value !== undefined && value !== null) url.searchParams.set(key, String(value))
    }
    const headers = new Headers(call.headers)
    headers.set('accept', 'application/json')
    headers.set(TIMEZONE_HEADER, options.timezone || 'UTC')
    headers.set(VERSION_HEADER, options.version ?? '')
    if (options.cookie) headers.set('cookie', options.cookie)
    if (call.body !== undefined) headers.set('content-type', 'application/json')
    const method = call.method ?? 'GET'
    // Server-to-API calls identify as same-origin so the API's CSRF guard treats them as our own pages.
    if (method !== 'GET') headers.set('origin', new URL(base).origin)

    let response: Response
    try {
      response = await dispatch(
        new Request(url, {
          method,
          headers,
          body: call.body === undefined ? undefined : JSON.stringify(call.body),
          credentials: 'include',
        }),
      )
    } catch (error) {
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
      if (parsed.success) throw new ApiClientError(response.status, parsed.data.error.code, parsed.data.error.message, parsed.data.error.issues)
      throw new ApiClientError(response.status, 'internal', wordsForStatus(response.status))
    }
    return call.schema.parse(json)
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
