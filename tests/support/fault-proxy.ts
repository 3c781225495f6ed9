import net from 'node:net'

/**
 * How the proxy treats connections: `forward` passes bytes both ways; `hang` accepts and forwards nothing until it is
 * set back to `forward` (a frozen server, SIGSTOP: connections already open stop moving too, and move again after); `refuse` closes every connection, new and open (a stopped
 * server: what the client sees is a reset or an end).
 */
export type FaultMode = 'forward' | 'hang' | 'refuse'

export type FaultProxy = {
  port: number
  url: (scheme: string, rest?: string) => string
  mode: () => FaultMode
  set: (mode: FaultMode) => void
  /** Connections accepted since the start. */
  accepted: () => number
  close: () => Promise<void>
}

/**
 * A TCP proxy in front of one dependency (PostgreSQL, Redis, SMTP, S3) that a test turns off, freezes and back on,
 * to see the store survive each fault (issue 43). Listens on 127.0.0.1 at a free port.
 */
export async function startFaultProxy(target: { host?: string; port: number }): Promise<FaultProxy> {
  let mode: FaultMode = 'forward'
  let accepted = 0
  type Pair = { client: net.Socket; upstream: net.Socket | null; toUpstream: Buffer[]; toClient: Buffer[] }
  const open = new Set<Pair>()
  const host = target.host ?? '127.0.0.1'

  const server = net.createServer((client) => {
    accepted += 1
    const pair: Pair = { client, upstream: null, toUpstream: [], toClient: [] }
    open.add(pair)
    const drop = () => {
      open.delete(pair)
      client.destroy()
      pair.upstream?.destroy()
    }
    client.on('error', drop)
    client.on('close', drop)
    if (mode === 'refuse') return drop()
    const upstream = net.connect({ host, port: target.port })
    pair.upstream = upstream
    upstream.on('error', drop)
    upstream.on('close', drop)
    // While frozen, bytes wait (as in a stopped process's socket buffers) and move again when it thaws.
    client.on('data', (chunk) => {
      if (mode === 'forward') upstream.write(chunk)
      else pair.toUpstream.push(chunk)
    })
    upstream.on('data', (chunk) => {
      if (mode === 'forward') client.write(chunk)
      else pair.toClient.push(chunk)
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const port = (server.address() as net.AddressInfo).port

  return {
    port,
    url: (scheme, rest = '') => `${scheme}://127.0.0.1:${port}${rest}`,
    mode: () => mode,
    set: (next) => {
      mode = next
      if (next === 'forward')
        for (const pair of open) {
          for (const chunk of pair.toUpstream.splice(0)) pair.upstream?.write(chunk)
          for (const chunk of pair.toClient.splice(0)) pair.client.write(chunk)
        }
      // A stopped server ends what it had open; a frozen one keeps its sockets and answers nothing on them.
      if (next === 'refuse')
        for (const pair of [...open]) {
          pair.client.destroy()
          pair.upstream?.destroy()
          open.delete(pair)
        }
    },
    accepted: () => accepted,
    close: async () => {
      for (const pair of open) {
        pair.client.destroy()
        pair.upstream?.destroy()
      }
      open.clear()
      await new Promise<void>((resolve) => server.close(() => resolve()))
    },
  }
}
