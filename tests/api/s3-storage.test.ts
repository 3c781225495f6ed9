import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { s3Storage } from '../../app/api/storage/s3'
import { makeImage } from '../support/photos'
import { TEST_ORIGIN, createTestApi, type TestApi } from '../support/test-api'

/**
 * A small S3-compatible server (path-style PUT, GET, HEAD, DELETE of objects, S3's XML errors), so
 * the real AWS SDK adapter is exercised over HTTP. It does not check signatures; the tests check what
 * the adapter signs.
 */
function fakeS3() {
  const objects = new Map<string, { body: Buffer; type: string }>()
  const requests: { method: string; url: string; headers: http.IncomingHttpHeaders }[] = []
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => {
      requests.push({ method: req.method!, url: req.url!, headers: req.headers })
      const key = decodeURIComponent(new URL(req.url!, 'http://s3').pathname)
      const object = objects.get(key)
      if (req.method === 'PUT') {
        objects.set(key, { body: Buffer.concat(chunks), type: req.headers['content-type'] ?? 'application/octet-stream' })
        return res.writeHead(200, { etag: '"x"' }).end()
      }
      if (req.method === 'DELETE') {
        objects.delete(key)
        return res.writeHead(204).end()
      }
      if (!object) {
        return res
          .writeHead(404, { 'content-type': 'application/xml' })
          .end(
            req.method === 'HEAD'
              ? undefined
              : '<?xml version="1.0"?><Error><Code>NoSuchKey</Code><Message>The specified key does not exist.</Message></Error>',
          )
      }
      const range = req.headers.range?.match(/^bytes=0-(\d+)$/)
      if (range && req.method === 'GET') {
        const body = object.body.subarray(0, Number(range[1]) + 1)
        res.writeHead(206, { 'content-type': object.type, 'content-length': body.length, 'content-range': `bytes 0-${body.length - 1}/${object.body.length}` })
        return res.end(body)
      }
      res.writeHead(200, { 'content-type': object.type, 'content-length': object.body.length })
      res.end(req.method === 'HEAD' ? undefined : object.body)
    })
  })
  return { server, objects, requests }
}

let s3: ReturnType<typeof fakeS3>
let endpoint: string
const credentials = { S3_ACCESS_KEY_ID: 'AKIDEXAMPLE', S3_SECRET_ACCESS_KEY: 'wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY' }

beforeAll(async () => {
  s3 = fakeS3()
  await new Promise<void>((resolve) => s3.server.listen(0, '127.0.0.1', resolve))
  endpoint = `http://127.0.0.1:${(s3.server.address() as AddressInfo).port}`
})
afterAll(() => new Promise<void>((resolve) => s3.server.close(() => resolve())))

describe('the S3 storage adapter', () => {
  const storage = () =>
    s3Storage({ bucket: 'photos', endpoint, region: 'us-east-1', accessKeyId: credentials.S3_ACCESS_KEY_ID, secretAccessKey: credentials.S3_SECRET_ACCESS_KEY })

  it('puts, reads, sizes and deletes objects path-style with signed requests', async () => {
    const bucket = storage()
    await bucket.put('photos/a/small.jpg', Buffer.from('jpeg bytes'), 'image/jpeg')
    expect(s3.objects.get('/photos/photos/a/small.jpg')?.type).toBe('image/jpeg')
    expect(s3.requests.at(-1)!.headers.authorization).toMatch(/^AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE\/\d{8}\/us-east-1\/s3\/aws4_request/)
    expect(await bucket.get('photos/a/small.jpg')).toEqual({ body: Buffer.from('jpeg bytes'), contentType: 'image/jpeg' })
    expect(await bucket.size('photos/a/small.jpg')).toBe(10)
    await bucket.delete('photos/a/small.jpg')
    expect(await bucket.get('photos/a/small.jpg')).toBeNull()
    expect(await bucket.size('photos/a/small.jpg')).toBeNull()
  })

  it('presigns a PUT whose signature covers the content type and expires', async () => {
    const url = new URL(await storage().presignPut!('uploads/u1/1-a.jpg', 'image/jpeg', 900))
    expect(url.pathname).toBe('/photos/uploads/u1/1-a.jpg')
    expect(url.searchParams.get('X-Amz-Expires')).toBe('900')
    expect(url.searchParams.get('X-Amz-SignedHeaders')!.split(';')).toEqual(expect.arrayContaining(['content-type', 'host']))
    expect(url.searchParams.get('X-Amz-Signature')).toMatch(/^[0-9a-f]{64}$/)
  })

  it('refuses an unsafe key before any request', async () => {
    const before = s3.requests.length
    await expect(storage().put('photos/../../etc', Buffer.from('x'), 'text/plain')).rejects.toThrow(/unsafe storage key/)
    expect(s3.requests.length).toBe(before)
  })
})

