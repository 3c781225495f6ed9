import { HSTS } from '../contract/headers'
import { Hono } from 'hono'
import { getCookie } from 'hono/cookie'
import { HTTPException } from 'hono/http-exception'
import { routePath } from 'hono/route'
import { secureHeaders } from 'hono/secure-headers'
import { errorStatus, type ApiErrorBody, type ErrorCode } from '../contract/errors'
import { REQUEST_ID_HEADER, SESSION_COOKIE, TIMEZONE_HEADER, VERSION_HEADER, isValidTimeZone } from '../contract/headers'
import type { ApiDeps, ApiEnv } from './env'
import { AppError } from './errors'
import { idempotency } from './idempotency'
import { outageAnswer } from './outages'
import { openApiApi } from '../contract/endpoints/openapi'
import { endpoint, isSpecSpelling } from './endpoint'
import { buildOpenApiDocument } from './openapi'
import { hasMalformedPath, MALFORMED_PATH_MESSAGE } from '../contract/malformed-path'
import { mediaUrls } from './media/urls'
import { albumRoutes } from './routes/album'
import { bundleRoutes } from './routes/bundles'
import { analyticsRoutes } from './routes/analytics'
import { cartRoutes } from './routes/cart'
import { demoRoutes } from './routes/demo'
import { egiftRoutes } from './routes/egifts'
import { growthRoutes } from './routes/growth'
import { jobRoutes } from './routes/jobs'
import { mediaRoutes } from './routes/media'
import { photoProductRoutes } from './routes/photo-products'
import { printifyRoutes } from './routes/printify'
import { referralRoutes } from './routes/referral'
import { savedDesignRoutes } from './routes/saved-designs'
import { addressRoutes } from './routes/addresses'
import { designShareRoutes } from './routes/design-shares'
import { offerRoutes } from './routes/offers'
import { smokescreenRoutes } from './routes/smokescreens'
import { rateLimiterFor, type RateLimiter } from './rate-limit'
import { renderSlotsFor, type RenderSlots } from './render-slot'
import { paymentProviderFor } from './providers/payments'
import type { PaymentProvider } from './providers/payments/provider'
import { printProviderFor } from './providers/print'
import type { PrintProvider } from './providers/print/provider'
import { findSessionUser } from './services/accounts'
import { currentRequestContext, describeRequest, isClientAbort, logger, runInRequestContext } from '../observability/log'
import { CLIENT_CLOSED, noteClientLeft, noteOutage, requestIdOf } from '../observability/request-log'
import { registerHandlers } from './services/handlers'
import { storageFor } from './storage'
import type { ObjectStorage } from './storage/storage'

const UNSAFE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE'])

function errorBody(code: ErrorCode, message: string, requestIdValue: string | undefined, issues?: ApiErrorBody['error']['issues']): ApiErrorBody {
  return { error: { code, message, ...(issues ? { issues } : {}), ...(requestIdValue ? { requestId: requestIdValue } : {}) } }
}

