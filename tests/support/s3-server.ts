import { createHash, createHmac, timingSafeEqual } from 'node:crypto'
import fs from 'node:fs'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { createRequire } from 'node:module'
import os from 'node:os'
import path from 'node:path'
import { crc32 } from 'node:zlib'

type S3rverOptions = { address: string; port: number; silent: boolean; directory: string; configureBuckets: { name: string; configs: string[] }[] }
type S3rverInstance = { run(): Promise<AddressInfo>; close(): Promise<void>; httpServer: http.Server }
type AccountModule = { DUMMY_ACCOUNT: { createKeyPair(accessKeyId: string, secretAccessKey: string): void } }

const require = createRequire(import.meta.url)
const S3rver = require('s3rver') as new (options: S3rverOptions) => S3rverInstance

/** s3rver's built-in key pair. */
export const S3RVER_CREDENTIALS = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' }

export type S3Server = {
  /** http://127.0.0.1:<port>, path-style (`/<bucket>/<key>`). */
  endpoint: string
  bucket: string
  region: string
  accessKeyId: string
  secretAccessKey: string
  /** Every request that reached the server, in order (method, path with query, lower-case headers). */
  requests: { method: string; url: string; headers: http.IncomingHttpHeaders }[]
  /**
   * An outage from now on (issue 43): `hang` takes requests and never answers them, `refuse` drops every connection,
   * `error` answers 500 InternalError as S3 does when it is failing; null serves normally again.
   */
  fault(mode: S3Fault | null): void
  close(): Promise<void>
}

export type S3Fault = 'hang' | 'refuse' | 'error'

/**
 * s3rver 3.7.1 (a real S3 protocol implementation: XML errors, ranges, metadata, NoSuchBucket) on
 * 127.0.0.1 and a free port, with its files in a temporary directory removed on close.
 *
 * s3rver checks the access key id, header-signed request time (15 minutes) and presigned expiry, but
 * NOT SigV4 signatures, and it serves unsigned requests. So a small front checks what S3 checks before
 * s3rver sees the request: a SigV4 signature over the request as received (header or presigned query,
 * for this key pair and region), no anonymous access (a private bucket), every x-amz-* header of a
 * presigned request signed, and the body against x-amz-content-sha256 and any x-amz-checksum-*. It also
 * answers a range of an empty object with S3's 416 InvalidRange, where s3rver breaks the connection.
 */
