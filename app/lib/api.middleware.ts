import { createMiddleware } from '@tanstack/react-start'
import { apiForRequest } from './api-call.server'
import { timezoneMiddleware } from './timezone.middleware'

/**
 * The one way a server function reaches the album API: `context.api` is the client for the shopper's
 * request (their cookies and time zone), retrying as SPEC.md §8 says (network errors, timeouts, 5xx,
 * 429; a write only under an Idempotency-Key the API honours; never a 4xx refusal).
 */
export const apiMiddleware = createMiddleware({ type: 'function' })
  .middleware([timezoneMiddleware])
  .server(({ next, context }) => next({ context: { api: apiForRequest({ timezone: context.timezone }) } }))

/** SPEC.md §7: the referral area talks to the celebrate API client, whose photo proxy is disabled. */
export const celebrateApiMiddleware = createMiddleware({ type: 'function' })
  .middleware([timezoneMiddleware])
  .server(({ next, context }) => next({ context: { api: apiForRequest({ timezone: context.timezone, celebrate: true }) } }))
