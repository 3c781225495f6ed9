/**
 * A small round-robin HTTP proxy in front of several store instances, as a load balancer would be:
 * each request goes to the next instance in turn, with `X-Forwarded-For` (the client's address appended),
 * `X-Forwarded-Proto` and `X-Forwarded-Host` set. An instance that refuses the connection is marked down
 * and the request goes to the next one (nothing was sent, so any method may go again), as nginx's
 * `proxy_next_upstream error` does; a read whose kept-alive connection was reset goes again too. It
 * counts what each instance answered.
 */
import http from 'node:http'
import type { AddressInfo } from 'node:net'

export type Upstream = { name: string; port: number }

export type RoundRobinProxy = {
  url: string
  port: number
  /** Requests each instance answered, by instance name. */
  answered: Record<string, number>
  /** Requests each instance answered, by instance name and then by path (query dropped). */
  answeredByPath: Record<string, Record<string, number>>
  /** Instances the proxy found refusing connections (taken out of the rotation). */
  down: Set<string>
  /** From now on, requests come from this client address (as if another shopper's device sent them); none: the socket's. */
  setClientAddress(address: string | undefined): void
  close(): Promise<void>
}

export async function startRoundRobinProxy(
  upstreams: Upstream[],
  { clientAddress: initialClientAddress, port: wanted = 0 }: { clientAddress?: string; port?: number } = {},
): Promise<RoundRobinProxy> {
  let next = 0
  let clientAddress = initialClientAddress
  const answered: Record<string, number> = Object.fromEntries(upstreams.map((u) => [u.name, 0]))
  const answeredByPath: Record<string, Record<string, number>> = Object.fromEntries(upstreams.map((u) => [u.name, {}]))
  const down = new Set<string>()

  const pick = () => {
    for (let i = 0; i < upstreams.length; i++) {
      const upstream = upstreams[next++ % upstreams.length]!
      if (!down.has(upstream.name)) return upstream
    }
    return null
  }

  const server = http.createServer(async (req, res) => {
    const chunks: Buffer[] = []
    for await (const chunk of req) chunks.push(chunk as Buffer)
    const body = Buffer.concat(chunks)
    const forwardedFor = [req.headers['x-forwarded-for'], clientAddress ?? req.socket.remoteAddress].filter(Boolean).join(', ')
    const headers = { ...req.headers, 'x-forwarded-for': forwardedFor, 'x-forwarded-proto': 'http', 'x-forwarded-host': req.headers.host ?? '' }

    let attempts = 0
    const attempt = (): void => {
      const upstream = attempts++ <= upstreams.length ? pick() : null
      if (!upstream) {
        res.writeHead(502, { 'content-type': 'text/plain' }).end('No instance is up')
        return
      }
      const forward = http.request({ host: '127.0.0.1', port: upstream.port, method: req.method, path: req.url, headers }, (answer) => {
        answered[upstream.name]!++
        const path = (req.url ?? '/').split('?')[0]!
        answeredByPath[upstream.name]![path] = (answeredByPath[upstream.name]![path] ?? 0) + 1
        res.writeHead(answer.statusCode ?? 502, answer.statusMessage, answer.rawHeaders)
        answer.pipe(res)
      })
      forward.on('error', (error: NodeJS.ErrnoException) => {
        if (error.code === 'ECONNREFUSED' && !res.headersSent) {
          down.add(upstream.name)
          attempt()
          return
        }
        // A kept-alive connection the instance closed (it was killed) before answering: a read may go elsewhere.
        if (error.code === 'ECONNRESET' && !res.headersSent && (req.method === 'GET' || req.method === 'HEAD')) {
          attempt()
          return
        }
        if (!res.headersSent) res.writeHead(502, { 'content-type': 'text/plain' }).end(`Instance ${upstream.name} failed: ${error.message}`)
        else res.destroy(error)
      })
      forward.end(body)
    }
    attempt()
  })
  server.listen(wanted, '127.0.0.1')
  await new Promise((resolve) => server.once('listening', resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://localhost:${port}`,
    port,
    answered,
    answeredByPath,
    down,
    setClientAddress: (address) => {
      clientAddress = address
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}
