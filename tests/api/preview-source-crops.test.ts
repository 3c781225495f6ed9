import { eq } from 'drizzle-orm'
import sharp from 'sharp'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { demoAccounts } from '../../app/api/demo/accounts'
import { photoKey } from '../../app/api/media/urls'
import { previews } from '../../app/api/db/schema'
import { previewKey, sourceCropRenders } from '../../app/api/services/previews'
import { printFileKey } from '../../app/api/services/print-files'
import { photoCells, pseudoTemplates } from '../../app/catalogue/ornaments'
import { cellClipRect } from '../../app/compositor/layout'
import { renderFrontWithCells } from '../../app/compositor/print.server'
import { addAlbumPhotos } from '../support/photos'
import { startS3Server, type S3Server } from '../support/s3-server'
import { TEST_ORIGIN, createTestApi, type TestApi } from '../support/test-api'

/**
 * Issue 31 item 4 (decision 056): a preview's source crops (the photo as its cell draws it) are read by nobody on
 * the shopper's path, so a preview no longer makes them; the first request for one makes it from the preview's
 * record with the same renderer, keeps it, and serves the same bytes ever after.
 */
let t: TestApi
let cookie: string
let photoIds: string[]
const template = pseudoTemplates.star
const cells = photoCells(template)
const transforms = [
  { x: 0.1, y: -0.05, zoom: 1.4, rotation: 0 },
  { x: 0, y: 0, zoom: 1, rotation: 12 },
]

beforeAll(async () => {
  t = await createTestApi()
  cookie = await t.signIn(0)
  photoIds = (await addAlbumPhotos(t, demoAccounts[0].family.id, 3, undefined, { width: 480, height: 360 })).map((p) => p.id)
})
afterAll(() => t.close())

type Preview = { previewId: string; images: string[]; sourceImages: { cropped: string }[]; printAreas: { position: string; imageUrl: string }[] }

/** A star preview of `ids` by the shopper of `cookie`, through the API `api`. */
async function makePreview(ids: string[], api: TestApi = t, shopper = cookie): Promise<Preview> {
  const res = await api.request('/v1/printify/generate-preview', {
    method: 'POST',
    cookie: shopper,
    json: {
      variantId: 72965,
      pseudoTemplateId: template.id,
      backSideId: '72965-1',
      cells: cells.map((cell, i) => ({ cellId: cell.id, photoId: ids[i]!, transform: transforms[i]! })),
    },
  })
  expect(res.status, JSON.stringify(res.body)).toBe(201)
  return res.body as Preview
}

const get = (url: string) => t.api.fetch(new Request(new URL(url, TEST_ORIGIN)))

it('makes no source crop with the preview, and the first request makes the cell as drawn, kept for later requests', async () => {
  const preview = await makePreview([photoIds[0]!, photoIds[1]!])
  for (const i of [0, 1]) expect(await t.storage.get(previewKey(preview.previewId, `source-${i}.jpg`))).toBeNull()

  const before = sourceCropRenders()
  // Two requests at once for the same crop make it once.
  const [first, again] = await Promise.all([get(preview.sourceImages[1]!.cropped), get(preview.sourceImages[1]!.cropped)])
  expect(sourceCropRenders()).toBe(before + 1)
  for (const res of [first, again]) {
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toBe('image/jpeg')
  }
  const body = Buffer.from(await first.arrayBuffer())
  expect(Buffer.from(await again.arrayBuffer()).equals(body)).toBe(true)
  expect((await t.storage.get(previewKey(preview.previewId, 'source-1.jpg')))!.body.equals(body)).toBe(true)

  // The second cell's photo, turned as the design turned it, at the cell's print size: what the renderer draws.
  const rect = cellClipRect(cells[1]!, 1)
  expect(await sharp(body).metadata()).toMatchObject({ format: 'jpeg', width: rect.width, height: rect.height })
  const originals = await Promise.all([photoIds[0]!, photoIds[1]!].map(async (id) => (await t.storage.get(photoKey(id, 'original')))!.body))
  const front = await renderFrontWithCells({
    template,
    photos: Object.fromEntries(cells.map((cell, i) => [cell.id, { image: originals[i]!, transform: transforms[i]! }])),
  })
  const drawn = front.cells.find((c) => c.cellId === cells[1]!.id)!.image
  const expected = await sharp(drawn.data, { raw: { width: drawn.width, height: drawn.height, channels: 4 } })
    .flatten({ background: '#ffffff' })
    .jpeg({ quality: 90 })
    .toBuffer()
  expect(body.equals(expected)).toBe(true)

  // Served from storage from now on.
  const later = await get(preview.sourceImages[1]!.cropped)
  expect(Buffer.from(await later.arrayBuffer()).equals(body)).toBe(true)
  expect(sourceCropRenders()).toBe(before + 1)
})

