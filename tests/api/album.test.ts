import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ALBUM_PAGE_SIZE, CURATED_PHOTOS_MAX } from '../../app/contract/photos'
import { demoAccounts } from '../../app/api/demo/accounts'
import { addAlbumPhotos, type SeededPhoto } from '../support/photos'
import { createTestApi, type TestApi } from '../support/test-api'

let t: TestApi
let maya: string
let sam: string
let rivera: SeededPhoto[]
const riveraId = demoAccounts[0].family.id
const okaforId = demoAccounts[1].family.id

beforeAll(async () => {
  t = await createTestApi()
  rivera = await addAlbumPhotos(t, riveraId, 75)
  await addAlbumPhotos(t, okaforId, 5)
  maya = await t.signIn(0)
  sam = await t.signIn(1)
})
afterAll(() => t.close())

const newestFirst = (photos: SeededPhoto[]) =>
  [...photos].sort((a, b) => b.capturedAt.getTime() - a.capturedAt.getTime() || (a.id < b.id ? 1 : -1)).map((p) => p.id)

async function walk(familyId: string, filter: string, cookie: string, between?: (page: number) => Promise<void>) {
  const seen: string[] = []
  let cursor: string | null = null
  let pages = 0
  do {
    const query = new URLSearchParams({ filter, ...(cursor ? { cursor } : {}) })
    const res = await t.request(`/v1/keepsake-photos/${familyId}?${query}`, { cookie })
    expect(res.status).toBe(200)
    expect(res.body.photos.length).toBeLessThanOrEqual(ALBUM_PAGE_SIZE)
    seen.push(...res.body.photos.map((p: { id: string }) => p.id))
    cursor = res.body.nextCursor
    pages++
    await between?.(pages)
  } while (cursor)
  return { seen, pages }
}

describe('album calls require a session', () => {
  it.each([
    '/v1/keepsake-photos',
    `/v1/keepsake-photos/${riveraId}`,
    '/v1/growth/keepsake-curated-photos',
    '/v1/keepsake-curated-photo-products-photos',
    '/v1/keepsake-photos/proxy?url=x',
    '/v1/media/uploads',
  ])('answers 401 to %s without one', async (path) => {
    const res = await t.request(path)
    expect(res.status).toBe(401)
    expect(res.body.error.code).toBe('unauthenticated')
  })
})

describe('GET /v1/{product}-photos', () => {
  it("summarises the caller's families only, with counts, a cover and the date range", async () => {
    const res = await t.request('/v1/keepsake-photos', { cookie: maya })
    expect(res.status).toBe(200)
    expect(res.body.families).toHaveLength(1)
    const [family] = res.body.families
    expect(family).toMatchObject({
      familyId: riveraId,
      name: 'The Rivera Family',
      photoCount: 75,
      favoriteCount: rivera.filter((p) => p.favorite).length,
      recommendedCount: rivera.filter((p) => p.recommended).length,
    })
    expect(family.coverPhoto.favorite).toBe(true)
    // 75 photos, two an hour, back from 1 June 12:00 UTC.
    expect(family.dateRange).toEqual({ from: '2025-05-30', to: '2025-06-01' })
  })

  it("gives dates in the caller's timezone", async () => {
    const res = await t.request('/v1/keepsake-photos', { cookie: maya, headers: { 'x-keepsake-timezone': 'Pacific/Kiritimati' } })
    // 12:00 UTC on 1 June is already 2 June at UTC+14.
    expect(res.body.families[0].dateRange.to).toBe('2025-06-02')
    expect(res.body.families[0].coverPhoto.capturedOn).toMatch(/^\d{4}-\d{2}-\d{2}$/)
  })

  it('accepts an empty version header and refuses an overlong one with 400', async () => {
    const empty = await t.request('/v1/keepsake-photos', { cookie: maya, headers: { 'x-keepsake-version': '' } })
    expect(empty.status).toBe(200)
    const long = await t.request('/v1/keepsake-photos', { cookie: maya, headers: { 'x-keepsake-version': 'v'.repeat(65) } })
    expect(long.status).toBe(400)
    expect(long.body.error.message).toMatch(/x-keepsake-version/)
  })

  it('answers a user with no family with an empty list', async () => {
    const { users } = await import('../../app/api/db/schema')
    await t.db.insert(users).values({ id: '0b6e7d0e-4c1b-4f43-9a0e-5d1f6f0a00ff', email: 'lonely@demo.keepsake.example', firstName: 'Lo' })
    const { createSession } = await import('../../app/api/services/accounts')
    const { token } = await createSession(t.db, '0b6e7d0e-4c1b-4f43-9a0e-5d1f6f0a00ff', t.now())
    const res = await t.request('/v1/keepsake-photos', { cookie: `keepsake_session=${token}` })
    expect(res.status).toBe(200)
    expect(res.body).toEqual({ families: [] })
  })
})

