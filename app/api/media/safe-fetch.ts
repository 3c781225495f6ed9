/**
 * SSRF-safe image fetcher behind `GET /v1/{product}-photos/proxy?url=...`.
 * Server-only: every hop is parsed, checked against a host allow-list, resolved once, vetted by address
 * and then connected to that exact address, so neither redirects nor DNS rebinding can reach inside.
 */
import { promises as dns } from 'node:dns'
import http, { type IncomingMessage } from 'node:http'
import https from 'node:https'
import net, { type LookupFunction } from 'node:net'

export type ProxyRefusalCode = 'validation_failed' | 'forbidden' | 'unsupported_media_type' | 'payload_too_large' | 'provider_failed'

/** Why the proxy will not return an image; the endpoint maps `code` to an HTTP error answer. */
export class ProxyRefusal extends Error {
  constructor(
    readonly code: ProxyRefusalCode,
    message: string,
  ) {
    super(message)
    this.name = 'ProxyRefusal'
  }
}

export type Lookup = (hostname: string) => Promise<{ address: string; family: 4 | 6 }[]>

export type SafeFetchOptions = {
  /** Lower-case 'host' or 'host:port'; a bare host allows only the scheme's default port (80 for http, 443 for https). */
  allowedHosts: readonly string[]
  /** Covers the whole fetch, redirects and body included. Default 10 000. */
  timeoutMs?: number
  /** Default 20 MiB. */
  maxBytes?: number
  /** Default 3. */
  maxRedirects?: number
  /** Default: the system resolver, every address, in its own order. */
  lookup?: Lookup
  /** Default isPublicAddress. */
  isAllowedAddress?: (ip: string) => boolean
}

const MAX_URL_LENGTH = 2048
const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308])
// A plain raster type; SVG is excluded because it can carry script.
const IMAGE_TYPE = /^image\/[a-z0-9.+-]+$/

/** Parses a client-supplied URL; refuses anything that is not a plain absolute http(s) URL. */
export function parseProxyTarget(raw: string): URL {
  if (typeof raw !== 'string' || raw.trim() === '') throw invalid('The url parameter is required.')
  if (raw.length > MAX_URL_LENGTH) throw invalid(`The url is ${raw.length} characters long; the limit is ${MAX_URL_LENGTH}.`)
  let url: URL
  try {
    url = new URL(raw) // no base: relative and protocol-relative URLs fail here
  } catch {
    throw invalid('The url must be an absolute http or https URL.')
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw invalid(`The url must use http or https, not "${url.protocol.slice(0, -1)}".`)
  // Userinfo is the classic allow-list confusion trick and never needed for public images.
  if (url.username !== '' || url.password !== '') throw invalid('The url must not contain a user name or password.')
  // One trailing dot names the same host; drop it so the allow-list and TLS see the usual form.
  if (url.hostname.endsWith('.') && !url.hostname.endsWith('..')) url.hostname = url.hostname.slice(0, -1)
  url.hash = '' // fragments never reach the server
  return url
}

/** True when the URL's host and effective port match an allow-list entry exactly. */
export function isAllowedHost(url: URL, allowedHosts: readonly string[]): boolean {
  const port = url.port || (url.protocol === 'https:' ? '443' : '80')
  return allowedHosts.some((entry) => {
    const match = /^(\[[^\]]+\]|[^:]+)(?::(\d+))?$/.exec(entry.trim().toLowerCase())
    if (!match) return false
    const host = match[1]!.replace(/\.$/, '')
    // A bare entry means "the default port of whichever scheme is used", never an arbitrary port.
    return host === url.hostname && (match[2] === undefined ? url.port === '' : Number(match[2]) === Number(port))
  })
}

/** True only for globally routable unicast addresses; anything unparseable is refused. */
export function isPublicAddress(ip: string): boolean {
  const bare = ip.startsWith('[') && ip.endsWith(']') ? ip.slice(1, -1) : ip
  if (net.isIPv4(bare)) return isPublicV4(bare.split('.').map(Number))
  if (bare.includes('%') || !net.isIPv6(bare)) return false // a zone id means link-scoped
  const h = parseV6(bare)
  if (!h) return false
  const embedded = [h[6]! >> 8, h[6]! & 0xff, h[7]! >> 8, h[7]! & 0xff]
  const zeros = (n: number) => h.slice(0, n).every((x) => x === 0)
  if (zeros(5) && h[5] === 0xffff) return isPublicV4(embedded) // ::ffff:a.b.c.d, IPv4-mapped
  if (zeros(6)) return isPublicV4(embedded) // ::a.b.c.d, IPv4-compatible; also :: and ::1 (0.0.0.0/8)
  if (h[0] === 0x64 && h[1] === 0xff9b && h.slice(2, 6).every((x) => x === 0)) return isPublicV4(embedded) // NAT64
  if (h[0] === 0x2002) return isPublicV4([h[1]! >> 8, h[1]! & 0xff, h[2]! >> 8, h[2]! & 0xff]) // 6to4
  if ((h[0]! & 0xe000) !== 0x2000) return false // outside 2000::/3: ULA, link-local, multicast, 64:ff9b:1::, 100::
  if (h[0] === 0x2001 && h[1]! < 0x200) return false // 2001::/23 IETF protocol assignments incl. Teredo, benchmarking
  if (h[0] === 0x2001 && h[1] === 0xdb8) return false // 2001:db8::/32 documentation
  if (h[0] === 0x3fff && h[1]! < 0x1000) return false // 3fff::/20 documentation
  return true
}