it('answers 404 for a crop of a preview that does not exist, of a cell it does not have, or whose photo is gone', async () => {
  const preview = await makePreview([photoIds[2]!, photoIds[1]!])
  const before = sourceCropRenders()
  expect((await get(`/v1/media/previews/${crypto.randomUUID()}/source-0.jpg`)).status).toBe(404)
  expect((await get(preview.sourceImages[0]!.cropped.replace('source-0', 'source-2'))).status).toBe(404)
  await t.storage.delete(photoKey(photoIds[2]!, 'original'))
  expect((await get(preview.sourceImages[0]!.cropped)).status).toBe(404)
  expect(sourceCropRenders()).toBe(before)
  expect(await t.storage.get(previewKey(preview.previewId, 'source-0.jpg'))).toBeNull()
})

describe('beside a public bucket (S3_PUBLIC_URL)', () => {
  let s3: S3Server
  let b: TestApi
  beforeAll(async () => {
    s3 = await startS3Server({ bucket: 'media' })
    b = await createTestApi({
      S3_BUCKET: s3.bucket,
      S3_ENDPOINT: s3.endpoint,
      S3_ACCESS_KEY_ID: s3.accessKeyId,
      S3_SECRET_ACCESS_KEY: s3.secretAccessKey,
      S3_PUBLIC_URL: `${s3.endpoint}/${s3.bucket}`,
    })
  })
  afterAll(async () => {
    await b.close()
    await s3.close()
  })

  it('names the crops and the print files by the API, which makes them, while the mockups are the bucket’s', async () => {
    const maya = await b.signIn(0)
    const ids = (await addAlbumPhotos(b, demoAccounts[0].family.id, 2, undefined, { width: 480, height: 360 })).map((p) => p.id)
    const preview = await makePreview(ids, b, maya)
    expect(preview.images).toEqual(['mockup-front.jpg', 'mockup-back.jpg'].map((file) => `${s3.endpoint}/${s3.bucket}/previews/${preview.previewId}/${file}`))
    // The print files are the design's, kept under its hash, so the API names and serves them.
    expect(preview.printAreas).toEqual(['front', 'back'].map((position) => ({ position, imageUrl: `/v1/media/previews/${preview.previewId}/${position}.png` })))
    expect(preview.sourceImages.map((s) => s.cropped)).toEqual([0, 1].map((i) => `/v1/media/previews/${preview.previewId}/source-${i}.jpg`))
    const crop = await b.api.fetch(new Request(new URL(preview.sourceImages[0]!.cropped, TEST_ORIGIN)))
    expect(crop.status).toBe(200)
    expect((await sharp(Buffer.from(await crop.arrayBuffer())).metadata()).format).toBe('jpeg')
    expect(await b.storage.get(previewKey(preview.previewId, 'source-0.jpg'))).not.toBeNull()
    // The front print file is not in the bucket until asked for: the API renders it, at the print area's size, and keeps it there.
    const [row] = await b.db.select().from(previews).where(eq(previews.id, preview.previewId))
    expect(await b.storage.get(printFileKey(row!, 'front'))).toBeNull()
    const front = await b.api.fetch(new Request(new URL(preview.printAreas[0]!.imageUrl, TEST_ORIGIN)))
    expect(front.status).toBe(200)
    const png = Buffer.from(await front.arrayBuffer())
    expect(await sharp(png).metadata()).toMatchObject({ format: 'png', width: template.width, height: template.height })
    expect((await b.storage.get(printFileKey(row!, 'front')))!.body.equals(png)).toBe(true)
  })
})