describe('GET /v1/{product}-photos/{familyId}', () => {
  it('walks every photo exactly once, newest first, in bounded pages ending with a null cursor', async () => {
    const { seen, pages } = await walk(riveraId, 'all', maya)
    expect(seen).toEqual(newestFirst(rivera))
    expect(new Set(seen).size).toBe(75)
    expect(pages).toBe(Math.ceil(75 / ALBUM_PAGE_SIZE))
  })

  it('still sees every original photo exactly once while new ones arrive between pages', async () => {
    const extra: SeededPhoto[] = []
    const { seen } = await walk(riveraId, 'all', maya, async (page) => {
      // New photos land both before and inside the part of the album still to come.
      extra.push(...(await addAlbumPhotos(t, riveraId, 2, new Date('2026-01-01T00:00:00Z'))))
      extra.push(...(await addAlbumPhotos(t, riveraId, 1, new Date(`2025-05-3${page % 2}T18:30:00Z`))))
    })
    const originals = seen.filter((id) => rivera.some((p) => p.id === id))
    expect(originals).toEqual(newestFirst(rivera))
    expect(new Set(seen).size).toBe(seen.length)
    const { deletePhotos } = await cleanup()
    await deletePhotos(extra.map((p) => p.id))
  })

  it('pages exactly through photos written with sub-millisecond capture times', async () => {
    const { sql } = await import('drizzle-orm')
    for (let i = 0; i < 40; i++) {
      await t.db.execute(
        sql`insert into photos (family_id, source, width, height, etags, captured_at) values (${okaforId}, 'album', 4, 3, '{}'::jsonb, ${`2025-01-01 00:00:00.123${String(i).padStart(3, '0')}+00`}::timestamptz)`,
      )
    }
    const { seen } = await walk(okaforId, 'all', sam)
    expect(seen).toHaveLength(45)
    expect(new Set(seen).size).toBe(45)
  })

  it.each([
    ['favorite', (p: SeededPhoto) => p.favorite],
    ['recommended', (p: SeededPhoto) => p.recommended],
  ])('filters %s photos correctly across pages', async (filter, keep) => {
    const { seen } = await walk(riveraId, filter, maya)
    expect(seen).toEqual(newestFirst(rivera.filter(keep)))
  })

  it("answers 404 for another family's album and for an unknown family", async () => {
    for (const familyId of [okaforId, '00000000-0000-4000-8000-000000000000']) {
      const res = await t.request(`/v1/keepsake-photos/${familyId}`, { cookie: maya })
      expect(res.status).toBe(404)
      expect(res.body.error.message).toBe('Family not found')
    }
  })

  it('refuses a bad filter with 400', async () => {
    const res = await t.request(`/v1/keepsake-photos/${riveraId}?filter=everything`, { cookie: maya })
    expect(res.status).toBe(400)
    expect(res.body.error.issues[0].path).toBe('query.filter')
  })

  it('refuses a family id that is not a UUID with 400', async () => {
    const res = await t.request('/v1/keepsake-photos/not-a-family', { cookie: maya })
    expect(res.status).toBe(400)
  })

  it('refuses forged, tampered and cross-filter cursors with 400', async () => {
    const first = await t.request(`/v1/keepsake-photos/${riveraId}`, { cookie: maya })
    const cursor: string = first.body.nextCursor
    const [payload, signature] = cursor.split('.')
    const forgedPayload = Buffer.from(JSON.stringify([riveraId, 'all', Date.now(), rivera[0]!.id])).toString('base64url')
    for (const bad of ['garbage', `${forgedPayload}.${signature}`, `${payload}.${signature!.slice(0, -2)}xx`, `${payload}`, `${payload}.${signature}.extra`]) {
      const res = await t.request(`/v1/keepsake-photos/${riveraId}?cursor=${encodeURIComponent(bad)}`, { cookie: maya })
      expect(res.status, bad).toBe(400)
      expect(res.body.error.message).toMatch(/cursor is not valid/)
    }
    const otherFilter = await t.request(`/v1/keepsake-photos/${riveraId}?filter=favorite&cursor=${encodeURIComponent(cursor)}`, { cookie: maya })
    expect(otherFilter.status).toBe(400)
  })

  it('gives each photo size-word URLs that the media route serves', async () => {
    const res = await t.request(`/v1/keepsake-photos/${riveraId}`, { cookie: maya })
    const photo = res.body.photos[0]
    expect(photo.urls.small).toBe(`/v1/media/photos/${photo.id}/small.jpg`)
    expect(photo.url).toBe(photo.urls.smartphone)
    expect(photo.url.replace('/smartphone.', '/small.')).toBe(photo.urls.small)
  })
})

