import fs from 'node:fs'
import path from 'node:path'
import { eq } from 'drizzle-orm'
import sharp from 'sharp'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { photos, uploads } from '../../app/api/db/schema'
import { MAX_UPLOAD_BYTES } from '../../app/contract/photos'
import { makeImage } from '../support/photos'
import { createTestApi, TEST_ORIGIN, type TestApi } from '../support/test-api'

let t: TestApi
let maya: string
const heic = fs.readFileSync(path.join(import.meta.dirname, '../fixtures/photo.heic'))

beforeAll(async () => {
  t = await createTestApi()
  maya = await t.signIn(0)
})
afterAll(() => t.close())

async function uploadLink(fileName: string, fileType: string, cookie = maya) {
  return t.request('/v1/media/growth-product-photo', { method: 'POST', cookie, json: { fileName, fileType } })
}

/** PUTs to a signed URL as a browser would: no session needed, the signature is the permission. */
async function put(signedRequest: string, body: Uint8Array | string, contentType: string) {
  const url = new URL(signedRequest, TEST_ORIGIN)
  return t.request(`${url.pathname}${url.search}`, { method: 'PUT', body: body as BodyInit, headers: { 'content-type': contentType } })
}

const counts = async () => ({
  photos: (await t.db.select().from(photos)).length,
  ingested: (await t.db.select().from(uploads).where(eq(uploads.status, 'ingested'))).length,
  files: fs.existsSync(path.join(t.dataDir, 'media')) ? fs.readdirSync(path.join(t.dataDir, 'media'), { recursive: true }).length : 0,
})

describe('POST /v1/media/growth-product-photo', () => {
  it('needs a session', async () => {
    const res = await t.request('/v1/media/growth-product-photo', { method: 'POST', json: { fileName: 'a.jpg', fileType: 'image/jpeg' } })
    expect(res.status).toBe(401)
  })

  it('answers a signed request and the URL the photo will have', async () => {
    const res = await uploadLink('Beach day.jpg', 'image/jpeg')
    expect(res.status).toBe(200)
    expect(res.body.signedRequest).toMatch(new RegExp(`^/v1/media/uploads/[0-9a-f-]{36}\\?expires=\\d+&signature=`))
    expect(res.body.url).toMatch(new RegExp(`^/v1/media/photos/[0-9a-f-]{36}/smartphone\\.jpg$`))
  })

  it('stores the name as a millisecond timestamp plus the name with whitespace replaced by underscores', async () => {
    const res = await uploadLink('  Grandma at\tthe  lake.jpg', 'image/jpeg')
    const id = res.body.signedRequest.match(/uploads\/([0-9a-f-]{36})/)[1]
    const [row] = await t.db.select().from(uploads).where(eq(uploads.id, id))
    expect(row!.storedName).toBe(`${t.now().getTime()}-__Grandma_at_the__lake.jpg`)
    expect(row!.objectKey).toBe(`uploads/${id}/${row!.storedName}`)
  })

  it.each([
    ['../../etc/passwd', 'must be a file name, not a path'],
    ['photos/me.jpg', 'must be a file name, not a path'],
    ['C:\\fakepath\\me.jpg', 'must be a file name, not a path'],
    ['..', 'must not contain ".."'],
    ['me..jpg', 'must not contain ".."'],
    ['me\u0000.jpg', 'a character we cannot store'],
    ['me\u001b[31m.jpg', 'must not contain control characters'],
    ['.', 'must name a file'],
    ['é'.repeat(150), 'is too long'],
  ])('refuses the file name %j with 400 and records nothing', async (fileName, why) => {
    const before = (await t.db.select().from(uploads)).length
    const res = await uploadLink(fileName, 'image/jpeg')
    expect(res.status).toBe(400)
    expect(res.body.error.message).toContain(why)
    expect((await t.db.select().from(uploads)).length).toBe(before)
  })

  it.each(['image/gif', 'image/svg+xml', 'application/pdf', 'text/html', 'video/mp4'])('refuses %s with 415', async (type) => {
    const res = await uploadLink('x.bin', type)
    expect(res.status).toBe(415)
    expect(res.body.error.message).toMatch(/JPEG, PNG, WebP or HEIC/)
  })

  it('refuses a missing fileType with 400 Required', async () => {
    const res = await t.request('/v1/media/growth-product-photo', { method: 'POST', cookie: maya, json: { fileName: 'a.jpg' } })
    expect(res.status).toBe(400)
    expect(res.body.error.issues).toContainEqual({ path: 'body.fileType', message: 'Required' })
  })
})