/** Fetches an image from an allow-listed host without ever touching a private address. */
export async function fetchImageSafely(rawUrl: string, options: SafeFetchOptions): Promise<{ bytes: Buffer; contentType: string; finalUrl: string }> {
  const timeoutMs = options.timeoutMs ?? 10_000
  const controller = new AbortController()
  let timer: NodeJS.Timeout | undefined
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      reject(new ProxyRefusal('provider_failed', `The image host was too slow: the fetch timed out after ${timeoutMs} ms.`))
      controller.abort() // tears down whatever socket is still open
    }, timeoutMs)
  })
  try {
    return await Promise.race([fetchHops(rawUrl, options, controller.signal), deadline])
  } finally {
    clearTimeout(timer)
    controller.abort() // also closes the connection after a refusal mid-response
  }
}

async function fetchHops(rawUrl: string, options: SafeFetchOptions, signal: AbortSignal) {
  const maxRedirects = options.maxRedirects ?? 3
  const maxBytes = options.maxBytes ?? 20 * 1024 * 1024
  let url = parseProxyTarget(rawUrl)
  for (let redirects = 0; ; redirects++) {
    if (!isAllowedHost(url, options.allowedHosts))
      throw new ProxyRefusal(
        'forbidden',
        redirects === 0
          ? `The host "${url.host}" is not on the photo proxy's allow-list.`
          : `The image host redirected to "${url.host}", which is not on the photo proxy's allow-list.`,
      )
    const target = await resolveVetted(url, options)
    signal.throwIfAborted() // the deadline already answered; start no new connection
    const res = await get(url, target, signal)
    const status = res.statusCode ?? 0
    if (REDIRECT_STATUSES.has(status)) {
      res.destroy()
      if (redirects >= maxRedirects)
        throw new ProxyRefusal('forbidden', `The image host redirected more than ${maxRedirects} times; the proxy stopped following.`)
      url = redirectTarget(res.headers.location, url, status)
      continue
    }
    if (status < 200 || status > 299) {
      res.destroy()
      throw new ProxyRefusal('provider_failed', `The image host answered HTTP ${status} for "${url.href}".`)
    }
    const contentType = (res.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase()
    if (!IMAGE_TYPE.test(contentType) || contentType.includes('svg')) {
      res.destroy()
      throw new ProxyRefusal(
        'unsupported_media_type',
        `The URL points to "${contentType || 'no content type'}", not a raster image; the proxy only forwards image/* types other than SVG.`,
      )
    }
    const declared = Number(res.headers['content-length'])
    if (Number.isFinite(declared) && declared > maxBytes) {
      res.destroy()
      throw tooLarge(maxBytes)
    }
    return { bytes: await readBody(res, maxBytes, url), contentType, finalUrl: url.href }
  }
}

/** Resolves the host once and refuses it if any address it names is off-limits. */
async function resolveVetted(url: URL, options: SafeFetchOptions): Promise<{ address: string; family: 4 | 6 }> {
  const hostname = url.hostname.replace(/^\[|\]$/g, '')
  const literal = net.isIP(hostname)
  let addresses: { address: string; family: 4 | 6 }[]
  if (literal === 4 || literal === 6) addresses = [{ address: hostname, family: literal }]
  else {
    try {
      addresses = await (options.lookup ?? systemLookup)(hostname)
    } catch (error) {
      throw new ProxyRefusal('provider_failed', `The host "${hostname}" could not be resolved (${errorCode(error)}).`)
    }
  }
  const first = addresses[0]
  if (!first) throw new ProxyRefusal('provider_failed', `The host "${hostname}" has no addresses.`)
  const allowed = options.isAllowedAddress ?? isPublicAddress
  // Any bad address refuses the host: a mixed answer is how rebinding attacks hedge their bets.
  if (!addresses.every((a) => allowed(a.address)))
    throw new ProxyRefusal('forbidden', `The host "${hostname}" resolves to a private or loopback address, so the proxy will not fetch from it.`)
  return first
}

const systemLookup: Lookup = async (hostname) =>
  (await dns.lookup(hostname, { all: true, verbatim: true })).map((a) => ({
    address: a.address,
    family: a.family === 6 ? 6 : 4,
  }))

/** One GET to the vetted address; the URL's host still drives the Host header and TLS SNI/certificate check. */
function get(url: URL, target: { address: string; family: 4 | 6 }, signal: AbortSignal): Promise<IncomingMessage> {
  // Pinning: the socket connects to the address we vetted, never to a fresh (possibly rebound) DNS answer.
  const lookup: LookupFunction = (_hostname, opts, callback) => (opts.all ? callback(null, [target]) : callback(null, target.address, target.family))
  const hostname = url.hostname.replace(/^\[|\]$/g, '')
  return new Promise((resolve, reject) => {
    const req = (url.protocol === 'https:' ? https : http).request(url, {
      method: 'GET',
      agent: false, // no pooled socket that was connected under a different check
      lookup,
      signal,
      servername: net.isIP(hostname) ? undefined : hostname,
      headers: { accept: 'image/*', 'accept-encoding': 'identity', 'user-agent': 'KeepsakePhotoProxy/1.0' },
    })
    // Stays attached so a late error (say, the final abort) is never an unhandled 'error' event.
    req.on('error', (error) => reject(new ProxyRefusal('provider_failed', `The image host "${url.host}" could not be reached (${errorCode(error)}).`)))
    req.on('response', (res) => {
      res.on('error', () => {}) // readBody reports body failures; this only keeps a late reset from crashing
      resolve(res)
    })
    req.end()
  })
}

/** Reads the body, cutting the connection as soon as it passes maxBytes. */
function readBody(res: IncomingMessage, maxBytes: number, url: URL): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = []
    let size = 0
    res.on('data', (chunk: Buffer) => {
      size += chunk.length
      if (size <= maxBytes) chunks.push(chunk)
      else {
        res.destroy() // stop downloading the moment the limit is passed
        reject(tooLarge(maxBytes))
      }
    })
    res.on('end', () => resolve(Buffer.concat(chunks)))
    const broken = () => reject(new ProxyRefusal('provider_failed', `The image host "${url.host}" closed the connection before sending the whole image.`))
    res.on('error', broken)
    res.on('close', () => !res.complete && broken()) // settled promises ignore this after success or a size refusal
  })
}

