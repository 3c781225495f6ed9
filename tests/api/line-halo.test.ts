import { randomUUID } from 'node:crypto'
import sharp from 'sharp'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { demoAccounts } from '../../app/api/demo/accounts'
import { previews } from '../../app/api/db/schema'
import { makeRenditions } from '../../app/api/media/images'
import { storePhoto } from '../../app/api/services/photo-library'
import { pseudoTemplates, textCells } from '../../app/catalogue/ornaments'
import { cellClipRect } from '../../app/compositor/layout'
import { createTestApi, TEST_ORIGIN, type TestApi } from '../support/test-api'

/** Issue 32, item 1 (decision 058): a line's halo on the wire and in the print file, and its contrast in the preview's answer. */
let t: TestApi
let cookie: string
let snowy: string
let dark: string

const STAR = 72965
const ava = { line: 'Ava · 2026', typeface: 'lora', colour: 'snow' }

/** A one-colour photo in the family's album, large enough to print on the star. */
async function photoOf(r: number, g: number, b: number) {
  const image = await sharp({ create: { width: 480, height: 360, channels: 3, background: { r, g, b } } })
    .jpeg()
    .toBuffer()
  const row = await storePhoto(
    t.db,
    t.storage,
    { id: randomUUID(), familyId: demoAccounts[0].family.id, ownerUserId: null, source: 'album', favorite: false, recommended: false, capturedAt: new Date() },
    await makeRenditions(image, 'image/jpeg'),
  )
  return row.id
}

beforeAll(async () => {
  t = await createTestApi()
  cookie = await t.signIn(0)
  snowy = await photoOf(246, 248, 250)
  dark = await photoOf(22, 38, 32)
})
afterAll(() => t.close())

const makePreview = (text: unknown) =>
  t.request('/v1/printify/generate-preview', {
    method: 'POST',
    cookie,
    json: {
      variantId: STAR,
      pseudoTemplateId: pseudoTemplates.star.id,
      backSideId: '72965-1',
      cells: [
        { cellId: 'star-left', photoId: snowy, transform: { x: 0, y: 0, zoom: 1, rotation: 0 } },
        { cellId: 'star-right', photoId: dark, transform: { x: 0, y: 0, zoom: 1, rotation: 0 } },
      ],
      text,
    },
  })

/** The preview's front print file as its printAreas URL serves it (rendered on that request, at the print area's size), decoded. */
async function frontOf(preview: { printAreas: { position: string; imageUrl: string }[] }) {
  const front = preview.printAreas.find((area) => area.position === 'front')!
  const res = await t.api.fetch(new Request(new URL(front.imageUrl, TEST_ORIGIN)))
  expect(res.status).toBe(200)
  return sharp(Buffer.from(await res.arrayBuffer()))
    .ensureAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true })
}

describe('a line that always reads', () => {
  it('answers how each line reads on its photo: snow white on snow is poor and Ink reads best; on the dark photo it reads', async () => {
    const made = await makePreview({ left: ava, right: ava })
    expect(made.status, JSON.stringify(made.body)).toBe(201)
    const { left, right } = made.body.lineContrast
    expect(left).toMatchObject({ colour: 'snow', halo: false, poor: true, best: 'ink' })
    expect(left.ratio).toBeLessThan(1.2)
    expect(left.ratios.ink).toBeGreaterThan(10)
    expect(right).toMatchObject({ colour: 'snow', halo: false, poor: false, best: 'snow' })
    expect(right.ratio).toBeGreaterThan(10)
    const plain = await makePreview(null)
    expect(plain.status).toBe(201)
    expect(plain.body.lineContrast).toBeNull()
  })

  it('prints a halo around a line that asks for one, in its band only, keeps it, and says the line now reads', async () => {
    const without = await makePreview({ left: ava, right: ava })
    const made = await makePreview({ left: { ...ava, halo: true }, right: ava })
    expect(made.status, JSON.stringify(made.body)).toBe(201)
    expect(made.body.text).toEqual({ left: { ...ava, halo: true }, right: ava })
    expect(made.body.lineContrast.left).toMatchObject({ halo: true, poor: false, best: 'ink' })
    expect(made.body.lineContrast.left.ratio).toBeGreaterThan(10)
    const [row] = (await t.db.select().from(previews)).filter((p) => p.id === made.body.previewId)
    expect(row!.text).toEqual({ left: { ...ava, halo: true }, right: ava })

    const [{ data: a, info }, { data: b }] = await Promise.all([frontOf(made.body), frontOf(without.body)])
    const template = pseudoTemplates.star
    expect([info.width, info.height]).toEqual([template.width, template.height])
    const [leftBand] = textCells(template).map((c) => cellClipRect(c, 1))
    let inBand = 0
    let outside = 0
    let inkPixels = 0
    for (let i = 0; i < a.length; i += 4) {
      const x = (i / 4) % template.width
      const y = Math.floor(i / 4 / template.width)
      if ([0, 1, 2, 3].every((k) => a[i + k] === b[i + k])) continue
      const within = x >= leftBand!.left && x < leftBand!.left + leftBand!.width && y >= leftBand!.top && y < leftBand!.top + leftBand!.height
      if (within) inBand++
      else outside++
      if (within && a[i] === 0x2b && a[i + 1] === 0x23 && a[i + 2] === 0x20) inkPixels++
    }
    expect(outside).toBe(0)
    expect(inBand).toBeGreaterThan(2000)
    // The halo is Ink around snow white: solid ink pixels where the plain line had none.
    expect(inkPixels).toBeGreaterThan(1000)
  })

  it('takes halo false as no halo', async () => {
    const made = await makePreview({ left: { ...ava, halo: false } })
    expect(made.status).toBe(201)
    expect(made.body.text).toEqual({ left: ava })
  })

  for (const bad of ['yes', 1, null, {}]) {
    it(`refuses a halo of ${JSON.stringify(bad)} with 400 saying what it must be, and makes nothing`, async () => {
      const before = (await t.db.select().from(previews)).length
      const res = await makePreview({ left: { ...ava, halo: bad } })
      expect(res.status).toBe(400)
      expect(res.body.error.code).toBe('validation_failed')
      expect(JSON.stringify(res.body)).toContain('halo must be true or false')
      expect((await t.db.select().from(previews)).length).toBe(before)
    })
  }

  it('a saved design keeps each line’s halo and refuses a bad one, keeping the design as it was', async () => {
    const put = (text: unknown) =>
      t.request(`/v1/photo-products-designs/variants/${STAR}`, {
        method: 'PUT',
        cookie,
        json: { photos: { 'star-left': snowy, 'star-right': dark }, transforms: {}, backSideId: '72965-3', text },
      })
    const saved = await put({ left: { ...ava, halo: true }, right: { ...ava, halo: false } })
    expect(saved.status, JSON.stringify(saved.body)).toBe(200)
    expect(saved.body.text).toEqual({ left: { ...ava, halo: true }, right: ava })
    const refused = await put({ left: { ...ava, halo: 'on' } })
    expect(refused.status).toBe(400)
    expect(JSON.stringify(refused.body)).toContain('halo must be true or false')
    const list = await t.request('/v1/photo-products-designs', { cookie })
    expect(list.body.designs[0].text).toEqual({ left: { ...ava, halo: true }, right: ava })
  })
})