export async function startS3Server({
  bucket,
  region = 'us-east-1',
  accessKeyId = S3RVER_CREDENTIALS.accessKeyId,
  secretAccessKey = S3RVER_CREDENTIALS.secretAccessKey,
  corsOrigins = [],
  publicRead = false,
}: {
  bucket: string
  region?: string
  accessKeyId?: string
  secretAccessKey?: string
  /** Pages on these origins may PUT to presigned URLs (and GET) from the browser, as the bucket's CORS rule would allow. */
  corsOrigins?: string[]
  /** Anyone may read objects without signing (a public-read bucket policy); writes still need a signature. */
  publicRead?: boolean
}): Promise<S3Server> {
  if (accessKeyId !== S3RVER_CREDENTIALS.accessKeyId) {
    // s3rver refuses key ids it does not know; its registry is per process, our front checks the pair.
    ;(require('s3rver/lib/models/account') as AccountModule).DUMMY_ACCOUNT.createKeyPair(accessKeyId, secretAccessKey)
  }
  const directory = fs.mkdtempSync(path.join(os.tmpdir(), 'keepsake-s3rver-'))
  const cors = corsOrigins.length
    ? [
        `<CORSConfiguration><CORSRule>${corsOrigins.map((origin) => `<AllowedOrigin>${origin}</AllowedOrigin>`).join('')}` +
          '<AllowedMethod>PUT</AllowedMethod><AllowedMethod>GET</AllowedMethod><AllowedHeader>content-type</AllowedHeader>' +
          '<MaxAgeSeconds>600</MaxAgeSeconds></CORSRule></CORSConfiguration>',
      ]
    : []
  const s3rver = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory, configureBuckets: [{ name: bucket, configs: cors }] })
  const backend = await s3rver.run()
  const requests: S3Server['requests'] = []
  // No keep-alive to s3rver, so closing it does not wait for idle sockets.
  const agent = new http.Agent({ keepAlive: false })
  let fault: S3Fault | null = null

  const front = http.createServer((req, res) => {
    if (fault === 'refuse') return req.socket.destroy()
    // A hung server reads nothing and answers nothing; the request stays open until the client gives up.
    if (fault === 'hang') return
    const chunks: Buffer[] = []
    req.on('data', (chunk: Buffer) => chunks.push(chunk))
    req.on('end', () => {
      const body = Buffer.concat(chunks)
      requests.push({ method: req.method!, url: req.url!, headers: req.headers })
      if (fault === 'error')
        return sendError(res, req.method!, { status: 500, code: 'InternalError', message: 'We encountered an internal error. Please try again.' })
      // With publicRead, an unsigned GET or HEAD of an object is let through, as a bucket policy granting
      // s3:GetObject to everyone does (S3_PUBLIC_URL serving the photos to browsers).
      const anonymousRead =
        publicRead && (req.method === 'GET' || req.method === 'HEAD') && !req.headers.authorization && !req.url!.includes('X-Amz-Algorithm=')
      const refusal = req.method === 'OPTIONS' || anonymousRead ? null : checkRequest(req, body, { accessKeyId, secretAccessKey, region })
      if (refusal) return sendError(res, req.method!, refusal)
      const headers = { ...req.headers }
      for (const hopByHop of ['expect', 'connection', 'transfer-encoding']) delete headers[hopByHop]
      if (req.headers['transfer-encoding']) headers['content-length'] = String(body.length)
      const upstream = http.request({ agent, host: '127.0.0.1', port: backend.port, method: req.method, path: req.url, headers }, (answer) => {
        if (answer.statusCode === 206 && /\/0$/.test(answer.headers['content-range'] ?? '')) {
          // s3rver answers a range of an empty object with a 206 promising a byte it never sends; S3 answers 416.
          answer.destroy()
          return sendError(res, req.method!, { status: 416, code: 'InvalidRange', message: 'The requested range is not satisfiable' })
        }
        res.writeHead(answer.statusCode!, answer.headers)
        answer.pipe(res)
        answer.on('error', () => res.destroy())
      })
      upstream.on('error', () => res.destroy())
      upstream.end(body)
    })
  })
  front.on('connection', (socket) => {
    if (fault === 'refuse') socket.destroy()
  })
  await new Promise<void>((resolve) => front.listen(0, '127.0.0.1', resolve))

  return {
    endpoint: `http://127.0.0.1:${(front.address() as AddressInfo).port}`,
    bucket,
    region,
    accessKeyId,
    secretAccessKey,
    requests,
    fault(mode) {
      fault = mode
    },
    async close() {
      front.closeAllConnections()
      await new Promise<void>((resolve) => front.close(() => resolve()))
      agent.destroy()
      s3rver.httpServer.closeAllConnections()
      await s3rver.close()
      fs.rmSync(directory, { recursive: true, force: true })
    },
  }
}

type Refusal = { status: number; code: string; message: string }

function sendError(res: http.ServerResponse, method: string, { status, code, message }: Refusal) {
  const xml = `<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>${code}</Code><Message>${message}</Message></Error>`
  res.writeHead(status, { 'content-type': 'application/xml', 'content-length': Buffer.byteLength(xml) })
  res.end(method === 'HEAD' ? undefined : xml)
}

/** RFC 3986 encoding, as SigV4 canonical requests use. */
const uriEncode = (text: string) => encodeURIComponent(text).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)
const sha256Hex = (data: string | Buffer) => createHash('sha256').update(data).digest('hex')
const hmac = (key: string | Buffer, data: string) => createHmac('sha256', key).update(data).digest()

