/**
 * TRUST_PROXY is honoured: were it parsed and never read, every shopper behind a load balancer would
 * share the balancer's address (one shopper's refusals would lock everyone out). Real server processes
 * (scripts/serve-api.ts) reached over loopback, with X-Forwarded-For as a proxy would write it.
 */
import { afterEach, describe, expect, it } from 'vitest'
import { loadConfig } from '../../app.config'
import { clientAddressOf } from '~/api/client-address'
import { SMOKESCREEN_SIGNUPS_PER_ADDRESS } from '~/api/services/smokescreens'
import { freshStore, killServers, startServer, type Store } from '../support/server-process'

const engine = process.env.TEST_DB_ENGINE === 'postgres' ? 'postgres' : 'pglite'
let store: Store | undefined
afterEach(async () => {
  killServers()
  await store?.drop()
  store = undefined
})

describe('clientAddressOf', () => {
  it('without trusted hops the socket names the client, whatever the header says', () => {
    expect(clientAddressOf('203.0.113.9', '198.51.100.1', 0)).toBe('203.0.113.9')
    expect(clientAddressOf('::ffff:127.0.0.1', '198.51.100.1', 0)).toBe('127.0.0.1')
  })
  it('one trusted hop: the right-most entry, the address our proxy received the request from', () => {
    expect(clientAddressOf('10.0.0.2', '198.51.100.1', 1)).toBe('198.51.100.1')
    // A client writes its own X-Forwarded-For; our proxy appends the real one.
    expect(clientAddressOf('10.0.0.2', '6.6.6.6, 198.51.100.1', 1)).toBe('198.51.100.1')
    expect(clientAddressOf('10.0.0.2', ' 6.6.6.6 ,198.51.100.1 ', 1)).toBe('198.51.100.1')
  })
  it('N trusted hops: the N-th from the right; fewer entries than hops: the left-most', () => {
    expect(clientAddressOf('10.0.0.3', '6.6.6.6, 198.51.100.1, 10.0.0.2', 2)).toBe('198.51.100.1')
    expect(clientAddressOf('10.0.0.3', '198.51.100.1', 3)).toBe('198.51.100.1')
  })
  it('IPv6 and ports are normalised; a malformed entry falls back to the socket', () => {
    expect(clientAddressOf('10.0.0.2', '[2001:DB8::1]:443', 1)).toBe('2001:db8::1')
    expect(clientAddressOf('10.0.0.2', '2001:db8::7', 1)).toBe('2001:db8::7')
    expect(clientAddressOf('10.0.0.2', '198.51.100.1:8080', 1)).toBe('198.51.100.1')
    expect(clientAddressOf('10.0.0.2', 'unknown', 1)).toBe('10.0.0.2')
    expect(clientAddressOf('10.0.0.2', '198.51.100.1, <script>', 1)).toBe('10.0.0.2')
    expect(clientAddressOf('10.0.0.2', ' , ', 1)).toBe('10.0.0.2')
    expect(clientAddressOf('10.0.0.2', null, 1)).toBe('10.0.0.2')
  })
  it('TRUST_PROXY is read as a number of hops and refused when it is neither', () => {
    expect(loadConfig({}).trustProxyHops).toBe(0)
    expect(loadConfig({ TRUST_PROXY: 'true' }).trustProxyHops).toBe(1)
    expect(loadConfig({ TRUST_PROXY: 'off' }).trustProxyHops).toBe(0)
    expect(loadConfig({ TRUST_PROXY: '2' }).trustProxyHops).toBe(2)
    expect(() => loadConfig({ TRUST_PROXY: 'maybe' })).toThrow(/TRUST_PROXY/)
    expect(() => loadConfig({ TRUST_PROXY: '99' })).toThrow(/TRUST_PROXY/)
  })
})

const signUp = (server: Awaited<ReturnType<typeof startServer>>, forwardedFor: string, n: number) =>
  server.request('/v1/smokescreens/waitlist', {
    method: 'POST',
    headers: { 'x-forwarded-for': forwardedFor, origin: server.url },
    json: { product: 'photo-calendar', sourcePage: '/loop/store/', name: 'Maya Rivera', email: `shopper${n}@example.com` },
  })

describe.runIf(engine === 'pglite')('rate limits behind a proxy (a real server process)', () => {
  const limit = SMOKESCREEN_SIGNUPS_PER_ADDRESS.limit

  it('TRUST_PROXY=1: two clients behind one proxy get separate limits, and a forged entry does not escape', { timeout: 120_000 }, async () => {
    store = await freshStore('pglite')
    const server = await startServer({ ...store.env, TRUST_PROXY: '1' })
    for (let n = 0; n < limit; n++) expect((await signUp(server, `6.6.6.${n}, 198.51.100.1`, n)).status).toBe(201)
    // The same client, whatever it wrote in front of the proxy's entry, is out of sign-ups…
    expect((await signUp(server, '7.7.7.7, 198.51.100.1', 100)).status).toBe(429)
    // …and the next shopper behind the same proxy is not.
    expect((await signUp(server, '198.51.100.2', 101)).status).toBe(201)
  })

  it('TRUST_PROXY off: X-Forwarded-For is ignored, so a client cannot spoof its way past its limit', { timeout: 120_000 }, async () => {
    store = await freshStore('pglite')
    const server = await startServer(store.env)
    for (let n = 0; n < limit; n++) expect((await signUp(server, `198.51.100.${n}`, n)).status).toBe(201)
    expect((await signUp(server, '198.51.100.200', 100)).status).toBe(429)
  })
})
