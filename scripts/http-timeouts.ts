/**
 * How the servers (scripts/serve.ts, scripts/serve-api.ts) bound a slow client (issue 29, bug 7; issue 42,
 * item 9; decision 066). The headers must arrive within REQUEST_TIMEOUT_SECONDS, or Node answers 408 and closes
 * the connection. A body has no limit on its whole (a 30 MB photo at 500 KB/s takes a minute): it is cut only
 * when it stalls, no byte for REQUEST_TIMEOUT_SECONDS, answered 408 the same way.
 */
import type { IncomingMessage, Server as NodeServer, ServerResponse } from 'node:http'

const timeoutMs = (config: { requestTimeoutSeconds: number }) => Math.round(config.requestTimeoutSeconds * 1000)
/** How often a limit is looked at: a small fraction of it. */
const checkEveryMs = (ms: number) => Math.min(1000, Math.max(25, Math.round(ms / 10)))

/** Node's HTTP server options: the headers' limit (Node's own 408), no limit on the whole request. */
export function nodeRequestTimeouts(config: { requestTimeoutSeconds: number }) {
  const ms = timeoutMs(config)
  return { requestTimeout: 0, headersTimeout: ms, connectionsCheckingInterval: checkEveryMs(ms) }
}

/** What Node itself answers a request that ran out of time. */
const REQUEST_TIMEOUT_RESPONSE = 'HTTP/1.1 408 Request Timeout\r\nConnection: close\r\n\r\n'

/**
 * The idle limit on request bodies: a request whose body is still arriving is watched until it is complete; when
 * its connection has read nothing for REQUEST_TIMEOUT_SECONDS it is answered 408 and closed. Call before listening.
 */
export function cutStalledBodies(server: { node?: { server?: unknown } }, config: { requestTimeoutSeconds: number }) {
  const node = server.node?.server as NodeServer | undefined
  const ms = timeoutMs(config)
  node?.on('request', (req: IncomingMessage, res: ServerResponse) => {
    if (req.complete) return
    const socket = req.socket
    let bytes = socket.bytesRead
    let moved = performance.now()
    const watch = setInterval(() => {
      if (req.complete || socket.destroyed) return clearInterval(watch)
      if (socket.bytesRead !== bytes) {
        bytes = socket.bytesRead
        moved = performance.now()
        return
      }
      if (performance.now() - moved < ms) return
      clearInterval(watch)
      if (!res.headersSent && socket.writable) socket.write(REQUEST_TIMEOUT_RESPONSE)
      socket.destroySoon()
    }, checkEveryMs(ms))
    watch.unref()
    res.once('close', () => clearInterval(watch))
  })
}
