import { randomUUID } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { demoAccounts } from '../../app/api/demo/accounts'
import { designDrafts } from '../../app/api/db/schema'
import { addAlbumPhotos, type SeededPhoto } from '../support/photos'
import { createTestApi, type TestApi } from '../support/test-api'

let t: TestApi
let cookie: string
let otherCookie: string
let mine: SeededPhoto[]
let theirs: { id: string }[]

const STAR = 72965
const TREE = 72963
const base = '/v1/photo-products-designs'
const put = (variantId: number | string, json: unknown, as = cookie) => t.request(`${base}/variants/${variantId}`, { method: 'PUT', json, cookie: as })
const list = (as = cookie) => t.request(base, { cookie: as })

function starBody(photoIds: string[], overrides: Record<string, unknown> = {}) {
  const cells = ['star-left', 'star-right']
  return {
    photos: Object.fromEntries(photoIds.map((id, i) => [cells[i], id])),
    transforms: Object.fromEntries(photoIds.map((_, i) => [cells[i], { x: 10 * i, y: -5, zoom: 1.5, rotation: 3 }])),
    backSideId: '72965-3',
    ...overrides,
  }
}

/** Every stored row, to prove a refusal wrote nothing. */
const allRows = () => t.db.select().from(designDrafts)

beforeAll(async () => {
  t = await createTestApi()
  cookie = await t.signIn(0)
  otherCookie = await t.signIn(1)
  mine = await addAlbumPhotos(t, demoAccounts[0].family.id, 3)
  theirs = await addAlbumPhotos(t, demoAccounts[1].family.id, 1)
})
afterAll(() => t.close())