describe('uploads in S3 mode', () => {
  let t: TestApi
  let maya: string
  beforeAll(async () => {
    t = await createTestApi({ S3_BUCKET: 'photos', S3_ENDPOINT: endpoint, ...credentials })
    maya = await t.signIn(0)
  })
  afterAll(() => t.close())

  const link = (fileName: string, fileType: string) =>
    t.request('/v1/media/growth-product-photo', { method: 'POST', cookie: maya, json: { fileName, fileType } })
  const putTo = (signedRequest: string, body: Buffer, type: string) =>
    fetch(signedRequest, { method: 'PUT', body: new Uint8Array(body), headers: { 'content-type': type } })

  it('answers a presigned PUT and ingests the object when the uploads are next listed', async () => {
    const res = await link('Snow day.jpg', 'image/jpeg')
    expect(res.status).toBe(200)
    expect(res.body.signedRequest).toMatch(new RegExp(`^${endpoint}/photos/uploads/[0-9a-f-]{36}/\\d+-Snow_day\\.jpg\\?`))
    expect((await putTo(res.body.signedRequest, await makeImage('jpeg', 300, 200), 'image/jpeg')).status).toBe(200)
    const mine = await t.request('/v1/media/uploads', { cookie: maya })
    expect(mine.body.photos).toHaveLength(1)
    expect(mine.body.photos[0].url).toBe(res.body.url)
    const id = res.body.url.match(/photos\/([0-9a-f-]{36})\//)[1]
    expect(s3.objects.has(`/photos/photos/${id}/smartphone.jpg`)).toBe(true)
    const served = await t.api.fetch(new Request(new URL(res.body.url, TEST_ORIGIN)))
    expect(served.status).toBe(200)
  })

  it('deletes an object that is not the signed image type and stores no photo', async () => {
    const res = await link('fake.jpg', 'image/jpeg')
    await putTo(res.body.signedRequest, Buffer.from('<html>not a photo</html>'), 'image/jpeg')
    const key = `/photos${new URL(res.body.signedRequest).pathname.replace(/^\/photos/, '')}`
    expect(s3.objects.has(key)).toBe(true)
    const mine = await t.request('/v1/media/uploads', { cookie: maya })
    expect(mine.body.photos).toHaveLength(1)
    expect(s3.objects.has(key)).toBe(false)
  })

  it('rejects and deletes an object over the size limit without reading it whole', async () => {
    const res = await link('huge.jpg', 'image/jpeg')
    const key = `/photos${new URL(res.body.signedRequest).pathname.replace(/^\/photos/, '')}`
    s3.objects.set(key, { body: Buffer.alloc(31 * 1024 * 1024, 0xff), type: 'image/jpeg' })
    const mine = await t.request('/v1/media/uploads', { cookie: maya })
    expect(mine.body.photos).toHaveLength(1)
    expect(s3.objects.has(key)).toBe(false)
    expect(
      s3.requests.some((r) => r.method === 'GET' && r.url.startsWith(key.replace('/photos/', '/photos/')) && r.headers.range === `bytes=0-${30 * 1024 * 1024}`),
    ).toBe(true)
  })

  it('leaves an upload that has not arrived yet pending', async () => {
    await link('later.jpg', 'image/jpeg')
    const mine = await t.request('/v1/media/uploads', { cookie: maya })
    expect(mine.status).toBe(200)
    expect(mine.body.photos).toHaveLength(1)
  })
})
