import { appendResponseHeader, getRequest } from '@tanstack/react-start/server'
import { getConfig } from '../../app.config'
import { currentRequestId } from '../observability/log'
import { createApiClient, type RetryPolicy } from './api-client'

/** SPEC.md §8, §9 (app/lib/retry.ts): 3 attempts, 2 s then 4 s apart; an attempt with no answer in 15 s counts as failed. */
export const serverRetry: RetryPolicy = { timeoutMs: 15_000 }

/**
 * Every API client the store's server builds: it forwards the shopper's cookies and time zone, hands any
 * Set-Cookie from the API to `onSetCookie`, and retries as SPEC.md §8 says — the one layer of retry for
 * every call the server makes (issue 29).
 */
export function serverApiClient(opts: { cookie: string | null; onSetCookie: (cookie: string) => void; timezone?: string | null; celebrate?: boolean }) {
  const config = getConfig()
  return createApiClient({
    baseUrl: opts.celebrate ? config.celebrateApiBaseUrl : config.apiBaseUrl,
    ownOrigin: new URL(config.publicUrl).origin,
    cookie: opts.cookie,
    timezone: opts.timezone ?? null,
    photoProxy: !opts.celebrate,
    productSlug: config.productSlug,
    onSetCookie: opts.onSetCookie,
    retry: serverRetry,
    // The shopper's request id goes along, in-process or over HTTP to a remote API (decision 045).
    requestId: currentRequestId,
  })
}

/** The API client for the shopper's current request, used inside server functions (`apiMiddleware`). */
export function apiForRequest(opts: { timezone?: string | null; celebrate?: boolean } = {}) {
  return serverApiClient({
    ...opts,
    cookie: getRequest().headers.get('cookie'),
    onSetCookie: (cookie) => appendResponseHeader('set-cookie', cookie),
  })
}
