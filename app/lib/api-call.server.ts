import { appendResponseHeader, getRequest } from '@tanstack/react-start/server'
import { getConfig } from '../../app.config'
import { createApiClient } from './api-client'

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
  })
}