/** The album API of SPEC.md §7, mounted at /v1. Dependencies are passed in so tests get a fresh database and storage. */
export function createApi(
  given: Omit<ApiDeps, 'media' | 'storage' | 'print' | 'payments' | 'rateLimiter' | 'renderSlots'> & {
    storage?: ObjectStorage
    print?: PrintProvider
    payments?: PaymentProvider
    rateLimiter?: RateLimiter
    renderSlots?: RenderSlots
  },
) {
  // Which service handles each checkout purpose and each sent e-mail (services/handlers.ts): made here, so no process forgets it.
  registerHandlers()
  const deps: ApiDeps = {
    ...given,
    rateLimiter: given.rateLimiter ?? rateLimiterFor(given.config),
    renderSlots: given.renderSlots ?? renderSlotsFor(given.config),
    storage: given.storage ?? storageFor(given.config),
    media: mediaUrls(given.config),
    print: given.print ?? printProviderFor(given.config),
    payments: given.payments ?? paymentProviderFor(given.config, given.db),
  }
  const api = new Hono<ApiEnv>().basePath('/v1')
  const ownOrigin = new URL(deps.config.publicUrl).origin

  // The request's id (decision 045): the one its request context has (the store's, when the store calls in-process),
  // else the client's X-Request-Id when sane, else a new one; answered in X-Request-Id. Called bare (tests, the
  // store's /v1 route under `vite dev`), the API opens the request context itself, so jobs it enqueues carry the id.
  api.use('*', async (c, next) => {
    const context = currentRequestContext()
    const id = context?.id ?? requestIdOf(c.req.raw)
    c.set('requestId', id)
    if (context) await next()
    else await runInRequestContext({ id, layer: 'api', method: c.req.method }, next)
    c.header(REQUEST_ID_HEADER, id)
    // The request line's route is the pattern that answered (never the raw path), and its shopper the session's.
    describeRequest({ route: routePath(c, -1), accountId: c.get('user')?.id })
  })
  // HSTS only when the store is served over https: over plain http it means nothing, and pages send the same (start.ts).
  api.use('*', secureHeaders({ crossOriginResourcePolicy: 'same-site', strictTransportSecurity: ownOrigin.startsWith('https:') ? HSTS : false }))
  // A path with a malformed percent escape is refused in the API's own error shape (issue 29, bug 7).
  api.use('*', async (c, next) => {
    if (hasMalformedPath(c.req.url)) throw new AppError('validation_failed', MALFORMED_PATH_MESSAGE)
    await next()
  })
  // No operation's path ends in a slash (decision 041): a GET or HEAD spelled with one is sent permanently to the path
  // without it. SPEC.md §7's own spelling of the advocate's state is the exception: answered there (issue 42, item 16).
  api.use('*', async (c, next) => {
    const url = new URL(c.req.url)
    if ((c.req.method === 'GET' || c.req.method === 'HEAD') && url.pathname.endsWith('/') && !isSpecSpelling(url.pathname.replace(/^\/v1/, ''))) {
      return c.redirect(`${url.pathname.replace(/\/+$/, '')}${url.search}`, 308)
    }
    await next()
  })
  api.use('*', async (c, next) => {
    c.set('deps', deps)
    c.header('cache-control', 'no-store')
    if (deps.config.maintenance) {
      return c.json(errorBody('maintenance', 'Keepsake is undergoing maintenance and will be back soon', c.get('requestId')), 503)
    }
    await next()
  })
  // Cookie-authenticated writes must come from our own pages; the mobile app sends no Origin and no cookie of ours.
  // `Origin: null` (a sandboxed frame, a redirect from another site) is no page of ours either (issue 15, bug 17).
  api.use('*', async (c, next) => {
    if (UNSAFE_METHODS.has(c.req.method) && getCookie(c, SESSION_COOKIE)) {
      const site = c.req.header('sec-fetch-site')
      const origin = c.req.header('origin')
      const crossSite = site === 'cross-site' || (origin !== undefined && origin !== ownOrigin && origin !== new URL(c.req.url).origin)
      if (crossSite) throw new AppError('forbidden', 'Cross-site requests cannot change this account')
    }
    await next()
  })
  api.use('*', async (c, next) => {
    const token = getCookie(c, SESSION_COOKIE) ?? null
    c.set('sessionToken', token)
    c.set('user', token && token.length <= 128 ? await findSessionUser(deps.db, token, deps.now()) : null)
    const zone = c.req.header(TIMEZONE_HEADER)
    if (zone !== undefined && zone !== '' && !isValidTimeZone(zone)) {
      throw new AppError('validation_failed', `${TIMEZONE_HEADER} must be an IANA time zone such as America/New_York`)
    }
    c.set('timezone', zone || 'UTC')
    // SPEC.md §7: album calls carry a version header whose value may be unset; it is kept for logs, never trusted.
    const version = c.req.header(VERSION_HEADER) ?? ''
    if (version.length > 64 || /[^\x20-\x7e]/.test(version)) {
      throw new AppError('validation_failed', `${VERSION_HEADER} must be at most 64 printable characters`)
    }
    c.set('clientVersion', version || null)
    await next()
  })
  api.use('*', idempotency)

  endpoint(api, openApiApi.openApiDocument, () => buildOpenApiDocument(deps.config.publicUrl))
  api.route('/', growthRoutes)
  api.route('/', demoRoutes)
  api.route('/', photoProductRoutes)
  api.route('/', printifyRoutes)
  api.route('/', cartRoutes)
  api.route('/', savedDesignRoutes)
  api.route('/', addressRoutes)
  api.route('/', designShareRoutes)
  api.route('/', referralRoutes)
  api.route('/', offerRoutes)
  api.route('/', bundleRoutes)
  api.route('/', smokescreenRoutes)
  api.route('/', egiftRoutes)
  api.route('/', analyticsRoutes)
  api.route('/', jobRoutes)
  api.route('/', albumRoutes(deps.config.productSlug))
  api.route('/', mediaRoutes)

  api.notFound((c) => c.json(errorBody('not_found', `No such endpoint: ${c.req.method} ${c.req.path}`, c.get('requestId')), 404))

  api.onError((error, c) => {
    const id = c.get('requestId')
    const refuse = (refusal: AppError) => {
      if (refusal.code === 'unavailable') noteOutage()
      if (refusal.retryAfterMs !== undefined) c.header('retry-after', String(Math.max(1, Math.ceil(refusal.retryAfterMs / 1000))))
      return c.json(errorBody(refusal.code, refusal.message, id, refusal.issues), errorStatus[refusal.code] as 400)
    }
    if (error instanceof AppError) return refuse(error)
    if (error instanceof HTTPException) {
      const status = error.status
      const code: ErrorCode =
        status === 413
          ? 'payload_too_large'
          : status === 401
            ? 'unauthenticated'
            : status === 404
              ? 'not_found'
              : status < 500
                ? 'validation_failed'
                : 'internal'
      return c.json(errorBody(code, error.message || 'Request refused', id), status)
    }
    // A client that left mid-request is no error of ours: the request line says so, with no stack (decision 045).
    if (isClientAbort(error, c.req.raw.signal)) {
      noteClientLeft()
      return new Response(null, { status: CLIENT_CLOSED })
    }
    // A dependency that is gone, hung or past its deadline: 503 with Retry-After, and a warning, not an error (decision 073).
    const outage = outageAnswer(error)
    if (outage) {
      logger().warn({ err: error, method: c.req.method, path: c.req.path }, `[api] ${c.req.method} ${c.req.path}: ${outage.message}`)
      return refuse(outage)
    }
    // Logged once, here, with its stack and (from the request context) its request id; the request line counts the 500.
    logger().error(
      { err: error, method: c.req.method, path: c.req.path, clientVersion: c.get('clientVersion') ?? null },
      `[api] ${c.req.method} ${c.req.path} failed`,
    )
    return c.json(errorBody('internal', 'Something went wrong on our side', id), 500)
  })

  return Object.assign(api, { deps })
}

export type Api = ReturnType<typeof createApi>
