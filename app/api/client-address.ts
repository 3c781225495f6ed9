/**
 * The client's network address, for rate limits. The server entry (app/server.ts) runs each request
 * inside `withClientAddress`, so calls a page's server function makes to the API in-process still
 * count against the shopper's own address. srvx takes it from the socket, or from X-Forwarded-For
 * when TRUST_PROXY is set (docs/decisions/010).
 */
import { AsyncLocalStorage } from 'node:async_hooks'

const store = new AsyncLocalStorage<string>()

export function withClientAddress<T>(address: string | null | undefined, run: () => T): T {
  return store.run(address || 'unknown', run)
}

export function currentClientAddress(): string {
  return store.getStore() ?? 'unknown'
}
