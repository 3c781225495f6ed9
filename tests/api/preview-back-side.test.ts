import { afterAll, beforeAll, expect, it } from 'vitest'
import { demoAccounts } from '../../app/api/demo/accounts'
import { backMockupRenders } from '../../app/api/services/previews'
import { pseudoTemplates } from '../../app/catalogue/ornaments'
import { addAlbumPhotos } from '../support/photos'
import { TEST_ORIGIN, createTestApi, type TestApi } from '../support/test-api'

/**
 * Issue 31 item 4 (decision 048): a back side's mockup is the same for every design, so the store makes
 * it once per back side, not on every preview; what a shopper gets is the same file either way.
 */
let t: TestApi
let cookie: string
let photoIds: string[]

beforeAll(async () => {
  t = await createTestApi()
  cookie = await t.signIn(0)
  photoIds = (await addAlbumPhotos(t, demoAccounts[0].family.id, 4, undefined, { width: 480, height: 360 })).map((p) => p.id)
})
afterAll(() => t.close())

async function preview(backSideId: string, ids: string[]) {
  const res = await t.request('/v1/printify/generate-preview', {
    method: 'POST',
    cookie,
    json: {
      variantId: 72965,
      pseudoTemplateId: pseudoTemplates.star.id,
      backSideId,
      cells: ids.map((photoId, i) => ({ cellId: i === 0 ? 'star-left' : 'star-right', photoId, transform: { x: 0, y: 0, zoom: 1, rotation: 0 } })),
    },
  })
  expect(res.status, JSON.stringify(res.body)).toBe(201)
  const back = await t.api.fetch(new Request(new URL(res.body.images[1], TEST_ORIGIN)))
  expect(back.status).toBe(200)
  expect(back.headers.get('content-type')).toBe('image/jpeg')
  return Buffer.from(await back.arrayBuffer())
}

it('renders a back side’s mockup once for every design with that back side, and serves the same file', async () => {
  const before = backMockupRenders()
  const first = await preview('72965-3', [photoIds[0]!, photoIds[1]!])
  expect(backMockupRenders()).toBe(before + 1)
  // Another design (other photos) with the same back: no new render, the same bytes.
  const second = await preview('72965-3', [photoIds[2]!, photoIds[3]!])
  expect(backMockupRenders()).toBe(before + 1)
  expect(second.equals(first)).toBe(true)
  // Another back side is its own mockup.
  const other = await preview('72965-1', [photoIds[0]!, photoIds[1]!])
  expect(backMockupRenders()).toBe(before + 2)
  expect(other.equals(first)).toBe(false)
})
