/**
 * Node's HTTP server options that bound a slow client (issue 29, bug 7): the whole request, headers and
 * body, must arrive within REQUEST_TIMEOUT_SECONDS, or Node answers 408 and closes the connection. Node
 * looks for such requests every `connectionsCheckingInterval`, so that is a small fraction of the limit.
 */
export function nodeRequestTimeouts(config: { requestTimeoutSeconds: number }) {
  const ms = Math.round(config.requestTimeoutSeconds * 1000)
  return { requestTimeout: ms, headersTimeout: ms, connectionsCheckingInterval: Math.min(1000, Math.max(25, Math.round(ms / 10))) }
}