describe('saved designs', () => {
  it('asks a signed-out client to sign in for every call', async () => {
    const id = randomUUID()
    for (const res of [
      await t.request(base),
      await t.request(`${base}/${id}`),
      await t.request(`${base}/variants/${STAR}`, { method: 'PUT', json: starBody([mine[0]!.id]) }),
      await t.request(`${base}/${id}`, { method: 'DELETE' }),
    ]) {
      expect(res.status).toBe(401)
      expect(res.body.error.code).toBe('unauthenticated')
    }
    expect(await allRows()).toEqual([])
  })

  it('starts with no designs', async () => {
    const res = await list()
    expect(res.status).toBe(200)
    expect(res.body).toEqual({ designs: [] })
  })

  it('saves a design and answers its photos from the server’s records', async () => {
    const res = await put(STAR, starBody([mine[0]!.id, mine[1]!.id]))
    expect(res.status).toBe(200)
    expect(res.body).toMatchObject({
      variantId: STAR,
      shapeName: 'Star',
      backSideId: '72965-3',
      transforms: { 'star-left': { x: 0, y: -5, zoom: 1.5, rotation: 3 }, 'star-right': { x: 10, y: -5, zoom: 1.5, rotation: 3 } },
      updatedAt: t.now().toISOString(),
    })
    expect(res.body.photos['star-left']).toEqual({
      id: mine[0]!.id,
      url: `/v1/media/photos/${mine[0]!.id}/smartphone.jpg`,
      thumbnailUrl: `/v1/media/photos/${mine[0]!.id}/small.jpg`,
      width: mine[0]!.width,
      height: mine[0]!.height,
      focalPoint: mine[0]!.focalPoint,
    })
    expect(mine[0]!.focalPoint).not.toBeNull()
    const again = await t.request(`${base}/${res.body.id}`, { cookie })
    expect(again.status).toBe(200)
    expect(again.body).toEqual(res.body)
    expect((await list()).body.designs).toEqual([res.body])
  })

  it('keeps one design per variant: saving again replaces it under the same id', async () => {
    const before = (await list()).body.designs[0]
    t.setNow(new Date('2026-11-22T12:05:00Z'))
    const res = await put(STAR, starBody([mine[2]!.id], { backSideId: null }))
    expect(res.status).toBe(200)
    expect(res.body.id).toBe(before.id)
    expect(Object.keys(res.body.photos)).toEqual(['star-left'])
    expect(res.body.photos['star-left'].id).toBe(mine[2]!.id)
    expect(res.body.backSideId).toBeNull()
    expect(res.body.createdAt).toBe(before.createdAt)
    expect(res.body.updatedAt).toBe('2026-11-22T12:05:00.000Z')
    expect(await allRows()).toHaveLength(1)
  })

  it('lists the designs of each variant, last edited first', async () => {
    t.setNow(new Date('2026-11-22T12:10:00Z'))
    const tree = await put(TREE, { photos: { 'tree-left': mine[0]!.id }, transforms: {}, backSideId: '72963-14' })
    expect(tree.status).toBe(200)
    expect((await list()).body.designs.map((d: { variantId: number }) => d.variantId)).toEqual([TREE, STAR])
  })

  it('keeps the device’s edit time, never one later than the server’s clock', async () => {
    const older = await put(TREE, { photos: {}, transforms: {}, backSideId: null, editedAt: '2026-11-20T08:00:00+01:00' })
    expect(older.body.updatedAt).toBe('2026-11-20T07:00:00.000Z')
    const future = await put(TREE, { photos: {}, transforms: {}, backSideId: null, editedAt: '2027-01-01T00:00:00Z' })
    expect(future.body.updatedAt).toBe(t.now().toISOString())
  })

  it('refuses a photo the shopper cannot see as not found, and changes nothing', async () => {
    const before = await allRows()
    for (const photoId of [theirs[0]!.id, randomUUID()]) {
      const res = await put(STAR, starBody([mine[0]!.id, photoId]))
      expect(res.status).toBe(404)
      expect(res.body.error).toMatchObject({ code: 'not_found', message: `Photo ${photoId} not found` })
    }
    // A new variant's design is not made either.
    expect((await put(72960, { photos: { 'stocking-left': theirs[0]!.id }, transforms: {}, backSideId: null })).status).toBe(404)
    expect(await allRows()).toEqual(before)
  })

  it('another shopper cannot read, replace or delete a design: not found, and it is unchanged', async () => {
    const before = await allRows()
    const star = before.find((r) => r.variantId === STAR)!
    expect((await t.request(`${base}/${star.id}`, { cookie: otherCookie })).status).toBe(404)
    const deleted = await t.request(`${base}/${star.id}`, { method: 'DELETE', cookie: otherCookie })
    expect(deleted.status).toBe(404)
    expect(deleted.body.error.code).toBe('not_found')
    expect((await list(otherCookie)).body).toEqual({ designs: [] })
    // Their own save of the same variant is theirs alone, and still cannot name my photos.
    expect((await put(STAR, starBody([mine[0]!.id]), otherCookie)).status).toBe(404)
    const theirsSaved = await put(STAR, starBody([theirs[0]!.id]), otherCookie)
    expect(theirsSaved.status).toBe(200)
    expect(theirsSaved.body.id).not.toBe(star.id)
    const after = await allRows()
    expect(after.filter((r) => r.userId === star.userId)).toEqual(before)
  })

  it('answers not found for an unknown design or variant, and a bad id is a validation error', async () => {
    const unknown = randomUUID()
    expect((await t.request(`${base}/${unknown}`, { cookie })).status).toBe(404)
    expect((await t.request(`${base}/${unknown}`, { method: 'DELETE', cookie })).status).toBe(404)
    expect((await put(12345, starBody([mine[0]!.id]))).status).toBe(404)
    const badId = await t.request(`${base}/not-a-uuid`, { cookie })
    expect(badId.status).toBe(400)
    expect((await put('star', starBody([mine[0]!.id]))).status).toBe(400)
  })

  it.each([
    ['a zoom past the maximum', starBody([]), { transforms: { 'star-left': { x: 0, y: 0, zoom: 9, rotation: 0 } } }, 'body.transforms.star-left.zoom'],
    [
      'a rotation past a full turn',
      starBody([]),
      { transforms: { 'star-left': { x: 0, y: 0, zoom: 1, rotation: 400 } } },
      'body.transforms.star-left.rotation',
    ],
    ['a photo id that is not a UUID', starBody([]), { photos: { 'star-left': 'photo-1' } }, 'body.photos.star-left'],
    ['more than eight cells', starBody([]), { photos: Object.fromEntries(Array.from({ length: 9 }, (_, i) => [`c${i}`, randomUUID()])) }, 'body.photos'],
    ['a cell id longer than 64 characters', starBody([]), { photos: { ['x'.repeat(65)]: randomUUID() } }, 'body.photos'],
    ['a missing back side', { photos: {}, transforms: {} }, {}, 'body.backSideId'],
  ])('refuses %s before looking at anything, and changes nothing', async (_name, body, overrides, path) => {
    const before = await allRows()
    const res = await put(STAR, { ...body, ...overrides })
    expect(res.status).toBe(400)
    expect(res.body.error.code).toBe('validation_failed')
    expect(res.body.error.issues.some((i: { path: string }) => i.path.startsWith(path))).toBe(true)
    expect(await allRows()).toEqual(before)
  })

  it('refuses a cell or back side of another shape, and changes nothing', async () => {
    const before = await allRows()
    const cell = await put(STAR, { photos: { 'tree-left': mine[0]!.id }, transforms: {}, backSideId: null })
    expect(cell.status).toBe(400)
    expect(cell.body.error.message).toContain('Cell tree-left is not a photo cell')
    const back = await put(STAR, starBody([mine[0]!.id], { backSideId: '72963-3' }))
    expect(back.status).toBe(400)
    expect(back.body.error.message).toContain('Back side 72963-3')
    expect(await allRows()).toEqual(before)
  })

  it('deletes a design and answers the ones left', async () => {
    const [tree, star] = (await list()).body.designs
    const res = await t.request(`${base}/${tree.id}`, { method: 'DELETE', cookie })
    expect(res.status).toBe(200)
    expect(res.body.designs).toEqual([star])
    expect((await t.request(`${base}/${tree.id}`, { cookie })).status).toBe(404)
    expect((await t.request(`${base}/${tree.id}`, { method: 'DELETE', cookie })).status).toBe(404)
  })

  it('is published in the OpenAPI document', async () => {
    const doc = (await t.request('/v1/openapi.json')).body
    expect(Object.keys(doc.paths['/photo-products-designs/{id}'])).toEqual(expect.arrayContaining(['get', 'delete']))
    expect(doc.paths['/photo-products-designs/variants/{variantId}'].put).toBeDefined()
  })
})
