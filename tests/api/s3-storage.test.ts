import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { MAX_UPLOAD_BYTES } from '../../app/catalogue/photo-constants'
import { s3Storage, S3StorageError, type S3Settings } from '../../app/api/storage/s3'
import { ObjectTooLarge } from '../../app/api/storage/storage'
import { makeImage } from '../support/photos'
import { sigV4Signature, startS3Server, type S3Server } from '../support/s3-server'
import { TEST_ORIGIN, createTestApi, type TestApi } from '../support/test-api'

let s3: S3Server
beforeAll(async () => {
  s3 = await startS3Server({ bucket: 'photos', corsOrigins: [TEST_ORIGIN] })
})
afterAll(() => s3.close())

const storage = (overrides: Partial<S3Settings> = {}) =>
  s3Storage({ bucket: s3.bucket, endpoint: s3.endpoint, region: s3.region, accessKeyId: s3.accessKeyId, secretAccessKey: s3.secretAccessKey, ...overrides })

/** A PUT to a presigned URL the way the browser does it: the file as the body, its type as the content type. */
const browserPut = (url: string, body: Buffer, contentType: string) =>
  fetch(url, { method: 'PUT', body: new Uint8Array(body), headers: { 'content-type': contentType } })

/** The S3 error code of a refused request. */
const refusal = async (res: Response) => ({ status: res.status, code: (await res.text()).match(/<Code>(\w+)<\/Code>/)?.[1] })