function redirectTarget(location: string | undefined, current: URL, status: number): URL {
  if (!location) throw new ProxyRefusal('provider_failed', `The image host answered HTTP ${status} without a Location header.`)
  try {
    return parseProxyTarget(new URL(location, current).href) // Location may be relative to the current URL
  } catch (error) {
    // The client's URL was fine; it is the host that pointed somewhere the proxy refuses to go.
    const reason = error instanceof ProxyRefusal ? ` ${error.message}` : ''
    throw new ProxyRefusal('forbidden', `The image host redirected to a URL the proxy refuses to follow.${reason}`)
  }
}

function isPublicV4(o: number[]): boolean {
  const [a = 0, b = 0, c = 0] = o
  return !(
    a === 0 || // 0.0.0.0/8 "this network", incl. unspecified
    a === 10 || // RFC 1918
    (a === 100 && b >= 64 && b <= 127) || // 100.64.0.0/10 CGNAT
    a === 127 || // loopback
    (a === 169 && b === 254) || // link-local, cloud metadata
    (a === 172 && b >= 16 && b <= 31) || // RFC 1918
    (a === 192 && b === 0 && (c === 0 || c === 2)) || // IETF protocol assignments, TEST-NET-1
    (a === 192 && b === 88 && c === 99) || // 6to4 relay anycast
    (a === 192 && b === 168) || // RFC 1918
    (a === 198 && (b === 18 || b === 19)) || // benchmarking 198.18.0.0/15
    (a === 198 && b === 51 && c === 100) || // TEST-NET-2
    (a === 203 && b === 0 && c === 113) || // TEST-NET-3
    a >= 224 // multicast 224/4, reserved 240/4, broadcast
  )
}

/** Eight 16-bit groups of an address net.isIPv6 already accepted (a dotted IPv4 tail included). */
function parseV6(ip: string): number[] | undefined {
  const groups = (part: string) =>
    part === ''
      ? []
      : part.split(':').flatMap((g) => {
          if (!g.includes('.')) return [parseInt(g, 16)]
          const [a = 0, b = 0, c = 0, d = 0] = g.split('.').map(Number)
          return [(a << 8) | b, (c << 8) | d]
        })
  const [head = '', tail] = ip.split('::')
  const left = groups(head)
  const right = tail === undefined ? [] : groups(tail)
  const fill = 8 - left.length - right.length
  if (fill < 0 || (tail === undefined && fill !== 0)) return undefined
  return [...left, ...Array<number>(fill).fill(0), ...right]
}

function invalid(message: string) {
  return new ProxyRefusal('validation_failed', message)
}

function tooLarge(maxBytes: number) {
  const limit = maxBytes > 0 && maxBytes % (1024 * 1024) === 0 ? `${maxBytes / (1024 * 1024)} MiB` : `${maxBytes} bytes`
  return new ProxyRefusal('payload_too_large', `The image is larger than the proxy's ${limit} limit.`)
}

function errorCode(error: unknown): string {
  if (error instanceof Error) return (error as NodeJS.ErrnoException).code ?? error.message
  return String(error)
}
