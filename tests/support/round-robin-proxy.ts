/**
 * A small round-robin HTTP proxy in front of several store instances, as a load balancer would be:
 * each request goes to the next *ready* instance in turn, with `X-Forwarded-For` (the client's address
 * appended), `X-Forwarded-Proto` and `X-Forwarded-Host` set. It counts what each instance answered.
 *
 * Readiness: it polls each instance's `GET /readyz` (every `readyPollMs`, 250 ms by default) and sends
 * new requests only to instances whose last answer was 200 — a draining instance (503, or its socket
 * already closed) leaves the rotation, a restarted one comes back once it answers 200. A probe that gets
 * no answer in time counts only when it happens `UNHEALTHY_TIMEOUTS` times in a row, as a load balancer's
 * unhealthy threshold does: a busy instance is slow, not gone (CI saw both instances taken out by one slow
 * probe each while the unit tests loaded the machine, and a page's scripts all answered 502).
 * A request that arrives while no instance is ready waits for one, up to `queueMs`, before its 502.
 *
 * Retries: when the connection to an instance is refused or reset before any byte of its answer came
 * back, the request goes to another ready instance, whatever its method — the request body is buffered,
 * so it is sent again whole (nginx's `proxy_next_upstream error`, with non-idempotent requests allowed).
 * An instance that failed so is out of the rotation until its next 200 from /readyz.
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
  /** Instances out of the rotation: their last /readyz was not 200, or a connection to them failed since. */
  down: Set<string>
  /** Requests sent again to another instance after a refused or reset connection, by the instance that failed. */
  retried: Record<string, number>
  /** Resolves once the proxy routes to every named instance (its /readyz answered 200). */
  waitUntilRouting(names: string[], timeoutMs?: number): Promise<void>
  /** From now on, requests come from this client address (as if another shopper's device sent them); none: the socket's. */
  setClientAddress(address: string | undefined): void
  close(): Promise<void>
}

/** Errors that mean the instance never saw the request as one it answers: nothing came back on the connection. */
const RETRYABLE = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE'])
/** Probes in a row that must get no answer before a busy instance leaves the rotation. */
const UNHEALTHY_TIMEOUTS = 3

export async function startRoundRobinProxy(
  upstreams: Upstream[],
  {
    clientAddress: initialClientAddress,
    port: wanted = 0,
    readyPollMs = 250,
    queueMs = 30_000,
  }: { clientAddress?: string; port?: number; readyPollMs?: number; queueMs?: number } = {},
): Promise<RoundRobinProxy> {
  let next = 0
  let clientAddress = initialClientAddress
  let closed = false
  const answered: Record<string, number> = Object.fromEntries(upstreams.map((u) => [u.name, 0]))
  const answeredByPath: Record<string, Record<string, number>> = Object.fromEntries(upstreams.map((u) => [u.name, {}]))
  const retried: Record<string, number> = Object.fromEntries(upstreams.map((u) => [u.name, 0]))
  // Nothing is routed to an instance before its /readyz said 200.
  const down = new Set<string>(upstreams.map((u) => u.name))
  const timeoutsInARow: Record<string, number> = Object.fromEntries(upstreams.map((u) => [u.name, 0]))

  /**
   * One /readyz look at an instance: 200 puts it in the rotation; another status or a refused connection takes it
   * out; no answer in 3 s takes it out only the UNHEALTHY_TIMEOUTS-th time in a row.
   */
  const probe = (upstream: Upstream) =>
    new Promise<void>((resolve) => {
      let timedOut = false
      const settle = (ready: boolean) => {
        timeoutsInARow[upstream.name] = timedOut ? timeoutsInARow[upstream.name]! + 1 : 0
        if (ready) down.delete(upstream.name)
        else if (!timedOut || timeoutsInARow[upstream.name]! >= UNHEALTHY_TIMEOUTS) down.add(upstream.name)
        resolve()
      }
      const req = http.get({ host: '127.0.0.1', port: upstream.port, path: '/readyz', agent: false, timeout: 3000 }, (res) => {
        res.resume()
        settle(res.statusCode === 200)
      })
      req.on('timeout', () => {
        timedOut = true
        req.destroy(new Error('readyz timed out'))
      })
      req.on('error', () => settle(false))
    })
  let polling: ReturnType<typeof setTimeout> | undefined
  const poll = async () => {
    await Promise.all(upstreams.map(probe))
    if (!closed) polling = setTimeout(poll, readyPollMs)
  }
  void poll()

  /** The next ready instance in turn, skipping those this request already failed on. */
  const pick = (failed: Set<string>) => {
    for (let i = 0; i < upstreams.length; i++) {
      const upstream = upstreams[next++ % upstreams.length]!
      if (!down.has(upstream.name) && !failed.has(upstream.name)) return upstream
    }
    return null
  }

  const server = http.createServer(async (req, res) => {
    const chunks: Buffer[] = []
    for await (const chunk of req) chunks.push(chunk as Buffer)
    const body = Buffer.concat(chunks)
    const forwardedFor = [req.headers['x-forwarded-for'], clientAddress ?? req.socket.remoteAddress].filter(Boolean).join(', ')
    const headers = { ...req.headers, 'x-forwarded-for': forwardedFor, 'x-forwarded-proto': 'http', 'x-forwarded-host': req.headers.host ?? '' }

    const failed = new Set<string>()
    const queuedUntil = Date.now() + queueMs
    const attempt = (): void => {
      const upstream = pick(failed)
      // Nothing ready yet (a restart, a slow probe): the request waits for an instance, as a balancer's queue does.
      if (!upstream && failed.size === 0 && !closed && Date.now() < queuedUntil) {
        setTimeout(attempt, readyPollMs)
        return
      }
      if (!upstream) {
        res
          .writeHead(502, { 'content-type': 'text/plain' })
          .end(failed.size ? `No other instance is ready (failed on ${[...failed].join(', ')})` : 'No instance is ready')
        return
      }
      let answerStarted = false
      const forward = http.request({ host: '127.0.0.1', port: upstream.port, method: req.method, path: req.url, headers }, (answer) => {
        answerStarted = true
        answered[upstream.name]!++
        const path = (req.url ?? '/').split('?')[0]!
        answeredByPath[upstream.name]![path] = (answeredByPath[upstream.name]![path] ?? 0) + 1
        res.writeHead(answer.statusCode ?? 502, answer.statusMessage, answer.rawHeaders)
        answer.pipe(res)
        answer.on('error', (error) => res.destroy(error))
      })
      forward.on('error', (error: NodeJS.ErrnoException) => {
        // Refused, or a (kept-alive) connection the instance closed before a byte of the answer came back: the
        // instance is stopping or gone, and did not answer this request. It leaves the rotation until /readyz says
        // 200 again, and the whole request goes to another instance.
        if (!answerStarted && !res.headersSent && RETRYABLE.has(error.code ?? '')) {
          down.add(upstream.name)
          failed.add(upstream.name)
          retried[upstream.name]!++
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
    retried,
    waitUntilRouting: async (names, timeoutMs = 30_000) => {
      const until = Date.now() + timeoutMs
      while (names.some((name) => down.has(name))) {
        if (Date.now() > until) throw new Error(`the proxy does not route to ${names.filter((n) => down.has(n)).join(', ')}: /readyz is not 200`)
        await new Promise((r) => setTimeout(r, readyPollMs))
      }
    },
    setClientAddress: (address) => {
      clientAddress = address
    },
    close: () =>
      new Promise<void>((resolve) => {
        closed = true
        clearTimeout(polling)
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}