describe('PUT to the signed URL', () => {
  it.each([
    ['JPEG', 'image/jpeg', () => makeImage('jpeg', 640, 480)],
    ['PNG', 'image/png', () => makeImage('png', 300, 400)],
    ['WebP', 'image/webp', () => makeImage('webp', 500, 500)],
    ['HEIC', 'image/heic', async () => heic],
  ])('ingests a %s photo into renditions that appear in the uploads', async (_, type, make) => {
    const link = await uploadLink(`photo.${type.split('/')[1]}`, type)
    const res = await put(link.body.signedRequest, await make(), type)
    expect(res.status).toBe(200)
    expect(res.body.url).toBe(link.body.url)
    const served = await t.api.fetch(new Request(new URL(link.body.url, TEST_ORIGIN)))
    expect(served.status).toBe(200)
    const meta = await sharp(Buffer.from(await served.arrayBuffer())).metadata()
    expect(meta.format).toBe('jpeg')
    const small = await t.api.fetch(new Request(new URL(link.body.url.replace('/smartphone.', '/small.'), TEST_ORIGIN)))
    expect(small.status).toBe(200)
    const mine = await t.request('/v1/media/uploads', { cookie: maya })
    expect(mine.body.photos[0]).toMatchObject({ url: link.body.url, source: 'upload', familyId: null })
  })

  it('turns an EXIF-rotated photo upright', async () => {
    const sideways = await sharp({ create: { width: 80, height: 40, channels: 3, background: '#336699' } })
      .jpeg()
      .withMetadata({ orientation: 6 })
      .toBuffer()
    const link = await uploadLink('turned.jpg', 'image/jpeg')
    const res = await put(link.body.signedRequest, sideways, 'image/jpeg')
    expect(res.status).toBe(200)
    const mine = await t.request('/v1/media/uploads', { cookie: maya })
    expect(mine.body.photos[0]).toMatchObject({ width: 40, height: 80, orientation: 'portrait' })
  })

  it("lists only the caller's uploads", async () => {
    const sam = await t.signIn(1)
    const res = await t.request('/v1/media/uploads', { cookie: sam })
    expect(res.status).toBe(200)
    expect(res.body.photos).toEqual([])
  })

  describe('refusals store nothing', () => {
    let jpeg: Buffer
    beforeAll(async () => {
      jpeg = await makeImage('jpeg', 64, 64)
    })

    async function refused(status: number, message: RegExp, attempt: () => Promise<{ status: number; body: any }>) {
      const before = await counts()
      const res = await attempt()
      expect(res.status).toBe(status)
      expect(res.body.error.message).toMatch(message)
      expect(await counts()).toEqual(before)
    }

    it('refuses a tampered signature with 403', async () => {
      const link = await uploadLink('a.jpg', 'image/jpeg')
      const url = new URL(link.body.signedRequest, TEST_ORIGIN)
      url.searchParams.set(
        'signature',
        url.searchParams.get('signature')!.replace(/^./, (c) => (c === 'A' ? 'B' : 'A')),
      )
      await refused(403, /not valid/, () => put(url.toString(), jpeg, 'image/jpeg'))
    })

    it('refuses a lengthened expiry with 403', async () => {
      const link = await uploadLink('a.jpg', 'image/jpeg')
      const url = new URL(link.body.signedRequest, TEST_ORIGIN)
      url.searchParams.set('expires', String(Number(url.searchParams.get('expires')) + 3_600_000))
      await refused(403, /not valid/, () => put(url.toString(), jpeg, 'image/jpeg'))
    })

    it("refuses another upload's signature with 403", async () => {
      const a = new URL((await uploadLink('a.jpg', 'image/jpeg')).body.signedRequest, TEST_ORIGIN)
      const b = new URL((await uploadLink('b.jpg', 'image/jpeg')).body.signedRequest, TEST_ORIGIN)
      b.search = a.search
      await refused(403, /not valid/, () => put(b.toString(), jpeg, 'image/jpeg'))
    })

    it('refuses a missing signature and a made-up upload id with 403', async () => {
      await refused(403, /not valid/, () =>
        t.request('/v1/media/uploads/00000000-0000-4000-8000-000000000000', {
          method: 'PUT',
          body: new Uint8Array(jpeg),
          headers: { 'content-type': 'image/jpeg' },
        }),
      )
      await refused(403, /not valid/, () =>
        t.request('/v1/media/uploads/..%2F..%2Fetc?expires=1&signature=x', {
          method: 'PUT',
          body: new Uint8Array(jpeg),
          headers: { 'content-type': 'image/jpeg' },
        }),
      )
    })

    it('refuses an expired link with 403', async () => {
      const link = await uploadLink('a.jpg', 'image/jpeg')
      const now = t.now()
      t.setNow(new Date(now.getTime() + 16 * 60 * 1000))
      try {
        await refused(403, /expired/, () => put(link.body.signedRequest, jpeg, 'image/jpeg'))
      } finally {
        t.setNow(now)
      }
    })

    it('refuses other bytes on a spent link with 403', async () => {
      const link = await uploadLink('a.jpg', 'image/jpeg')
      expect((await put(link.body.signedRequest, jpeg, 'image/jpeg')).status).toBe(200)
      const other = await makeImage('jpeg', 64, 64, 200)
      await refused(403, /already used/, () => put(link.body.signedRequest, other, 'image/jpeg'))
    })

    it('answers a retry of the same bytes (its first answer lost) as the first time, storing nothing more', async () => {
      const link = await uploadLink('again.jpg', 'image/jpeg')
      const first = await put(link.body.signedRequest, jpeg, 'image/jpeg')
      const before = await counts()
      const again = await put(link.body.signedRequest, jpeg, 'image/jpeg')
      expect(again.status).toBe(200)
      expect(again.body).toEqual(first.body)
      expect(await counts()).toEqual(before)
    })

    it('lets one of two simultaneous PUTs of the same link win', async () => {
      const link = await uploadLink('race.jpg', 'image/jpeg')
      const other = await makeImage('jpeg', 64, 64, 90)
      const results = await Promise.all([put(link.body.signedRequest, jpeg, 'image/jpeg'), put(link.body.signedRequest, other, 'image/jpeg')])
      const statuses = results.map((r) => r.status).sort()
      expect(statuses[0]).toBe(200)
      expect([403, 409]).toContain(statuses[1])
      const id = link.body.signedRequest.match(/uploads\/([0-9a-f-]{36})/)[1]
      expect(await t.db.select().from(photos).where(eq(photos.id, id))).toHaveLength(1)
    })

    it('refuses a body over the size limit with 413, by Content-Length or by streaming', async () => {
      const link = await uploadLink('big.jpg', 'image/jpeg')
      const big = Buffer.alloc(MAX_UPLOAD_BYTES + 1, 0xff)
      await refused(413, /at most 30 MB/, () => put(link.body.signedRequest, big, 'image/jpeg'))
      const url = new URL(link.body.signedRequest, TEST_ORIGIN)
      const stream = new ReadableStream({
        start(controller) {
          for (let i = 0; i < 31; i++) controller.enqueue(new Uint8Array(1024 * 1024))
          controller.close()
        },
      })
      const streamed = await t.api.fetch(
        new Request(`${TEST_ORIGIN}${url.pathname}${url.search}`, {
          method: 'PUT',
          body: stream,
          headers: { 'content-type': 'image/jpeg' },
          duplex: 'half',
        } as RequestInit),
      )
      expect(streamed.status).toBe(413)
      // The link was not spent by the refusal: the same link still takes a proper photo.
      expect((await put(link.body.signedRequest, jpeg, 'image/jpeg')).status).toBe(200)
    })

    it('refuses a content type other than the signed one with 415', async () => {
      const link = await uploadLink('a.jpg', 'image/jpeg')
      const png = await makeImage('png')
      await refused(415, /JPEG files only/, () => put(link.body.signedRequest, png, 'image/png'))
      await refused(415, /JPEG, PNG, WebP or HEIC/, () => put(link.body.signedRequest, jpeg, 'text/plain'))
    })

    it('refuses bytes that are not an image, or not the signed type, with 415', async () => {
      const link = await uploadLink('a.jpg', 'image/jpeg')
      await refused(415, /not a JPEG image/, () => put(link.body.signedRequest, '<script>alert(1)</script>', 'image/jpeg'))
      await refused(415, /not a JPEG image/, () => put(link.body.signedRequest, heic, 'image/jpeg'))
      await refused(415, /not a readable image|could not be processed/, () =>
        put(link.body.signedRequest, Buffer.concat([jpeg.subarray(0, 40), Buffer.alloc(200)]), 'image/jpeg'),
      )
      const heicLink = await uploadLink('a.heic', 'image/heic')
      await refused(415, /HEIC/, () => put(heicLink.body.signedRequest, Buffer.concat([heic.subarray(0, 64), Buffer.alloc(500)]), 'image/heic'))
    })

    it('refuses an empty body with 400', async () => {
      const link = await uploadLink('a.jpg', 'image/jpeg')
      await refused(400, /empty/, () => put(link.body.signedRequest, new Uint8Array(), 'image/jpeg'))
    })

    it('refuses a decompression bomb with 415', async () => {
      // A 12000×12000 PNG of one colour is tiny on disk and 144 megapixels decoded.
      const bomb = await sharp({ create: { width: 12000, height: 12000, channels: 3, background: '#fff' } })
        .png({ compressionLevel: 9 })
        .toBuffer()
      const link = await uploadLink('bomb.png', 'image/png')
      await refused(415, /too many pixels|pixel limit/i, () => put(link.body.signedRequest, bomb, 'image/png'))
    })
  })
})
