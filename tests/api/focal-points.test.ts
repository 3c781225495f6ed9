/**
 * Focal points (issue 32, item 2; decision 059): found once when a photo is stored, kept on its row and
 * answered with it; photos stored before (null) still work everywhere.
 */
import { randomUUID } from 'node:crypto'
import { eq, sql } from 'drizzle-orm'
import sharp from 'sharp'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { demoAccounts } from '../../app/api/demo/accounts'
import { photos } from '../../app/api/db/schema'
import { makeRenditions } from '../../app/api/media/images'
import { storePhoto } from '../../app/api/services/photo-library'
import { createTestApi, TEST_ORIGIN, type TestApi } from '../support/test-api'

let t: TestApi
let maya: string
const familyId = demoAccounts[0].family.id

beforeAll(async () => {
  t = await createTestApi()
  maya = await t.signIn(0)
})
afterAll(() => t.close())

/**
 * A photo of a muted, softly textured scene with one subject: a face-toned disc with eyes and a mouth,
 * its centre at (fx, fy) as fractions of the image. `orientation` is written as EXIF, the pixels left as drawn.
 */
async function photoWithSubject(width: number, height: number, fx: number, fy: number, orientation?: number) {
  const r = Math.round(Math.min(width, height) * 0.12)
  const cx = Math.round(fx * width)
  const cy = Math.round(fy * height)
  const hills = Array.from(
    { length: 6 },
    (_, i) => `<ellipse cx="${(i + 0.5) * (width / 6)}" cy="${height}" rx="${width / 5}" ry="${height / 4}" fill="#5d6b63"/>`,
  )
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">
    <rect width="100%" height="100%" fill="#7a8793"/>${hills.join('')}
    <circle cx="${cx}" cy="${cy}" r="${r}" fill="#e2a582"/>
    <circle cx="${cx - r / 3}" cy="${cy - r / 4}" r="${r / 8}" fill="#2b1d14"/>
    <circle cx="${cx + r / 3}" cy="${cy - r / 4}" r="${r / 8}" fill="#2b1d14"/>
    <rect x="${cx - r / 3}" y="${cy + r / 3}" width="${(2 * r) / 3}" height="${r / 8}" fill="#a8423a"/>
  </svg>`
  const image = sharp(Buffer.from(svg)).jpeg({ quality: 90 })
  return (orientation ? image.withMetadata({ orientation }) : image).toBuffer()
}

async function upload(bytes: Buffer) {
  const link = await t.request('/v1/media/growth-product-photo', { method: 'POST', cookie: maya, json: { fileName: 'subject.jpg', fileType: 'image/jpeg' } })
  expect(link.status).toBe(200)
  const url = new URL(link.body.signedRequest, TEST_ORIGIN)
  const res = await t.request(`${url.pathname}${url.search}`, { method: 'PUT', body: bytes as BodyInit, headers: { 'content-type': 'image/jpeg' } })
  expect(res.status).toBe(200)
  const mine = await t.request('/v1/media/uploads', { cookie: maya })
  const photo = mine.body.photos.find((p: { url: string }) => p.url === link.body.url)
  expect(photo).toBeDefined()
  return photo as { id: string; width: number; height: number; focalPoint: { x: number; y: number } | null }
}

const near = (actual: { x: number; y: number } | null, x: number, y: number, within = 0.1) => {
  expect(actual).not.toBeNull()
  expect(Math.abs(actual!.x - x), `x ${actual!.x} should be near ${x}`).toBeLessThanOrEqual(within)
  expect(Math.abs(actual!.y - y), `y ${actual!.y} should be near ${y}`).toBeLessThanOrEqual(within)
}

async function storeAlbumPhoto(bytes: Buffer) {
  return storePhoto(
    t.db,
    t.storage,
    { id: randomUUID(), familyId, ownerUserId: null, source: 'album', capturedAt: new Date('2025-07-01T12:00:00Z') },
    await makeRenditions(bytes, 'image/jpeg'),
  )
}

describe('an uploaded photo', () => {
  it.each([
    ['top right', 0.8, 0.25],
    ['bottom left', 0.2, 0.72],
  ])('with its subject %s gets a focal point near it, answered in the uploads list', async (_, fx, fy) => {
    const photo = await upload(await photoWithSubject(1200, 800, fx, fy))
    near(photo.focalPoint, fx, fy)
    const [row] = await t.db.select().from(photos).where(eq(photos.id, photo.id))
    expect(row!.focalX).toBeCloseTo(photo.focalPoint!.x, 4)
    expect(row!.focalY).toBeCloseTo(photo.focalPoint!.y, 4)
  })

  it('has its focal point in the upright photo when EXIF turns it', async () => {
    // Stored sideways (1200×800) with orientation 6: shown turned a quarter clockwise, 800×1200.
    const photo = await upload(await photoWithSubject(1200, 800, 0.8, 0.25, 6))
    expect(photo).toMatchObject({ width: 800, height: 1200 })
    // A quarter turn clockwise takes (x, y) to (1 − y, x).
    near(photo.focalPoint, 0.75, 0.8)
  })
})

describe('an album photo', () => {
  it('is answered with its focal point by the album list', async () => {
    const row = await storeAlbumPhoto(await photoWithSubject(900, 1200, 0.3, 0.2))
    near({ x: row.focalX!, y: row.focalY! }, 0.3, 0.2)
    const res = await t.request(`/v1/keepsake-photos/${familyId}`, { cookie: maya })
    expect(res.status).toBe(200)
    const answered = res.body.photos.find((p: { id: string }) => p.id === row.id)
    expect(answered.focalPoint).toEqual({ x: row.focalX, y: row.focalY })
  })

  it('stored before focal points (null) is answered with focalPoint null and still saves in a design', async () => {
    const row = await storeAlbumPhoto(await photoWithSubject(900, 1200, 0.7, 0.7))
    await t.db.update(photos).set({ focalX: null, focalY: null }).where(eq(photos.id, row.id))
    const album = await t.request(`/v1/keepsake-photos/${familyId}`, { cookie: maya })
    expect(album.body.photos.find((p: { id: string }) => p.id === row.id)).toMatchObject({ id: row.id, width: 900, height: 1200, focalPoint: null })
    const saved = await t.request('/v1/photo-products-designs/variants/72965', {
      method: 'PUT',
      cookie: maya,
      json: { photos: { 'star-left': row.id }, transforms: {}, backSideId: null },
    })
    expect(saved.status).toBe(200)
    expect(saved.body.photos['star-left']).toMatchObject({ id: row.id, focalPoint: null })
  })

  it('answers a saved design’s photo with its focal point', async () => {
    const row = await storeAlbumPhoto(await photoWithSubject(1200, 900, 0.75, 0.3))
    const saved = await t.request('/v1/photo-products-designs/variants/72963', {
      method: 'PUT',
      cookie: maya,
      json: { photos: { 'tree-left': row.id }, transforms: {}, backSideId: null },
    })
    expect(saved.status).toBe(200)
    expect(saved.body.photos['tree-left'].focalPoint).toEqual({ x: row.focalX, y: row.focalY })
  })
})

describe('the stored focal point', () => {
  it('is refused by the database when half of it or out of range, and the row is unchanged', async () => {
    const row = await storeAlbumPhoto(await photoWithSubject(600, 600, 0.5, 0.5))
    for (const set of [
      { focalX: 0.5, focalY: null },
      { focalX: null, focalY: 0.5 },
      { focalX: 1.2, focalY: 0.5 },
      { focalX: 0.5, focalY: -0.1 },
    ]) {
      await expect(t.db.update(photos).set(set).where(eq(photos.id, row.id))).rejects.toThrow()
    }
    const [after] = await t.db.select({ focalX: photos.focalX, focalY: photos.focalY }).from(photos).where(eq(photos.id, row.id))
    expect(after).toEqual({ focalX: row.focalX, focalY: row.focalY })
    const halves = await t.db
      .select({ id: photos.id })
      .from(photos)
      .where(sql`(${photos.focalX} is null) <> (${photos.focalY} is null)`)
    expect(halves).toEqual([])
  })
})