describe('curated photos', () => {
  it('puts favourites and recommended first and never answers more than asked', async () => {
    const res = await t.request('/v1/growth/keepsake-curated-photos?numOfPhotos=10', { cookie: maya })
    expect(res.status).toBe(200)
    expect(res.body.photos).toHaveLength(10)
    expect(res.body.photos.every((p: { favorite: boolean }) => p.favorite)).toBe(true)
    expect(res.body.photos.every((p: { familyId: string }) => p.familyId === riveraId)).toBe(true)
  })

  it('answers landscape photos only when asked', async () => {
    const res = await t.request(`/v1/growth/keepsake-curated-photos?landscapeOnly=true&numOfPhotos=${CURATED_PHOTOS_MAX}`, { cookie: maya })
    expect(res.body.photos.length).toBeGreaterThan(0)
    expect(res.body.photos.every((p: { width: number; height: number }) => p.width > p.height)).toBe(true)
  })

  it.each(['0', '51', '2.5', 'many', '-1'])('refuses numOfPhotos=%s with 400', async (n) => {
    const res = await t.request(`/v1/growth/keepsake-curated-photos?numOfPhotos=${n}`, { cookie: maya })
    expect(res.status).toBe(400)
  })

  it('refuses landscapeOnly other than true or false', async () => {
    const res = await t.request('/v1/growth/keepsake-curated-photos?landscapeOnly=yes', { cookie: maya })
    expect(res.status).toBe(400)
  })

  it('curates product photos for one family, portrait first, and 404s for a family not yours', async () => {
    const mine = await t.request(`/v1/keepsake-curated-photo-products-photos?familyId=${riveraId}`, { cookie: maya })
    expect(mine.status).toBe(200)
    expect(mine.body.photos.length).toBeGreaterThan(0)
    expect(mine.body.photos[0].height).toBeGreaterThan(mine.body.photos[0].width)
    const all = await t.request('/v1/keepsake-curated-photo-products-photos', { cookie: sam })
    expect(all.body.photos.every((p: { familyId: string }) => p.familyId === okaforId)).toBe(true)
    const theirs = await t.request(`/v1/keepsake-curated-photo-products-photos?familyId=${okaforId}`, { cookie: maya })
    expect(theirs.status).toBe(404)
  })
})

describe('the media route', () => {
  it('serves a rendition with immutable caching and answers 304 to its ETag', async () => {
    const photo = rivera[0]!
    const res = await t.api.fetch(new Request(`http://localhost:3000/v1/media/photos/${photo.id}/small.jpg`))
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toBe('image/jpeg')
    expect(res.headers.get('cache-control')).toBe('public, max-age=31536000, immutable')
    const etag = res.headers.get('etag')!
    expect(etag).toMatch(/^".+"$/)
    const again = await t.api.fetch(new Request(`http://localhost:3000/v1/media/photos/${photo.id}/small.jpg`, { headers: { 'if-none-match': etag } }))
    expect(again.status).toBe(304)
  })

  it.each(['original.jpg', 'small.png', 'small', '..%2F..%2Fetc%2Fpasswd', 'large.jpg'])('answers 404 for /%s', async (file) => {
    const res = await t.request(`/v1/media/photos/${rivera[0]!.id}/${file}`)
    expect(res.status).toBe(404)
  })

  it('answers 404 for an unknown photo', async () => {
    const res = await t.request('/v1/media/photos/00000000-0000-4000-8000-000000000000/small.jpg')
    expect(res.status).toBe(404)
  })
})

async function cleanup() {
  const { photos } = await import('../../app/api/db/schema')
  const { inArray } = await import('drizzle-orm')
  return { deletePhotos: (ids: string[]) => t.db.delete(photos).where(inArray(photos.id, ids)) }
}
