import { appendResponseHeader, getRequest } from '@tanstack/react-start/server'
import { getConfig } from '../../app.config'
import { createApiClient, type RetryPolicy } from './api-client'
import { backoffMs, RETRY_ATTEMPTS } from './retry'

/** SPEC.md §8, §9: 3 attempts, 2 s then 4 s apart; an attempt with no answer in 15 s counts as failed. */
export const serverRetry: RetryPolicy = {
  attempts: RETRY_ATTEMPTS,
  backoffMs,
  sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
  timeoutMs: 15_000,
}

/**
 * The API client for the shopper's current request, used inside server functions: it forwards the
 * shopper's cookies and timezone, and hands any Set-Cookie from the API back to the browser.
 */
export function apiForRequest(opts: { timezone?: string | null; celebrate?: boolean } = {}) {
  const config = getConfig()
  const request = getRequest()
  return createApiClient({
    baseUrl: opts.celebrate ? config.celebrateApiBaseUrl : config.apiBaseUrl,
    ownOrigin: new URL(config.publicUrl).origin,
    cookie: request.headers.get('cookie'),
    timezone: opts.timezone ?? null,
    photoProxy: !opts.celebrate,
    productSlug: config.productSlug,
    onSetCookie: (cookie) => appendResponseHeader('set-cookie', cookie),
    retry: serverRetry,
  })
}
