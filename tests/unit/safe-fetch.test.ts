import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  ProxyRefusal,
  type Lookup,
  type ProxyRefusalCode,
  type SafeFetchOptions,
  fetchImageSafely,
  isAllowedHost,
  isPublicAddress,
  parseProxyTarget,
} from '../../app/api/media/safe-fetch'
import { hostileProxyUrls } from '../fixtures/hostile-urls'

const ALLOWED = ['media.keepsake.test', 'cdn.keepsake.test'] as const

/** Runs the fetch and returns its refusal; fails the test if it resolved or threw something else. */
async function refusal(run: Promise<unknown>): Promise<ProxyRefusal> {
  const outcome = await run.then(
    (value) => ({ value }),
    (error: unknown) => ({ error }),
  )
  if (!('error' in outcome)) throw new Error('expected a refusal but the fetch succeeded')
  expect(outcome.error).toBeInstanceOf(ProxyRefusal)
  return outcome.error as ProxyRefusal
}

async function expectRefused(run: Promise<unknown>, code: ProxyRefusalCode, fragment: string | RegExp) {
  const error = await refusal(run)
  expect(error.code).toBe(code)
  expect(error.message).toMatch(fragment)
  return error
}

/** A lookup that answers from a table and records every host it is asked about. */
function recordingLookup(table: Record<string, string | string[]>) {
  const calls: string[] = []
  const lookup: Lookup = async (hostname) => {
    calls.push(hostname)
    const entry = table[hostname]
    if (entry === undefined) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' })
    return (Array.isArray(entry) ? entry : [entry]).map((address) => ({ address, family: address.includes(':') ? 6 : 4 }))
  }
  return { lookup, calls }
}

describe('hostile proxy URLs', () => {
  it('has at least 24 cases', () => {
    expect(hostileProxyUrls.length).toBeGreaterThanOrEqual(24)
  })

  it.each(hostileProxyUrls)('refuses $why', async ({ url }) => {
    // Default lookup and address policy: the refusal must come from parsing or the allow-list.
    let host: string | undefined
    try {
      host = parseProxyTarget(url).host
    } catch {
      host = undefined
    }
    const error = await refusal(fetchImageSafely(url, { allowedHosts: ALLOWED }))
    if (host === undefined) expect(error.code).toBe('validation_failed')
    else {
      expect(error.code).toBe('forbidden')
      expect(error.message).toContain(`"${host}" is not on the photo proxy's allow-list`)
    }
  })

  it('refuses every one of them before any DNS lookup or connection', async () => {
    const { lookup, calls } = recordingLookup({})
    for (const { url } of hostileProxyUrls) await refusal(fetchImageSafely(url, { allowedHosts: ALLOWED, lookup }))
    expect(calls).toEqual([])
  })
})

describe('parseProxyTarget', () => {
  it.each([
    ['', 'required'],
    ['media.keepsake.test/x.jpg', 'absolute http or https URL'],
    ['file:///etc/passwd', 'not "file"'],
    ['http://a:b@media.keepsake.test/', 'user name or password'],
    [`https://media.keepsake.test/${'x'.repeat(2048)}`, 'the limit is 2048'],
  ])('refuses %j as validation_failed (%s)', (raw, fragment) => {
    let error: unknown
    try {
      parseProxyTarget(raw)
    } catch (e) {
      error = e
    }
    expect(error).toBeInstanceOf(ProxyRefusal)
    expect((error as ProxyRefusal).code).toBe('validation_failed')
    expect((error as ProxyRefusal).message).toContain(fragment)
  })

  it('normalises case, one trailing dot and the fragment', () => {
    expect(parseProxyTarget('HTTPS://MEDIA.Keepsake.TEST./Photos/A.jpg#frag').href).toBe('https://media.keepsake.test/Photos/A.jpg')
  })
})

describe('isAllowedHost', () => {
  const list = ['media.keepsake.test', 'cdn.keepsake.test:8080', '[2606:4700::1]:8443']
  it.each([
    ['https://media.keepsake.test/x.jpg', true],
    ['http://media.keepsake.test/x.jpg', true],
    ['http://media.keepsake.test:80/x.jpg', true],
    ['HTTPS://MEDIA.KEEPSAKE.TEST./x.jpg', true],
    ['https://media.keepsake.test:443/x.jpg', true],
    ['http://media.keepsake.test:443/x.jpg', false],
    ['https://media.keepsake.test:8443/x.jpg', false],
    ['http://cdn.keepsake.test:8080/x.jpg', true],
    ['http://cdn.keepsake.test/x.jpg', false],
    ['http://[2606:4700:0::1]:8443/x.jpg', true],
    ['http://sub.media.keepsake.test/x.jpg', false],
    ['http://media.keepsake.test.evil.example/x.jpg', false],
  ])('%s -> %s', (raw, expected) => {
    expect(isAllowedHost(parseProxyTarget(raw), list)).toBe(expected)
  })
})