/** Query parameters as sent (no `+` → space), in order. */
function rawQuery(url: string): [string, string][] {
  const query = url.includes('?') ? url.slice(url.indexOf('?') + 1) : ''
  return query
    .split('&')
    .filter(Boolean)
    .map((pair) => {
      const at = pair.indexOf('=')
      return (at < 0 ? [pair, ''] : [pair.slice(0, at), pair.slice(at + 1)]).map(decodeURIComponent) as [string, string]
    })
}

/** The SigV4 signature of a request (AWS "Signature Version 4 signing process", service s3). */
export function sigV4Signature({
  method,
  path: rawPath,
  query,
  headers,
  signedHeaders,
  payloadHash,
  amzDate,
  region,
  secretAccessKey,
}: {
  method: string
  path: string
  query: [string, string][]
  headers: Record<string, string | string[] | undefined>
  signedHeaders: string[]
  payloadHash: string
  amzDate: string
  region: string
  secretAccessKey: string
}) {
  const canonicalUri = rawPath
    .split('/')
    .map((segment) => uriEncode(decodeURIComponent(segment)))
    .join('/')
  const canonicalQuery = query
    .map(([key, value]) => [uriEncode(key), uriEncode(value)] as const)
    .sort(([a, av], [b, bv]) => (a < b ? -1 : a > b ? 1 : av < bv ? -1 : av > bv ? 1 : 0))
    .map(([key, value]) => `${key}=${value}`)
    .join('&')
  const headerValue = (name: string) => [headers[name] ?? ''].flat().join(',').trim().replace(/\s+/g, ' ')
  const canonicalHeaders = signedHeaders.map((name) => `${name}:${headerValue(name)}\n`).join('')
  const canonicalRequest = [method, canonicalUri, canonicalQuery, canonicalHeaders, signedHeaders.join(';'), payloadHash].join('\n')
  const scope = `${amzDate.slice(0, 8)}/${region}/s3/aws4_request`
  const stringToSign = ['AWS4-HMAC-SHA256', amzDate, scope, sha256Hex(canonicalRequest)].join('\n')
  const signingKey = ['s3', 'aws4_request'].reduce(hmac, hmac(hmac(`AWS4${secretAccessKey}`, amzDate.slice(0, 8)), region))
  return hmac(signingKey, stringToSign).toString('hex')
}

