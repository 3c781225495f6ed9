/**
 * The client's network address, for rate limits. Every entry (app/server.ts for the store,
 * scripts/serve-api.ts for the API alone) runs each request inside `withClientAddress`, so calls a
 * page's server function makes to the API in-process still count against the shopper's own address.
 *
 * Without TRUST_PROXY the socket's peer is the client and X-Forwarded-For is ignored (anyone can
 * write it). With TRUST_PROXY=N, N proxies we run sit in front of us and each appended the address
 * it received the request from; the client is the right-most entry none of them vouches for:
 * the N-th from the right (docs/decisions/016).
 */
import { AsyncLocalStorage } from 'node:async_hooks'
import { isIP } from 'node:net'

const store = new AsyncLocalStorage<string>()

export function withClientAddress<T>(address: string | null | undefined, run: () => T): T {
  return store.run(address || 'unknown', run)
}

export function currentClientAddress(): string {
  return store.getStore() ?? 'unknown'
}

/** One X-Forwarded-For entry as a bare address: `[2001:db8::1]:443` → `2001:db8::1`, `1.2.3.4:80` → `1.2.3.4`; null when it is none. */
function bareAddress(entry: string): string | null {
  let value = entry.trim()
  const bracketed = /^\[([^\]]+)\](?::\d+)?$/.exec(value)
  if (bracketed) value = bracketed[1]!
  else if (/^[\d.]+:\d+$/.test(value)) value = value.slice(0, value.lastIndexOf(':'))
  if (value.toLowerCase().startsWith('::ffff:') && isIP(value.slice(7)) === 4) value = value.slice(7)
  return isIP(value) ? value.toLowerCase() : null
}

/**
 * The client of a request: the socket peer (`peer`), or with `trustedHops` > 0 the entry of
 * X-Forwarded-For that the outermost trusted proxy received the request from. A header with fewer
 * entries than trusted hops was written wholly by our proxies: its left-most entry is the client.
 * A malformed entry where the client should be falls back to the peer, never to a guess.
 */
export function clientAddressOf(peer: string | null | undefined, forwardedFor: string | null, trustedHops: number): string | null {
  const socket = peer ? (bareAddress(peer) ?? peer) : null
  if (trustedHops <= 0 || !forwardedFor) return socket
  const entries = forwardedFor
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean)
  if (entries.length === 0) return socket
  const client = entries[Math.max(0, entries.length - trustedHops)]!
  return bareAddress(client) ?? socket
}

/** `withClientAddress` for a request as srvx hands it over (`request.ip` is the socket peer). */
export function withRequestClient<T>(request: Request, trustedHops: number, run: () => T): T {
  const peer = (request as Request & { ip?: string }).ip
  return withClientAddress(clientAddressOf(peer, request.headers.get('x-forwarded-for'), trustedHops), run)
}
