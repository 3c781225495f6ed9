import { afterAll, beforeAll, expect, it } from 'vitest'
import { demoAccounts } from '../../app/api/demo/accounts'
import { backMockupRenders, warmPreviewRenderer } from '../../app/api/services/previews'
import { printFileRenders } from '../../app/api/services/print-files'
import { backSides, ornamentShapes, photoCells, pseudoTemplates, variantOfShape } from '../../app/catalogue/ornaments'
import { backdropRenders } from '../../app/compositor/mockup.server'
import { underlayRenders } from '../../app/compositor/print.server'
import { addAlbumPhotos } from '../support/photos'
import { createTestApi, type TestApi } from '../support/test-api'

/**
 * Issue 31 item 4 (decision 056): what every preview of an ornament reuses (its underlay, its mockup backdrop, its
 * default back side's files) is made before the process is ready, so the first shoppers after a start wait no
 * longer than later ones: after the warm-up, a preview of each ornament with its default back side makes none of it.
 */
let t: TestApi
let cookie: string
let photoIds: string[]

beforeAll(async () => {
  t = await createTestApi()
  cookie = await t.signIn(0)
  photoIds = (await addAlbumPhotos(t, demoAccounts[0].family.id, 2, undefined, { width: 480, height: 360 })).map((p) => p.id)
})
afterAll(() => t.close())

/** What the renderer has made so far; a preview makes no print file either (it is rendered when the design goes into a cart). */
const made = () => ({ underlays: underlayRenders(), backdrops: backdropRenders(), backMockups: backMockupRenders(), printFiles: printFileRenders() })

it('makes nothing a default preview reuses once the renderer is warm', async () => {
  const cold = made()
  await warmPreviewRenderer()
  const warm = made()
  // One underlay and one backdrop per ornament at least (a back side may have a silhouette of its own), one back side each.
  expect(warm.underlays - cold.underlays).toBe(ornamentShapes.length)
  expect(warm.backdrops - cold.backdrops).toBeGreaterThanOrEqual(ornamentShapes.length)
  expect(warm.backMockups - cold.backMockups).toBe(ornamentShapes.length)
  for (const shape of ornamentShapes) {
    const template = pseudoTemplates[shape]
    const res = await t.request('/v1/printify/generate-preview', {
      method: 'POST',
      cookie,
      json: {
        variantId: variantOfShape(shape).id,
        pseudoTemplateId: template.id,
        backSideId: backSides[shape][0]!.id,
        cells: photoCells(template).map((cell, i) => ({ cellId: cell.id, photoId: photoIds[i]!, transform: { x: 0, y: 0, zoom: 1, rotation: 0 } })),
      },
    })
    expect(res.status, JSON.stringify(res.body)).toBe(201)
  }
  expect(made()).toEqual(warm)
})

it('stops between ornaments when asked to', async () => {
  let asked = 0
  const stop = () => {
    asked++
    throw new Error('stopping')
  }
  await expect(warmPreviewRenderer(stop)).rejects.toThrow('stopping')
  expect(asked).toBe(1)
})