const keyOf = (signedUrl: string) => decodeURIComponent(new URL(signedUrl).pathname).replace(/^\/photos\//, '')

describe('the test S3 server', () => {
  it('computes SigV4 signatures as AWS documents them (header and presigned examples)', () => {
    const example = {
      method: 'GET',
      path: '/test.txt',
      amzDate: '20130524T000000Z',
      region: 'us-east-1',
      secretAccessKey: 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY',
    }
    const emptyHash = 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855'
    const signedByHeader = sigV4Signature({
      ...example,
      query: [],
      headers: { host: 'examplebucket.s3.amazonaws.com', range: 'bytes=0-9', 'x-amz-content-sha256': emptyHash, 'x-amz-date': example.amzDate },
      signedHeaders: ['host', 'range', 'x-amz-content-sha256', 'x-amz-date'],
      payloadHash: emptyHash,
    })
    expect(signedByHeader).toBe('f0e8bdb87c964420e857bd35b5d6ed310bd44f0170aba48dd91039c6036bdb41')
    const presigned = sigV4Signature({
      ...example,
      query: [
        ['X-Amz-Algorithm', 'AWS4-HMAC-SHA256'],
        ['X-Amz-Credential', 'AKIAIOSFODNN7EXAMPLE/20130524/us-east-1/s3/aws4_request'],
        ['X-Amz-Date', example.amzDate],
        ['X-Amz-Expires', '86400'],
        ['X-Amz-SignedHeaders', 'host'],
      ],
      headers: { host: 'examplebucket.s3.amazonaws.com' },
      signedHeaders: ['host'],
      payloadHash: 'UNSIGNED-PAYLOAD',
    })
    expect(presigned).toBe('aeeed9bbccd4d02ee5c0109b86d86835f995330da4c265957d157751f604d404')
  })

  it('refuses unsigned requests, like a private bucket', async () => {
    await storage().put('probe/anonymous.txt', Buffer.from('x'), 'text/plain')
    expect(await refusal(await fetch(`${s3.endpoint}/photos/probe/anonymous.txt`))).toEqual({ status: 403, code: 'AccessDenied' })
    expect(await refusal(await fetch(`${s3.endpoint}/photos/probe/other.txt`, { method: 'PUT', body: 'x' }))).toEqual({ status: 403, code: 'AccessDenied' })
  })
})

describe('the S3 storage adapter', () => {
  it('puts, reads, sizes and deletes objects path-style with signed requests', async () => {
    const bucket = storage()
    await bucket.put('photos/a/small.jpg', Buffer.from('jpeg bytes'), 'image/jpeg')
    const put = s3.requests.at(-1)!
    expect(put.method).toBe('PUT')
    expect(put.url.split('?')[0]).toBe('/photos/photos/a/small.jpg')
    expect(put.headers.authorization).toMatch(/^AWS4-HMAC-SHA256 Credential=S3RVER\/\d{8}\/us-east-1\/s3\/aws4_request/)
    expect(await bucket.get('photos/a/small.jpg')).toEqual({ body: Buffer.from('jpeg bytes'), contentType: 'image/jpeg' })
    expect(await bucket.size('photos/a/small.jpg')).toBe(10)
    await bucket.delete('photos/a/small.jpg')
    expect(await bucket.get('photos/a/small.jpg')).toBeNull()
    expect(await bucket.size('photos/a/small.jpg')).toBeNull()
  })

  it('round-trips binary bytes and keys with spaces, unicode and reserved characters', async () => {
    const bucket = storage()
    const key = "uploads/u1/1700000000000-Snow day (1) naïve+'*!.jpg"
    const body = await makeImage('jpeg', 120, 80)
    await bucket.put(key, body, 'image/jpeg')
    expect((await bucket.get(key))!.body.equals(body)).toBe(true)
    expect(await bucket.size(key)).toBe(body.length)
  })

  it('answers null for a missing key and deletes a missing key without complaint', async () => {
    const bucket = storage()
    expect(await bucket.get('photos/none/original.jpg')).toBeNull()
    expect(await bucket.get('photos/none/original.jpg', 1024)).toBeNull()
    expect(await bucket.size('photos/none/original.jpg')).toBeNull()
    await expect(bucket.delete('photos/none/original.jpg')).resolves.toBeUndefined()
  })

  it('reads under a cap with a Range one byte past it, and refuses a larger object with ObjectTooLarge', async () => {
    const bucket = storage()
    await bucket.put('capped/exact.bin', Buffer.alloc(1000, 7), 'application/octet-stream')
    await bucket.put('capped/over.bin', Buffer.alloc(1001, 7), 'application/octet-stream')
    await bucket.put('capped/huge.bin', Buffer.alloc(5 * 1024 * 1024, 7), 'application/octet-stream')

    expect((await bucket.get('capped/exact.bin', 1000))!.body).toEqual(Buffer.alloc(1000, 7))
    expect(s3.requests.at(-1)!.headers.range).toBe('bytes=0-1000')
    expect((await bucket.get('capped/exact.bin', 5000))!.body.length).toBe(1000)
    await expect(bucket.get('capped/over.bin', 1000)).rejects.toBeInstanceOf(ObjectTooLarge)
    await expect(bucket.get('capped/huge.bin', 1000)).rejects.toThrow(/capped\/huge\.bin is larger than 1000 bytes/)
    expect(s3.requests.at(-1)!.headers.range).toBe('bytes=0-1000')
    expect((await bucket.get('capped/huge.bin'))!.body.length).toBe(5 * 1024 * 1024)
  })

  it('refuses an unsafe key before any request', async () => {
    const bucket = storage()
    const before = s3.requests.length
    for (const key of ['photos/../../etc', '/leading', 'a//b', 'tab\there', 'photos/./x']) {
      await expect(bucket.put(key, Buffer.from('x'), 'text/plain')).rejects.toThrow(/unsafe storage key/)
      await expect(bucket.get(key)).rejects.toThrow(/unsafe storage key/)
      await expect(bucket.size(key)).rejects.toThrow(/unsafe storage key/)
      await expect(bucket.delete(key)).rejects.toThrow(/unsafe storage key/)
      await expect(bucket.presignPut!(key, 'image/jpeg', 900)).rejects.toThrow(/unsafe storage key/)
    }
    expect(s3.requests.length).toBe(before)
  })

  it('names S3_BUCKET when the bucket does not exist, instead of reading every key as missing', async () => {
    const wrong = storage({ bucket: 'no-such-bucket' })
    await expect(wrong.get('photos/a/original.jpg')).rejects.toThrow(/bucket "no-such-bucket" failed: NoSuchBucket .*check S3_BUCKET/)
    await expect(wrong.get('photos/a/original.jpg', 1024)).rejects.toThrow(/NoSuchBucket .*check S3_BUCKET/)
    await expect(wrong.size('photos/a/original.jpg')).rejects.toThrow(
      /HEAD of "photos\/a\/original.jpg" in bucket "no-such-bucket" failed: NoSuchBucket .*check S3_BUCKET/,
    )
    await expect(wrong.put('photos/a/original.jpg', Buffer.from('x'), 'image/jpeg')).rejects.toThrow(/NoSuchBucket .*check S3_BUCKET/)
    await expect(wrong.delete('photos/a/original.jpg')).rejects.toThrow(/NoSuchBucket .*check S3_BUCKET/)
  })

  it('names the credentials when the secret or the key id is wrong, for every operation', async () => {
    await storage().put('creds/kept.txt', Buffer.from('kept'), 'text/plain')
    for (const wrong of [storage({ secretAccessKey: 'not-the-secret' }), storage({ accessKeyId: 'NOT-A-KEY' })]) {
      const credentials = /failed: \w+ \(HTTP 403\).*check S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY/
      await expect(wrong.put('creds/new.txt', Buffer.from('x'), 'text/plain')).rejects.toThrow(credentials)
      await expect(wrong.get('creds/kept.txt')).rejects.toThrow(credentials)
      await expect(wrong.get('creds/kept.txt', 100)).rejects.toThrow(credentials)
      // A HEAD's refusal has no body: the SDK knows only the status, which is still worth naming.
      await expect(wrong.size('creds/kept.txt')).rejects.toThrow(credentials)
      await expect(wrong.delete('creds/kept.txt')).rejects.toThrow(credentials)
    }
    await expect(storage({ secretAccessKey: 'not-the-secret' }).get('creds/kept.txt')).rejects.toBeInstanceOf(S3StorageError)
    await expect(storage({ secretAccessKey: 'not-the-secret' }).get('creds/kept.txt')).rejects.toThrow(/SignatureDoesNotMatch/)
    expect(await storage().size('creds/new.txt')).toBeNull()
    expect(await storage().size('creds/kept.txt')).toBe(4)
  })

  it('names S3_REGION when requests are signed for another region', async () => {
    await expect(storage({ region: 'eu-west-3' }).get('creds/kept.txt')).rejects.toThrow(/AuthorizationHeaderMalformed .*check S3_REGION/)
  })

  it('accepts a presigned PUT done the way the browser does it, and reads it back through the adapter', async () => {
    const bucket = storage()
    const url = await bucket.presignPut!('uploads/u1/1-snow.jpg', 'image/jpeg', 900)
    expect(new URL(url).searchParams.get('X-Amz-Expires')).toBe('900')
    expect(new URL(url).searchParams.get('X-Amz-SignedHeaders')!.split(';')).toEqual(expect.arrayContaining(['content-type', 'host']))
    const photo = await makeImage('jpeg', 300, 200)
    expect((await browserPut(url, photo, 'image/jpeg')).status).toBe(200)
    const stored = await bucket.get('uploads/u1/1-snow.jpg', MAX_UPLOAD_BYTES)
    expect(stored!.contentType).toBe('image/jpeg')
    expect(stored!.body.equals(photo)).toBe(true)
  })

  it('signs no checksum of an empty body into a presigned PUT (S3 would refuse every real upload as BadDigest)', async () => {
    const url = new URL(await storage().presignPut!('uploads/u1/2-checksum.jpg', 'image/jpeg', 900))
    expect([...url.searchParams.keys()].filter((name) => name.toLowerCase().startsWith('x-amz-checksum-'))).toEqual([])
    expect((await browserPut(url.toString(), Buffer.from('not empty'), 'image/jpeg')).status).toBe(200)
  })

  it('refuses a presigned PUT with another content type, a tampered URL or no signature, and stores nothing', async () => {
    const bucket = storage()
    const url = await bucket.presignPut!('uploads/u1/3-tamper.jpg', 'image/jpeg', 900)
    const body = await makeImage('jpeg')
    const tampered = (change: (u: URL) => void) => {
      const u = new URL(url)
      change(u)
      return u.toString()
    }
    expect(await refusal(await browserPut(url, body, 'text/html'))).toEqual({ status: 403, code: 'SignatureDoesNotMatch' })
    expect(
      await refusal(
        await browserPut(
          tampered((u) => (u.pathname = '/photos/uploads/u2/3-tamper.jpg')),
          body,
          'image/jpeg',
        ),
      ),
    ).toEqual({
      status: 403,
      code: 'SignatureDoesNotMatch',
    })
    expect(
      await refusal(
        await browserPut(
          tampered((u) => u.searchParams.set('X-Amz-Expires', '604800')),
          body,
          'image/jpeg',
        ),
      ),
    ).toEqual({
      status: 403,
      code: 'SignatureDoesNotMatch',
    })
    expect(
      await refusal(
        await browserPut(
          tampered((u) => u.searchParams.set('X-Amz-Signature', '0'.repeat(64))),
          body,
          'image/jpeg',
        ),
      ),
    ).toEqual({
      status: 403,
      code: 'SignatureDoesNotMatch',
    })
    expect(
      (
        await browserPut(
          tampered((u) => u.searchParams.delete('X-Amz-Signature')),
          body,
          'image/jpeg',
        )
      ).status,
    ).toBe(400)
    expect(
      await refusal(
        await browserPut(
          tampered((u) => (u.search = '')),
          body,
          'image/jpeg',
        ),
      ),
    ).toEqual({ status: 403, code: 'AccessDenied' })
    expect(await bucket.size('uploads/u1/3-tamper.jpg')).toBeNull()
    expect(await bucket.size('uploads/u2/3-tamper.jpg')).toBeNull()
  })

  it('reads an empty object under a cap as empty (S3 answers any range of it with 416 InvalidRange)', async () => {
    const bucket = storage()
    await bucket.put('capped/empty.jpg', Buffer.alloc(0), 'image/jpeg')
    expect(await bucket.get('capped/empty.jpg', MAX_UPLOAD_BYTES)).toEqual({ body: Buffer.alloc(0), contentType: 'image/jpeg' })
    expect(await bucket.get('capped/empty.jpg')).toEqual({ body: Buffer.alloc(0), contentType: 'image/jpeg' })
    expect(await bucket.size('capped/empty.jpg')).toBe(0)
  })

  it("lets the store's pages PUT to a presigned URL across origins (CORS), and no other origin", async () => {
    const url = await storage().presignPut!('uploads/u1/5-cors.jpg', 'image/jpeg', 900)
    const preflight = (origin: string) =>
      fetch(url, { method: 'OPTIONS', headers: { origin, 'access-control-request-method': 'PUT', 'access-control-request-headers': 'content-type' } })
    const allowed = await preflight(TEST_ORIGIN)
    expect(allowed.status).toBe(200)
    expect(allowed.headers.get('access-control-allow-methods')).toMatch(/PUT/)
    expect(allowed.headers.get('access-control-allow-headers')).toBe('content-type')
    expect((await preflight('https://elsewhere.example')).status).toBe(403)
    const put = await fetch(url, {
      method: 'PUT',
      body: new Uint8Array(await makeImage('jpeg')),
      headers: { 'content-type': 'image/jpeg', origin: TEST_ORIGIN },
    })
    expect(put.status).toBe(200)
    expect(put.headers.get('access-control-allow-origin')).toBe(TEST_ORIGIN)
  })

  it('refuses an expired presigned PUT (s3rver checks X-Amz-Date plus X-Amz-Expires)', async () => {
    const bucket = storage()
    vi.useFakeTimers({ toFake: ['Date'] })
    vi.setSystemTime(Date.now() - 16 * 60 * 1000)
    const url = await bucket.presignPut!('uploads/u1/4-late.jpg', 'image/jpeg', 900).finally(() => vi.useRealTimers())
    const res = await browserPut(url, await makeImage('jpeg'), 'image/jpeg')
    const text = await res.text()
    expect(res.status).toBe(403)
    expect(text).toMatch(/<Code>AccessDenied<\/Code>/)
    expect(text).toMatch(/Request has expired/)
    expect(await bucket.size('uploads/u1/4-late.jpg')).toBeNull()
  })
})

describe('uploads in S3 mode', () => {
  let t: TestApi
  let maya: string
  beforeAll(async () => {
    t = await createTestApi({ S3_BUCKET: s3.bucket, S3_ENDPOINT: s3.endpoint, S3_ACCESS_KEY_ID: s3.accessKeyId, S3_SECRET_ACCESS_KEY: s3.secretAccessKey })
    maya = await t.signIn(0)
  })
  afterAll(() => t.close())

  const link = async (fileName: string, fileType: string) => {
    const res = await t.request('/v1/media/growth-product-photo', { method: 'POST', cookie: maya, json: { fileName, fileType } })
    expect(res.status).toBe(200)
    return res.body as { signedRequest: string; url: string }
  }
  const listed = async () => (await t.request('/v1/media/uploads', { cookie: maya })).body.photos as { url: string }[]

  it('answers a presigned PUT and ingests the object when the uploads are next listed', async () => {
    const { signedRequest, url } = await link('Snow day.jpg', 'image/jpeg')
    expect(signedRequest).toMatch(new RegExp(`^${s3.endpoint}/photos/uploads/[0-9a-f-]{36}/\\d+-Snow_day\\.jpg\\?`))
    expect((await browserPut(signedRequest, await makeImage('jpeg', 300, 200), 'image/jpeg')).status).toBe(200)
    const photos = await listed()
    expect(photos).toHaveLength(1)
    expect(photos[0]!.url).toBe(url)
    const id = url.match(/photos\/([0-9a-f-]{36})\//)![1]
    expect(await t.storage.size(`photos/${id}/smartphone.jpg`)).toBeGreaterThan(0)
    const served = await t.api.fetch(new Request(new URL(url, TEST_ORIGIN)))
    expect(served.status).toBe(200)
    expect(served.headers.get('content-type')).toBe('image/jpeg')
  })

  it('refuses a PUT of another content type to the link, and the upload stays pending', async () => {
    const { signedRequest } = await link('Sneaky.jpg', 'image/jpeg')
    expect(await refusal(await browserPut(signedRequest, await makeImage('png'), 'image/png'))).toEqual({ status: 403, code: 'SignatureDoesNotMatch' })
    expect(await t.storage.size(keyOf(signedRequest))).toBeNull()
    expect(await listed()).toHaveLength(1)
  })

  it('deletes an object that is not the signed image type and stores no photo', async () => {
    const { signedRequest } = await link('fake.jpg', 'image/jpeg')
    expect((await browserPut(signedRequest, Buffer.from('<html>not a photo</html>'), 'image/jpeg')).status).toBe(200)
    expect(await t.storage.size(keyOf(signedRequest))).toBe(24)
    expect(await listed()).toHaveLength(1)
    expect(await t.storage.size(keyOf(signedRequest))).toBeNull()
  })

  it('rejects and deletes an empty upload', async () => {
    const { signedRequest } = await link('empty.jpg', 'image/jpeg')
    expect((await browserPut(signedRequest, Buffer.alloc(0), 'image/jpeg')).status).toBe(200)
    expect(await t.storage.size(keyOf(signedRequest))).toBe(0)
    expect(await listed()).toHaveLength(1)
    expect(await t.storage.size(keyOf(signedRequest))).toBeNull()
  })

  it('rejects and deletes an upload over the size limit, reading no more than the limit and a byte', async () => {
    const { signedRequest } = await link('huge.jpg', 'image/jpeg')
    const huge = Buffer.alloc(MAX_UPLOAD_BYTES + 1024 * 1024, 0xff)
    huge.set([0xff, 0xd8, 0xff, 0xe0])
    expect((await browserPut(signedRequest, huge, 'image/jpeg')).status).toBe(200)
    const key = keyOf(signedRequest)
    expect(await listed()).toHaveLength(1)
    expect(await t.storage.size(key)).toBeNull()
    const reads = s3.requests.filter((r) => r.method === 'GET' && decodeURIComponent(r.url.split('?')[0]!) === `/photos/${key}`)
    expect(reads.map((r) => r.headers.range)).toEqual([`bytes=0-${MAX_UPLOAD_BYTES}`])
  })

  it('leaves an upload that has not arrived yet pending', async () => {
    await link('later.jpg', 'image/jpeg')
    expect(await listed()).toHaveLength(1)
  })
})
