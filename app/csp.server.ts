/**
 * The pages' Content-Security-Policy (issue 15; decision 021). Scripts run only with this response's
 * nonce ('strict-dynamic' lets those scripts load the app's chunks, PostHog and pixi's workers);
 * everything else is our own origin plus the hosts configuration names: the API and celebrate API
 * when they live elsewhere, the S3 bucket, PostHog and the photo CDN hosts.
 */
import { AsyncLocalStorage } from 'node:async_hooks'
import { randomBytes } from 'node:crypto'
import type { AppConfig } from '../app.config'
import { HSTS } from './contract/headers'

const store = new AsyncLocalStorage<string>()

/** Runs a request with a fresh nonce: the router stamps it on its scripts and the header names it. */
export function withCspNonce<T>(run: () => T): T {
  return store.run(randomBytes(16).toString('base64'), run)
}

export function currentCspNonce(): string | undefined {
  return store.getStore()
}

const originOf = (url: string | null | undefined) => {
  if (!url) return null
  try {
    return new URL(url).origin
  } catch {
    return null
  }
}

/** PostHog Cloud serves its recorder from a sibling host: us.i.posthog.com → us-assets.i.posthog.com. */
function posthogAssets(host: string) {
  const origin = originOf(host)
  const cloud = origin ? /^https:\/\/(us|eu)\.i\.posthog\.com$/.exec(origin) : null
  return cloud ? `https://${cloud[1]}-assets.i.posthog.com` : null
}

export function contentSecurityPolicy(
  nonce: string,
  config: Pick<AppConfig, 'publicUrl' | 'apiBaseUrl' | 'celebrateApiBaseUrl' | 'posthogHost' | 'sessionReplayProjectId' | 'storage' | 'photoProxyHosts'>,
): string {
  // An API on our own origin is 'self' under whatever host name the page was opened (decision 020).
  const apis = [originOf(config.apiBaseUrl), originOf(config.celebrateApiBaseUrl)].filter((origin) => origin !== originOf(config.publicUrl))
  const bucket = config.storage.kind === 's3' ? [originOf(config.storage.publicUrl), originOf(config.storage.endpoint)] : []
  const posthog = config.sessionReplayProjectId ? [originOf(config.posthogHost), posthogAssets(config.posthogHost)] : []
  const cdn = config.photoProxyHosts.flatMap((host) => [`https://${host}`])
  const list = (...sources: (string | null)[]) => [...new Set(sources.filter((s): s is string => Boolean(s)))].join(' ')
  return [
    `default-src 'self'`,
    `script-src 'nonce-${nonce}' 'strict-dynamic' 'self'`,
    // React's style props and sonner's injected <style> are styles, not scripts: allowed inline.
    `style-src 'self' 'unsafe-inline'`,
    `img-src ${list("'self'", 'data:', 'blob:', ...apis, ...bucket, ...cdn, ...posthog)}`,
    // blob: and data: are the page's own bytes (a photo picked from the device, the render check's patterns) read with fetch.
    `connect-src ${list("'self'", 'blob:', 'data:', ...apis, ...bucket, ...posthog)}`,
    `font-src 'self' data:`,
    `worker-src 'self' blob:`,
    `frame-src 'self'`,
    `media-src 'self' blob:`,
    `object-src 'none'`,
    `base-uri 'self'`,
    `form-action 'self'`,
    `frame-ancestors 'self'`,
  ].join('; ')
}

type PolicyConfig = Parameters<typeof contentSecurityPolicy>[1]

/**
 * The headers every answer of the store carries (start.ts): nosniff, the referrer and frame rules, HSTS on
 * https, and the page policy on an HTML page of this request's nonce. An answer that brings a policy of its own
 * keeps it: the packing slip's is stricter than the pages' (it may load and run nothing; issue 42, item 12).
 */
export function setSecurityHeaders(headers: Headers, nonce: string | undefined, config: PolicyConfig) {
  headers.set('x-content-type-options', 'nosniff')
  headers.set('referrer-policy', 'strict-origin-when-cross-origin')
  headers.set('x-frame-options', 'SAMEORIGIN')
  headers.set('permissions-policy', 'camera=(), microphone=(), geolocation=()')
  if (config.publicUrl.startsWith('https:')) headers.set('strict-transport-security', HSTS)
  if (nonce && headers.get('content-type')?.startsWith('text/html') && !headers.has('content-security-policy')) {
    headers.set('content-security-policy', contentSecurityPolicy(nonce, config))
  }
}