describe('isPublicAddress', () => {
  it.each([
    // IPv4
    '0.0.0.0',
    '0.1.2.3',
    '10.0.0.1',
    '10.255.255.255',
    '100.64.0.1',
    '100.127.255.255',
    '127.0.0.1',
    '127.255.0.1',
    '169.254.169.254',
    '172.16.0.1',
    '172.31.255.255',
    '192.0.0.8',
    '192.0.2.1',
    '192.88.99.1',
    '192.168.0.1',
    '198.18.0.1',
    '198.19.255.255',
    '198.51.100.7',
    '203.0.113.9',
    '224.0.0.1',
    '239.255.255.250',
    '240.0.0.1',
    '255.255.255.255',
    // IPv6
    '::',
    '::1',
    '[::1]',
    'fc00::1',
    'fd00::1',
    'fd00:ec2::254',
    'fe80::1',
    'fe80::1%eth0',
    'febf::1',
    'fec0::1',
    'ff02::1',
    'ff0e::1',
    '2001:db8::1',
    '2001:db8:ffff::1',
    '2001::1',
    '2001:2::1',
    '100::1',
    '3fff::1',
    '64:ff9b:1::1',
    '5f00::1',
    // IPv4 inside IPv6
    '::ffff:127.0.0.1',
    '::ffff:7f00:1',
    '::ffff:10.0.0.1',
    '::ffff:a9fe:a9fe',
    '::ffff:192.168.1.1',
    '::127.0.0.1',
    '::7f00:1',
    '64:ff9b::7f00:1',
    '64:ff9b::10.0.0.1',
    '2002:7f00:1::1',
    '2002:a00:1::',
    '::ffff:0:7f00:1',
    // Not an address at all
    '',
    'localhost',
    '127.1',
    '2130706433',
    '0x7f000001',
    '1.2.3',
    '::ffff:999.0.0.1',
    'not-an-ip',
  ])('refuses %s', (ip) => {
    expect(isPublicAddress(ip)).toBe(false)
  })

  it.each([
    '8.8.8.8',
    '1.1.1.1',
    '93.184.216.34',
    '100.63.255.255',
    '100.128.0.1',
    '172.15.255.255',
    '172.32.0.1',
    '192.169.0.1',
    '198.17.255.255',
    '198.20.0.1',
    '223.255.255.254',
    '2606:4700::1',
    '2606:4700:4700::1111',
    '2001:4860:4860::8888',
    '2a00:1450:4001:80b::200e',
    '::ffff:8.8.8.8',
    '::ffff:808:808',
    '64:ff9b::8.8.8.8',
    '2002:808:808::1',
    '3fff:1000::1',
  ])('allows %s', (ip) => {
    expect(isPublicAddress(ip)).toBe(true)
  })
})