/** What S3 would refuse about this request that s3rver does not check, or null. */
function checkRequest(req: http.IncomingMessage, body: Buffer, keys: { accessKeyId: string; secretAccessKey: string; region: string }): Refusal | null {
  const url = req.url!
  const query = rawQuery(url)
  const param = (name: string) => query.find(([key]) => key === name)?.[1]
  const presigned = param('X-Amz-Algorithm') !== undefined
  const authorization = req.headers.authorization

  let credential: string | undefined, signedHeaders: string | undefined, signature: string | undefined, amzDate: string | undefined, payloadHash: string
  if (presigned) {
    if (authorization) return { status: 400, code: 'InvalidArgument', message: 'Only one auth mechanism allowed' }
    if (param('X-Amz-Algorithm') !== 'AWS4-HMAC-SHA256') return { status: 400, code: 'AuthorizationQueryParametersError', message: 'Unsupported algorithm' }
    ;[credential, signedHeaders, signature, amzDate] = ['X-Amz-Credential', 'X-Amz-SignedHeaders', 'X-Amz-Signature', 'X-Amz-Date'].map(param)
    payloadHash = param('X-Amz-Content-Sha256') ?? 'UNSIGNED-PAYLOAD'
  } else if (authorization) {
    const match = authorization.match(/^AWS4-HMAC-SHA256 Credential=([^,\s]+),\s*SignedHeaders=([^,\s]+),\s*Signature=([0-9a-f]+)$/)
    if (!match) return { status: 400, code: 'AuthorizationHeaderMalformed', message: 'Only AWS4-HMAC-SHA256 Authorization headers are accepted here' }
    ;[, credential, signedHeaders, signature] = match
    amzDate = [req.headers['x-amz-date']].flat()[0]
    payloadHash = [req.headers['x-amz-content-sha256']].flat()[0] ?? ''
    if (!payloadHash) return { status: 400, code: 'InvalidRequest', message: 'Missing required header for this request: x-amz-content-sha256' }
  } else {
    return { status: 403, code: 'AccessDenied', message: 'Access Denied (the bucket is private; sign the request)' }
  }
  if (!credential || !signedHeaders || !signature || !amzDate) {
    return {
      status: 400,
      code: 'AuthorizationQueryParametersError',
      message: 'X-Amz-Credential, X-Amz-SignedHeaders, X-Amz-Signature and X-Amz-Date are required',
    }
  }
  const [keyId, date, region, service, terminator] = credential.split('/')
  if (keyId !== keys.accessKeyId)
    return { status: 403, code: 'InvalidAccessKeyId', message: 'The AWS Access Key Id you provided does not exist in our records.' }
  if (date !== amzDate.slice(0, 8) || region !== keys.region || service !== 's3' || terminator !== 'aws4_request') {
    return { status: 400, code: 'AuthorizationHeaderMalformed', message: `The credential scope ${credential} is wrong; expecting region ${keys.region}` }
  }
  const signed = signedHeaders.split(';')
  if (!signed.includes('host')) return { status: 400, code: 'AuthorizationHeaderMalformed', message: 'The host header must be signed' }
  if (presigned) {
    const unsigned = Object.keys(req.headers).filter((name) => name.startsWith('x-amz-') && !signed.includes(name))
    if (unsigned.length)
      return { status: 403, code: 'AccessDenied', message: `There were headers present in the request which were not signed: ${unsigned.join(', ')}` }
  }

  const expected = sigV4Signature({
    method: req.method!,
    path: url.split('?')[0]!,
    query: presigned ? query.filter(([key]) => key !== 'X-Amz-Signature') : query,
    headers: req.headers,
    signedHeaders: signed,
    payloadHash,
    amzDate,
    region: keys.region,
    secretAccessKey: keys.secretAccessKey,
  })
  if (signature.length !== expected.length || !timingSafeEqual(Buffer.from(signature), Buffer.from(expected))) {
    return {
      status: 403,
      code: 'SignatureDoesNotMatch',
      message: 'The request signature we calculated does not match the signature you provided. Check your key and signing method.',
    }
  }

  if (/^[0-9a-f]{64}$/i.test(payloadHash) && payloadHash.toLowerCase() !== sha256Hex(body)) {
    return { status: 400, code: 'XAmzContentSHA256Mismatch', message: "The provided 'x-amz-content-sha256' header does not match what was computed." }
  }
  if (payloadHash.startsWith('STREAMING-')) return { status: 501, code: 'NotImplemented', message: 'aws-chunked uploads are not supported by this test server' }
  return checksumRefusal(req, query, body)
}

/** S3 checks an x-amz-checksum-* sent as a header or (presigned) in the query against the body. */
function checksumRefusal(req: http.IncomingMessage, query: [string, string][], body: Buffer): Refusal | null {
  const sent = new Map<string, string>()
  for (const [key, value] of query) if (key.toLowerCase().startsWith('x-amz-checksum-')) sent.set(key.toLowerCase(), value)
  for (const [name, value] of Object.entries(req.headers)) if (name.startsWith('x-amz-checksum-') && typeof value === 'string') sent.set(name, value)
  for (const [name, value] of sent) {
    const algorithm = name.slice('x-amz-checksum-'.length)
    if (algorithm === 'mode' || algorithm === 'type') continue
    let actual: string
    if (algorithm === 'crc32') {
      const digest = Buffer.alloc(4)
      digest.writeUInt32BE(crc32(body))
      actual = digest.toString('base64')
    } else if (algorithm === 'sha1' || algorithm === 'sha256') {
      actual = createHash(algorithm).update(body).digest('base64')
    } else {
      return { status: 501, code: 'NotImplemented', message: `This test server cannot check x-amz-checksum-${algorithm}` }
    }
    if (actual !== value)
      return { status: 400, code: 'BadDigest', message: `The ${algorithm.toUpperCase()} you specified did not match the calculated checksum.` }
  }
  return null
}
