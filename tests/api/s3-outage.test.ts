import { eq } from 'drizzle-orm'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { previews, uploads } from '../../app/api/db/schema'
import { demoAccounts } from '../../app/api/demo/accounts'
import { photoKey } from '../../app/api/media/urls'
import { previewKey } from '../../app/api/services/previews'
import { designHashOf, printFileKey } from '../../app/api/services/print-files'
import { recordPreview } from '../support/cart'
import { pseudoTemplates } from '../../app/catalogue/ornaments'
import { addAlbumPhotos, makeImage } from '../support/photos'
import { startS3Server, type S3Fault, type S3Server } from '../support/s3-server'
import { TEST_ORIGIN, createTestApi, type TestApi } from '../support/test-api'

/**
 * S3 stopped, hung or failing (issue 43 items 4 and 6): every request that needs the bucket answers 503 'unavailable'
 * with Retry-After in the error shape, within S3_CONNECT_TIMEOUT_MS/S3_REQUEST_TIMEOUT_MS (never a hang, never a 500),
 * an upload waiting in the bucket stays pending rather than being rejected, and all of it serves again once S3 answers.
 */
let s3: S3Server
let t: TestApi
let maya: string
let userId: string
let photoUrl: string
/** A preview's files as the API serves them: a mockup kept beside it, and its design's front print file (kept under the design's hash). */
let previewFiles: { url: string; body: string }[]
let albumPhotoIds: string[]

const listUploads = () => t.request('/v1/media/uploads', { cookie: maya })
const get = (url: string) => t.request(new URL(url, TEST_ORIGIN).pathname)

/** A presigned PUT straight to the bucket, as the browser sends it (the store is not in the way). */
async function uploadToBucket(fileName: string) {
  const link = await t.request('/v1/media/growth-product-photo', { method: 'POST', cookie: maya, json: { fileName, fileType: 'image/jpeg' } })
  expect(link.status).toBe(200)
  const { signedRequest, url } = link.body as { signedRequest: string; url: string }
  const put = await fetch(signedRequest, { method: 'PUT', body: new Uint8Array(await makeImage('jpeg', 200, 150)), headers: { 'content-type': 'image/jpeg' } })
  expect(put.status).toBe(200)
  return { url, objectKey: decodeURIComponent(new URL(signedRequest).pathname).replace(/^\/photos\//, '') }
}

beforeAll(async () => {
  s3 = await startS3Server({ bucket: 'photos' })
  t = await createTestApi({
    S3_BUCKET: s3.bucket,
    S3_ENDPOINT: s3.endpoint,
    S3_ACCESS_KEY_ID: s3.accessKeyId,
    S3_SECRET_ACCESS_KEY: s3.secretAccessKey,
    S3_CONNECT_TIMEOUT_MS: '300',
    S3_REQUEST_TIMEOUT_MS: '300',
  })
  maya = await t.signIn(0)
  userId = t.users[0].id
  const first = await uploadToBucket('First.jpg')
  expect((await listUploads()).body.photos).toHaveLength(1)
  photoUrl = first.url
  const preview = await recordPreview(t, userId)
  const [recorded] = await t.db.select().from(previews).where(eq(previews.id, preview.id))
  const [row] = await t.db
    .update(previews)
    .set({ designHash: designHashOf(recorded!) })
    .where(eq(previews.id, preview.id))
    .returning()
  await t.storage.put(previewKey(preview.id, 'mockup-front.jpg'), Buffer.from('mockup of the preview'), 'image/jpeg')
  await t.storage.put(printFileKey(row!, 'front'), Buffer.from('front print file of the design'), 'image/png')
  previewFiles = [
    { url: preview.url('mockup-front.jpg'), body: 'mockup of the preview' },
    { url: t.api.deps.media.printFileUrl(preview.id, 'front'), body: 'front print file of the design' },
  ]
  albumPhotoIds = (await addAlbumPhotos(t, demoAccounts[0].family.id, 2, undefined, { width: 480, height: 360 })).map((p) => p.id)
})

const generatePreview = () =>
  t.request('/v1/printify/generate-preview', {
    method: 'POST',
    cookie: maya,
    json: {
      variantId: 72965,
      pseudoTemplateId: pseudoTemplates.star.id,
      backSideId: '72965-3',
      cells: albumPhotoIds.map((photoId, i) => ({ cellId: i === 0 ? 'star-left' : 'star-right', photoId, transform: { x: 0, y: 0, zoom: 1, rotation: 0 } })),
    },
  })
afterEach(() => s3.fault(null))
afterAll(async () => {
  await t.close()
  await s3.close()
})

const expectOutage = (res: { status: number; headers: Headers; body: any }) => {
  expect(res.status).toBe(503)
  expect(res.headers.get('retry-after')).toBe('5')
  expect(res.body).toEqual({ error: { code: 'unavailable', message: expect.stringMatching(/^Photo storage is not answering/), requestId: expect.any(String) } })
}

describe.each<S3Fault>(['hang', 'refuse', 'error'])('with S3 %s', (fault) => {
  it('answers a photo 503 with Retry-After, and serves it again once S3 is back', async () => {
    s3.fault(fault)
    expectOutage(await get(photoUrl))
    s3.fault(null)
    const served = await get(photoUrl)
    expect(served.status).toBe(200)
    expect(served.headers.get('content-type')).toBe('image/jpeg')
  })

  it('answers a preview file (a mockup, a print file) 503, and serves it again once S3 is back', async () => {
    for (const file of previewFiles) {
      s3.fault(fault)
      expectOutage(await get(file.url))
      s3.fault(null)
      const served = await get(file.url)
      expect(served.status, file.url).toBe(200)
      expect(served.body).toBe(file.body)
    }
  })

  it('answers a preview request 503 when its photos cannot be read, and makes the preview once S3 is back', async () => {
    s3.fault(fault)
    expectOutage(await generatePreview())
    s3.fault(null)
    const made = await generatePreview()
    expect(made.status, JSON.stringify(made.body)).toBe(201)
  })

  it('answers the uploads list 503 while an upload waits in the bucket, keeps it pending, and ingests it once S3 is back', async () => {
    const before = ((await listUploads()).body.photos as unknown[]).length
    const waiting = await uploadToBucket(`Waiting ${fault}.jpg`)
    s3.fault(fault)
    expectOutage(await listUploads())
    const [row] = await t.db.select({ status: uploads.status }).from(uploads).where(eq(uploads.objectKey, waiting.objectKey))
    expect(row?.status).toBe('pending')
    s3.fault(null)
    const listed = await listUploads()
    expect(listed.status).toBe(200)
    const urls = (listed.body.photos as { url: string }[]).map((p) => p.url)
    expect(urls).toHaveLength(before + 1)
    expect(urls).toContain(waiting.url)
  })
})

it('still answers a photo whose file is not in the bucket 404 (NoSuchKey is no outage)', async () => {
  const { url } = await uploadToBucket('Gone.jpg')
  expect((await listUploads()).status).toBe(200)
  const id = url.match(/photos\/([0-9a-f-]{36})\//)![1]!
  await t.storage.delete(photoKey(id, 'smartphone'))
  expect((await get(url)).status).toBe(404)
})