describe('fetchImageSafely against a loopback server', () => {
  const JPEG = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 1, 2, 3, 4, 0xff, 0xd9])
  let server: http.Server
  let port = 0
  let closedPort = 0
  const seen: { url: string; host: string; remote: string }[] = []
  const streamsClosed: Promise<void>[] = []
  /** The slow routes answer only when the suite ends: a call to them comes back only if its own timeout fires. */
  let releaseSlow = () => {}
  const slowReleased = new Promise<void>((resolve) => (releaseSlow = resolve))

  beforeAll(async () => {
    server = http.createServer((req, res) => {
      seen.push({ url: req.url ?? '', host: req.headers.host ?? '', remote: req.socket.remoteAddress ?? '' })
      const route = (req.url ?? '').split('?')[0]
      const redirect = (location: string) => res.writeHead(302, { location }).end()
      switch (route) {
        case '/photo.jpg':
          return res.writeHead(200, { 'content-type': 'image/jpeg', 'content-length': JPEG.length }).end(JPEG)
        case '/redirect-ok':
          return redirect('/photo.jpg')
        case '/redirect-chain':
          return redirect(`http://cdn.keepsake.test:${port}/redirect-ok`)
        case '/redirect-ip':
          return redirect(`http://127.0.0.1:${port}/photo.jpg`)
        case '/redirect-private':
          return redirect(`http://media.keepsake.test:${port}/photo.jpg`)
        case '/redirect-file':
          return redirect('file:///etc/passwd')
        case '/loop':
          return redirect('/loop')
        case '/page.html':
          return res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end('<h1>hi</h1>')
        case '/logo.svg':
          return res.writeHead(200, { 'content-type': 'image/svg+xml' }).end('<svg onload="alert(1)"/>')
        case '/big-declared':
          return res.writeHead(200, { 'content-type': 'image/png', 'content-length': 5000 }).end(Buffer.alloc(5000))
        case '/big-chunked': {
          // Streams forever without a Content-Length; only the client hanging up ends it.
          res.writeHead(200, { 'content-type': 'image/png' })
          const timer = setInterval(() => res.write(Buffer.alloc(512)), 5)
          streamsClosed.push(new Promise((resolve) => res.on('close', () => (clearInterval(timer), resolve()))))
          return
        }
        case '/slow-headers':
          return void slowReleased.then(() => res.writeHead(200, { 'content-type': 'image/jpeg' }).end(JPEG))
        case '/slow-body': {
          res.writeHead(200, { 'content-type': 'image/jpeg' })
          res.write(JPEG.subarray(0, 2))
          return void slowReleased.then(() => res.end(JPEG.subarray(2)))
        }
        default:
          return res.writeHead(404, { 'content-type': 'text/plain' }).end('not found')
      }
    })
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    port = (server.address() as AddressInfo).port
    // A port with nothing listening: bind, note it, close.
    const spare = http.createServer()
    await new Promise<void>((resolve) => spare.listen(0, '127.0.0.1', resolve))
    closedPort = (spare.address() as AddressInfo).port
    await new Promise<void>((resolve) => spare.close(() => resolve()))
  })

  afterAll(async () => {
    releaseSlow()
    server.closeAllConnections()
    await new Promise<void>((resolve) => server.close(() => resolve()))
  })

  /** cdn -> loopback (allowed by the test policy), media -> a private address the policy refuses. */
  function options(extra: Partial<SafeFetchOptions> = {}) {
    const { lookup, calls } = recordingLookup({ 'cdn.keepsake.test': '127.0.0.1', 'media.keepsake.test': '10.0.0.5' })
    const opts: SafeFetchOptions = {
      allowedHosts: [`cdn.keepsake.test:${port}`, `media.keepsake.test:${port}`, `cdn.keepsake.test:${closedPort}`],
      lookup,
      isAllowedAddress: (ip) => ip === '127.0.0.1',
      ...extra,
    }
    return { opts, calls }
  }
  const at = (path: string) => `http://cdn.keepsake.test:${port}${path}`

  it('returns the bytes and content type of an image', async () => {
    const { opts, calls } = options()
    const result = await fetchImageSafely(at('/photo.jpg'), opts)
    expect(result.bytes.equals(JPEG)).toBe(true)
    expect(result.contentType).toBe('image/jpeg')
    expect(result.finalUrl).toBe(at('/photo.jpg'))
    expect(calls).toEqual(['cdn.keepsake.test'])
    // The Host header keeps the original name although the socket went to the pinned address.
    expect(seen.at(-1)).toMatchObject({ url: '/photo.jpg', host: `cdn.keepsake.test:${port}`, remote: '127.0.0.1' })
  })

  it('follows a relative redirect to an allowed path, checking the host again', async () => {
    const { opts, calls } = options()
    const result = await fetchImageSafely(at('/redirect-ok'), opts)
    expect(result.bytes.equals(JPEG)).toBe(true)
    expect(result.finalUrl).toBe(at('/photo.jpg'))
    expect(calls).toEqual(['cdn.keepsake.test', 'cdn.keepsake.test'])
  })

  it('follows a chain of redirects within maxRedirects', async () => {
    const { opts } = options()
    await expect(fetchImageSafely(at('/redirect-chain'), opts)).resolves.toMatchObject({ finalUrl: at('/photo.jpg') })
    await expectRefused(fetchImageSafely(at('/redirect-chain'), { ...opts, maxRedirects: 1 }), 'forbidden', 'more than 1 times')
  })

  it('refuses a redirect to a host that is not on the allow-list', async () => {
    const { opts } = options()
    await expectRefused(fetchImageSafely(at('/redirect-ip'), opts), 'forbidden', `redirected to "127.0.0.1:${port}", which is not on`)
  })

  it('refuses a redirect to an allowed name that resolves to a private address', async () => {
    const { opts, calls } = options()
    const before = seen.length
    await expectRefused(fetchImageSafely(at('/redirect-private'), opts), 'forbidden', '"media.keepsake.test" resolves to a private or loopback address')
    expect(calls).toEqual(['cdn.keepsake.test', 'media.keepsake.test'])
    expect(seen.length - before).toBe(1) // only the first hop reached a server
  })

  it('refuses a redirect to a non-http scheme', async () => {
    const { opts } = options()
    await expectRefused(fetchImageSafely(at('/redirect-file'), opts), 'forbidden', /refuses to follow.*not "file"/)
  })

  it('refuses a redirect loop', async () => {
    const { opts, calls } = options()
    await expectRefused(fetchImageSafely(at('/loop'), opts), 'forbidden', 'redirected more than 3 times')
    expect(calls).toHaveLength(4)
  })

  it('refuses HTML', async () => {
    const { opts } = options()
    await expectRefused(fetchImageSafely(at('/page.html'), opts), 'unsupported_media_type', '"text/html", not a raster image')
  })

  it('refuses SVG, which can carry script', async () => {
    const { opts } = options()
    await expectRefused(fetchImageSafely(at('/logo.svg'), opts), 'unsupported_media_type', '"image/svg+xml"')
  })

  it('refuses a declared Content-Length over maxBytes', async () => {
    const { opts } = options({ maxBytes: 1000 })
    await expectRefused(fetchImageSafely(at('/big-declared'), opts), 'payload_too_large', "larger than the proxy's 1000 bytes limit")
  })

  it('refuses a streamed body once it passes maxBytes, and hangs up', async () => {
    const { opts } = options({ maxBytes: 4096 })
    await expectRefused(fetchImageSafely(at('/big-chunked'), opts), 'payload_too_large', 'larger than the proxy')
    expect(streamsClosed).toHaveLength(1)
    await streamsClosed[0] // the server saw the client close the connection
  })

  it('times out waiting for headers', async () => {
    const { opts } = options({ timeoutMs: 300 })
    // The headers never come while the test runs: only the timeout can end the call.
    await expectRefused(fetchImageSafely(at('/slow-headers'), opts), 'provider_failed', 'timed out after 300 ms')
  })

  it('times out while the body trickles in', async () => {
    const { opts } = options({ timeoutMs: 300 })
    await expectRefused(fetchImageSafely(at('/slow-body'), opts), 'provider_failed', 'timed out after 300 ms')
  })

  it('reports a 404 as provider_failed with the status', async () => {
    const { opts } = options()
    await expectRefused(fetchImageSafely(at('/nothing-here.jpg'), opts), 'provider_failed', 'answered HTTP 404')
  })

  it('reports an unresolvable host and a refused connection as provider_failed', async () => {
    const { opts } = options({ allowedHosts: ['nowhere.keepsake.test', `cdn.keepsake.test:${closedPort}`] })
    await expectRefused(
      fetchImageSafely('https://nowhere.keepsake.test/x.jpg', opts),
      'provider_failed',
      '"nowhere.keepsake.test" could not be resolved (ENOTFOUND)',
    )
    await expectRefused(fetchImageSafely(`http://cdn.keepsake.test:${closedPort}/x.jpg`, opts), 'provider_failed', 'could not be reached (ECONNREFUSED)')
  })

  it('refuses a host when any of its addresses is private', async () => {
    const { lookup } = recordingLookup({ 'cdn.keepsake.test': ['127.0.0.1', '10.0.0.5'] })
    const before = seen.length
    await expectRefused(fetchImageSafely(at('/photo.jpg'), { ...options().opts, lookup }), 'forbidden', 'resolves to a private or loopback address')
    expect(seen.length).toBe(before)
  })

  it('applies isPublicAddress by default, so loopback is refused', async () => {
    const { opts } = options()
    const { isAllowedAddress: _, ...defaults } = opts
    await expectRefused(fetchImageSafely(at('/photo.jpg'), defaults), 'forbidden', '"cdn.keepsake.test" resolves to a private or loopback address')
  })

  describe('DNS rebinding', () => {
    /** Answers the vetted address first, then a private one, as a rebinding attacker's DNS server would. */
    function rebindingLookup() {
      const answers = ['127.0.0.1', '10.0.0.5']
      const calls: string[] = []
      const lookup: Lookup = async (hostname) => {
        calls.push(hostname)
        return [{ address: answers[Math.min(calls.length - 1, answers.length - 1)]!, family: 4 }]
      }
      return { lookup, calls }
    }

    it('connects to the vetted address; the lookup is asked once per hop and never again at connect time', async () => {
      const { lookup, calls } = rebindingLookup()
      const result = await fetchImageSafely(at('/photo.jpg'), { ...options().opts, lookup })
      expect(result.bytes.equals(JPEG)).toBe(true)
      expect(calls).toEqual(['cdn.keepsake.test'])
      expect(seen.at(-1)).toMatchObject({ url: '/photo.jpg', remote: '127.0.0.1', host: `cdn.keepsake.test:${port}` })
    })

    it('re-vets on each redirect hop, so a rebound second answer is refused', async () => {
      const { lookup, calls } = rebindingLookup()
      await expectRefused(fetchImageSafely(at('/redirect-ok'), { ...options().opts, lookup }), 'forbidden', 'resolves to a private or loopback address')
      expect(calls).toEqual(['cdn.keepsake.test', 'cdn.keepsake.test'])
    })
  })
})
