import { randomUUID } from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import sharp from 'sharp'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { makeRenditions } from '../../app/api/media/images'
import { PrintifyClient, PrintifyProvider } from '../../app/api/providers/print/printify'
import { PrintProviderError, type PrintProvider } from '../../app/api/providers/print/provider'
import { demoAccounts } from '../../app/api/demo/accounts'
import { storePhoto } from '../../app/api/services/photo-library'
import { PREVIEWS_PER_HOUR } from '../../app/api/services/previews'
import { previews } from '../../app/api/db/schema'
import { backSides, pseudoTemplates, sharedBackSideNames } from '../../app/catalogue/ornaments'
import { printQuality } from '../../app/compositor/print-quality'
import { addAlbumPhotos } from '../support/photos'
import { createPrintifyMock, MOCK_PRINTIFY_SHOP_ID, MOCK_PRINTIFY_TOKEN } from '../support/printify-mock'
import { TEST_ORIGIN, createTestApi, type TestApi } from '../support/test-api'

let t: TestApi
let cookie: string
let otherCookie: string
let mine: { id: string }[]
let theirs: { id: string }[]

beforeAll(async () => {
  t = await createTestApi()
  cookie = await t.signIn(0)
  otherCookie = await t.signIn(1)
  mine = await addAlbumPhotos(t, demoAccounts[0].family.id, 3, undefined, PRINTABLE)
  theirs = await addAlbumPhotos(t, demoAccounts[1].family.id, 1, undefined, PRINTABLE)
})
afterAll(() => t.close())

const star = pseudoTemplates.star
/** Large enough to print in a cell (the tiny default test photos are refused as too small). */
const PRINTABLE = { width: 480, height: 360 }

function starDesign(photoIds: string[], overrides: Record<string, unknown> = {}) {
  return {
    variantId: 72965,
    pseudoTemplateId: star.id,
    backSideId: '72965-3',
    cells: photoIds.map((photoId, i) => ({ cellId: i === 0 ? 'star-left' : 'star-right', photoId, transform: { x: 0, y: 0, zoom: 1, rotation: 0 } })),
    ...overrides,
  }
}

describe('catalogue, templates and back sides', () => {
  it('GET /v1/photo-products/{id} has the three variants with catalogue prices', async () => {
    const res = await t.request('/v1/photo-products/photo-ornament')
    expect(res.status).toBe(200)
    expect(res.body.variants.map((v: { id: number }) => v.id)).toEqual([72963, 72965, 72960])
    expect(res.body).toMatchObject({ providerProductId: 1186, printProviderId: 228, numberOfUserImages: 2 })
    expect(res.body.variants[0]).toMatchObject({ title: 'Tree Photo Ornament', price: 29.99, salePrice: 24.99 })
    expect((await t.request('/v1/photo-products/mug')).status).toBe(404)
  })

  it.each([
    [72963, 'tree', 1844, 1149, 1700],
    [72965, 'star', 1519, 1097, 1214],
    [72960, 'stocking', 2026, 1158, 1874],
  ])('variant %i: the %s template is 2670×%i with %i×%i photo cells and 14 back sides', async (variantId, shape, height, cw, ch) => {
    const res = await t.request(`/v1/design-templates?productVariantId=${variantId}`)
    expect(res.status).toBe(200)
    const [template] = res.body.templates
    expect(template).toMatchObject({ numberOfUserImages: 2, width: 2670, height, productVariantIds: [variantId] })
    expect(template.maskImageUrl).toBe(`/photo-products/templates/${shape}/mask.png`)
    const images = template.cells.filter((c: { type: string }) => c.type === 'Image')
    expect(images).toHaveLength(2)
    for (const cell of images) {
      expect(cell).toMatchObject({ width: cw, height: ch, positionRelativeToTemplate: 'Beneath', templateVariantId: variantId, imageData: null })
      for (const key of ['absoluteCenterX', 'absoluteCenterY', 'id', 'order', 'zIndex', 'patternData']) expect(cell).toHaveProperty(key)
    }
    expect(template.cells.find((c: { type: string }) => c.type === 'PatternImage').patternData).toMatchObject({ tileWidth: 160 })
    expect(res.body.backSides).toHaveLength(14)
    expect(res.body.backSides.slice(0, 13).map((b: { name: string }) => b.name)).toEqual([...sharedBackSideNames])
    expect(res.body.backSides[13]).toMatchObject({
      id: `${variantId}-14`,
      backsideId: 14,
      backsideUrl: `/photo-products/back-sides/${variantId}/14.png`,
      templateWidth: 2670,
      templateHeight: height,
      cropStencilClassName: `stencil-${shape}`,
    })
    expect(res.body.backSides[13].name).toBe(`Classic ${shape[0]!.toUpperCase()}${shape.slice(1)}`)
  })

  it('an unknown variant is 404 and a malformed one 400', async () => {
    expect((await t.request('/v1/design-templates?productVariantId=12345')).status).toBe(404)
    expect((await t.request('/v1/design-templates?productVariantId=star')).status).toBe(400)
    expect((await t.request('/v1/design-templates')).status).toBe(400)
  })

  it('base image hashes cover masks, frames, patterns and all 42 back sides, and match the files', async () => {
    const res = await t.request('/v1/printify/baseImageHash/photo-ornament')
    expect(res.status).toBe(200)
    const paths = Object.keys(res.body.hashes)
    expect(paths.filter((p) => /back-sides\/\d+\/\d+\.png$/.test(p))).toHaveLength(42)
    expect(paths).toContain('/photo-products/templates/tree/mask.png')
    const hashes = new Set(Object.values(res.body.hashes))
    expect(hashes.size).toBe(paths.length)
    expect((await t.request('/v1/printify/baseImageHash/nope')).status).toBe(404)
  })

  it('scales a base image for a preview canvas, and refuses other paths and widths', async () => {
    const res = await t.api.fetch(new Request('http://localhost:3000/v1/printify/base-images?path=/photo-products/templates/star/mask.png&width=640'))
    expect(res.status).toBe(200)
    const meta = await sharp(Buffer.from(await res.arrayBuffer())).metadata()
    expect([meta.width, meta.height]).toEqual([640, Math.round((1519 * 640) / 2670)])
    expect((await t.request('/v1/printify/base-images?path=/etc/passwd&width=640')).status).toBe(404)
    expect((await t.request('/v1/printify/base-images?path=/photo-products/templates/star/mask.png&width=641')).status).toBe(400)
  })
})

describe('POST /v1/printify/generate-preview', () => {
  it('renders print files and mockups, records the preview for this user, and serves the files', async () => {
    const res = await t.request('/v1/printify/generate-preview', {
      method: 'POST',
      cookie,
      json: starDesign([mine[0]!.id, mine[1]!.id], {
        cells: [
          { cellId: 'star-left', photoId: mine[0]!.id, transform: { x: 10, y: -5, zoom: 1.5, rotation: 12 } },
          { cellId: 'star-right', photoId: mine[1]!.id, transform: { x: 0, y: 0, zoom: 1, rotation: 0 } },
        ],
      }),
    })
    expect(res.status).toBe(201)
    expect(res.body).toMatchObject({ provider: 'local', variantId: 72965, backSideId: '72965-3' })
    expect(res.body.productId).toBe(res.body.previewId)
    expect(res.body.images).toHaveLength(2)
    expect(res.body.printAreas.map((a: { position: string }) => a.position)).toEqual(['front', 'back'])
    expect(res.body.sourceImages).toHaveLength(2)
    const front = await t.api.fetch(new Request(new URL(res.body.printAreas[0].imageUrl, TEST_ORIGIN)))
    expect(front.status).toBe(200)
    const frontMeta = await sharp(Buffer.from(await front.arrayBuffer())).metadata()
    expect([frontMeta.width, frontMeta.height, frontMeta.format]).toEqual([2670, 1519, 'png'])
    const mockup = await t.api.fetch(new Request(new URL(res.body.images[0], TEST_ORIGIN)))
    expect(mockup.headers.get('content-type')).toBe('image/jpeg')
    const rows = await t.db.select().from(previews)
    expect(rows.find((r) => r.id === res.body.previewId)).toMatchObject({ userId: t.users[0].id, variantId: 72965, provider: 'local' })
  })

  const refusals: [string, () => unknown, number, RegExp][] = [
    ['an unknown variant', () => starDesign([mine[0]!.id, mine[1]!.id], { variantId: 1 }), 404, /variant 1 not found/],
    [
      'a template of another shape',
      () => starDesign([mine[0]!.id, mine[1]!.id], { pseudoTemplateId: pseudoTemplates.tree.id }),
      422,
      /not a template of the Star/,
    ],
    ['a back side of another shape', () => starDesign([mine[0]!.id, mine[1]!.id], { backSideId: backSides.tree[0]!.id }), 422, /back sides/],
    ['one photo for two ornaments', () => starDesign([mine[0]!.id]), 400, /Choose 2 photos/],
    ['no photos', () => starDesign([]), 400, /Choose a photo/],
    [
      'a cell of another template',
      () => ({
        ...starDesign([mine[0]!.id, mine[1]!.id]),
        cells: [
          { cellId: 'tree-left', photoId: mine[0]!.id, transform: { x: 0, y: 0, zoom: 1, rotation: 0 } },
          { cellId: 'star-right', photoId: mine[1]!.id, transform: { x: 0, y: 0, zoom: 1, rotation: 0 } },
        ],
      }),
      400,
      /not a photo cell/,
    ],
    [
      'the same cell twice',
      () => ({
        ...starDesign([mine[0]!.id, mine[1]!.id]),
        cells: [
          { cellId: 'star-left', photoId: mine[0]!.id, transform: { x: 0, y: 0, zoom: 1, rotation: 0 } },
          { cellId: 'star-left', photoId: mine[1]!.id, transform: { x: 0, y: 0, zoom: 1, rotation: 0 } },
        ],
      }),
      400,
      /only once/,
    ],
    ["another family's photo", () => starDesign([mine[0]!.id, theirs[0]!.id]), 404, /Photo .* not found/],
    ['a photo that does not exist', () => starDesign([mine[0]!.id, randomUUID()]), 404, /not found/],
    [
      'a zoom of 50',
      () => ({
        ...starDesign([mine[0]!.id, mine[1]!.id]),
        cells: [
          { cellId: 'star-left', photoId: mine[0]!.id, transform: { x: 0, y: 0, zoom: 50, rotation: 0 } },
          { cellId: 'star-right', photoId: mine[1]!.id, transform: { x: 0, y: 0, zoom: 1, rotation: 0 } },
        ],
      }),
      400,
      /zoom must be between 1 and 5/,
    ],
    [
      'an offset of 1e300',
      () => ({
        ...starDesign([mine[0]!.id, mine[1]!.id]),
        cells: [
          { cellId: 'star-left', photoId: mine[0]!.id, transform: { x: 1e300, y: 0, zoom: 1, rotation: 0 } },
          { cellId: 'star-right', photoId: mine[1]!.id, transform: { x: 0, y: 0, zoom: 1, rotation: 0 } },
        ],
      }),
      400,
      /x must be between/,
    ],
    [
      'a rotation given as text',
      () => ({
        ...starDesign([mine[0]!.id, mine[1]!.id]),
        cells: [
          { cellId: 'star-left', photoId: mine[0]!.id, transform: { x: 0, y: 0, zoom: 1, rotation: '90' } },
          { cellId: 'star-right', photoId: mine[1]!.id, transform: { x: 0, y: 0, zoom: 1, rotation: 0 } },
        ],
      }),
      400,
      /rotation must be a number/,
    ],
  ]
  it.each(refusals)('refuses %s and records nothing', async (_name, body, status, message) => {
    const before = (await t.db.select().from(previews)).length
    const res = await t.request('/v1/printify/generate-preview', { method: 'POST', cookie, json: body() })
    expect(res.status).toBe(status)
    expect(res.body.error.message).toMatch(message)
    expect((await t.db.select().from(previews)).length).toBe(before)
  })

  it('needs a session', async () => {
    const res = await t.request('/v1/printify/generate-preview', { method: 'POST', json: starDesign([mine[0]!.id, mine[1]!.id]) })
    expect(res.status).toBe(401)
  })

  it("prints the shopper's own uploads but not someone else's", async () => {
    const renditions = await makeRenditions(
      await sharp({ create: { width: 450, height: 300, channels: 3, background: '#3a6' } })
        .jpeg()
        .toBuffer(),
      'image/jpeg',
    )
    const upload = await storePhoto(
      t.db,
      t.storage,
      { id: randomUUID(), familyId: null, ownerUserId: t.users[1].id, source: 'upload', favorite: false, recommended: false, capturedAt: new Date() },
      renditions,
    )
    const theirsRes = await t.request('/v1/printify/generate-preview', { method: 'POST', cookie, json: starDesign([mine[0]!.id, upload.id]) })
    expect(theirsRes.status).toBe(404)
    const own = await t.request('/v1/printify/generate-preview', { method: 'POST', cookie: otherCookie, json: starDesign([theirs[0]!.id, upload.id]) })
    expect(own.status).toBe(201)
  })

  it('never reaches the print provider: one that fails every call changes nothing, and the preview is the store’s own', async () => {
    const asked: string[] = []
    const failing: PrintProvider = {
      name: 'printify',
      submitOrder: async () => {
        asked.push('submitOrder')
        throw new PrintProviderError('Printify answered 503', 503)
      },
      sendToProduction: async () => {
        asked.push('sendToProduction')
        throw new PrintProviderError('Printify answered 503', 503)
      },
      cancelOrder: async () => {
        asked.push('cancelOrder')
        throw new PrintProviderError('Printify answered 503', 503)
      },
      shippingCosts: async () => {
        asked.push('shippingCosts')
        throw new PrintProviderError('Printify answered 503', 503)
      },
    }
    const f = await createTestApi({}, { print: failing })
    try {
      const photos = await addAlbumPhotos(f, demoAccounts[0].family.id, 2, undefined, PRINTABLE)
      const res = await f.request('/v1/printify/generate-preview', { method: 'POST', cookie: await f.signIn(0), json: starDesign(photos.map((p) => p.id)) })
      expect(res.status, JSON.stringify(res.body)).toBe(201)
      expect(asked).toEqual([])
      expect(res.body).toMatchObject({ provider: 'printify', productId: res.body.previewId })
      const [row] = await f.db.select().from(previews)
      expect(row).toMatchObject({ id: res.body.previewId, provider: 'printify', providerProductId: res.body.previewId })
    } finally {
      await f.close()
    }
  })
})

describe('POST /v1/printify/generate-preview with Printify', () => {
  it('asks Printify nothing: the product is the preview’s own id and the images are the store’s mockups (Printify hears of the design at the order)', async () => {
    const mock = createPrintifyMock()
    const client = new PrintifyClient({ apiToken: MOCK_PRINTIFY_TOKEN, shopId: MOCK_PRINTIFY_SHOP_ID, fetch: mock.fetch, sleep: async () => {} })
    const p = await createTestApi({}, { print: new PrintifyProvider(client) })
    try {
      const photos = await addAlbumPhotos(p, demoAccounts[0].family.id, 2, undefined, PRINTABLE)
      const res = await p.request('/v1/printify/generate-preview', { method: 'POST', cookie: await p.signIn(0), json: starDesign(photos.map((x) => x.id)) })
      expect(res.status).toBe(201)
      const previewId = res.body.previewId as string
      expect(res.body).toMatchObject({ provider: 'printify', productId: previewId })
      expect(res.body.images).toEqual([`/v1/media/previews/${previewId}/mockup-front.jpg`, `/v1/media/previews/${previewId}/mockup-back.jpg`])
      for (const image of res.body.images as string[]) {
        const served = await p.api.fetch(new Request(new URL(image, TEST_ORIGIN)))
        expect(served.status).toBe(200)
        expect(served.headers.get('content-type')).toBe('image/jpeg')
      }
      expect(mock.calls).toEqual([])
      expect(mock.uploads.size + mock.products.size).toBe(0)
      const [row] = await p.db.select().from(previews)
      expect(row).toMatchObject({ provider: 'printify', providerProductId: previewId, images: res.body.images })
    } finally {
      await p.close()
    }
  })

  it('a Printify that would refuse every call (a wrong token) does not stop a preview: it is never asked', async () => {
    const mock = createPrintifyMock()
    const client = new PrintifyClient({ apiToken: 'wrong-token', shopId: MOCK_PRINTIFY_SHOP_ID, fetch: mock.fetch, sleep: async () => {} })
    const p = await createTestApi({}, { print: new PrintifyProvider(client) })
    try {
      expect((await client.listOrders().catch((e: PrintProviderError) => e)) as PrintProviderError).toMatchObject({ status: 401 })
      mock.calls.length = 0
      const photos = await addAlbumPhotos(p, demoAccounts[0].family.id, 2, undefined, PRINTABLE)
      const res = await p.request('/v1/printify/generate-preview', { method: 'POST', cookie: await p.signIn(0), json: starDesign(photos.map((x) => x.id)) })
      expect(res.status, JSON.stringify(res.body)).toBe(201)
      expect(mock.calls).toEqual([])
      expect(await p.db.select().from(previews)).toHaveLength(1)
    } finally {
      await p.close()
    }
  })
})

describe('generate-preview print quality (decision 060)', () => {
  it("answers each cell's grade, dpi, and for a soft photo why and what to do, as the designer grades it", async () => {
    // The first is portrait (1200 × 1600), the second landscape (1600 × 1200).
    const [tall, wide] = await addAlbumPhotos(t, demoAccounts[0].family.id, 2, undefined, { width: 1600, height: 1200 })
    const cells = [
      { cellId: 'star-left', photoId: tall!.id, transform: { x: 0, y: 0, zoom: 1.5, rotation: 0 } },
      { cellId: 'star-right', photoId: wide!.id, transform: { x: 0, y: 0, zoom: 2.5, rotation: 0 } },
    ]
    const res = await t.request('/v1/printify/generate-preview', { method: 'POST', cookie, json: { ...starDesign([]), cells } })
    expect(res.status).toBe(201)
    expect(res.body.printQuality).toEqual([
      // 1097 / 1200 template pixels per photo pixel at 1×: 328 dpi, 218 at 1.5×.
      { cellId: 'star-left', grade: 'good', dpi: 218 },
      {
        cellId: 'star-right',
        grade: 'soft',
        dpi: 118,
        reason: 'This photo is 1600 × 1200 and zoomed to 2.5×: about 118 dpi at print size (150 or more prints sharp).',
        advice: 'Zoom out to 1.9× or less, or choose a larger photo.',
      },
    ])
    // The same function the designer uses, on the same numbers: they cannot disagree.
    const cell = (id: string) => star.cells.find((c) => c.id === id)!
    const photos = [tall!, wide!]
    cells.forEach((c, i) => {
      const q = printQuality(cell(c.cellId), photos[i]!, c.transform)
      expect(res.body.printQuality[i]).toMatchObject({ grade: q.grade, dpi: Math.floor(q.dpi) })
    })
  })

  it('a great photo at 1× is graded great, with no reason or advice', async () => {
    const [tall, wide] = await addAlbumPhotos(t, demoAccounts[0].family.id, 2, undefined, { width: 1600, height: 1200 })
    const res = await t.request('/v1/printify/generate-preview', { method: 'POST', cookie, json: starDesign([tall!.id, wide!.id]) })
    expect(res.status).toBe(201)
    expect(res.body.printQuality).toEqual([
      { cellId: 'star-left', grade: 'great', dpi: 328 },
      { cellId: 'star-right', grade: 'great', dpi: 296 },
    ])
  })
})

describe('generate-preview limits', () => {
  it('refuses a photo too small to print at its size, naming the ornament and the dpi', async () => {
    const tiny = await makeRenditions(
      await sharp({ create: { width: 24, height: 18, channels: 3, background: '#a33' } })
        .jpeg()
        .toBuffer(),
      'image/jpeg',
    )
    const photo = await storePhoto(
      t.db,
      t.storage,
      {
        id: randomUUID(),
        familyId: demoAccounts[0].family.id,
        ownerUserId: null,
        source: 'album',
        favorite: false,
        recommended: false,
        capturedAt: new Date(),
      },
      tiny,
    )
    const before = (await t.db.select().from(previews)).length
    const res = await t.request('/v1/printify/generate-preview', {
      method: 'POST',
      cookie,
      json: {
        ...starDesign([photo.id, mine[1]!.id]),
        cells: [
          { cellId: 'star-left', photoId: photo.id, transform: { x: 0, y: 0, zoom: 5, rotation: 45 } },
          { cellId: 'star-right', photoId: mine[1]!.id, transform: { x: 0, y: 0, zoom: 1, rotation: 0 } },
        ],
      },
    })
    expect(res.status).toBe(422)
    expect(res.body.error.message).toMatch(/left ornament is too small to print at this size: about \d+ dpi, at least 30 is needed\. Choose a larger photo/)
    expect((await t.db.select().from(previews)).length).toBe(before)
  })

  it(`allows ${PREVIEWS_PER_HOUR} previews per shopper per hour, then answers 429`, async () => {
    const l = await createTestApi()
    try {
      const photos = await addAlbumPhotos(l, demoAccounts[0].family.id, 2, undefined, PRINTABLE)
      const userId = l.users[0].id
      await l.db.insert(previews).values(
        Array.from({ length: PREVIEWS_PER_HOUR }, () => ({
          id: randomUUID(),
          userId,
          variantId: 72965,
          pseudoTemplateId: star.id,
          backSideId: '72965-1',
          design: [],
          printAreas: [],
          sourceImages: [],
          images: [],
          provider: 'local' as const,
          providerProductId: 'x',
          createdAt: new Date(l.now().getTime() - 10 * 60 * 1000),
        })),
      )
      const cookieL = await l.signIn(0)
      const res = await l.request('/v1/printify/generate-preview', { method: 'POST', cookie: cookieL, json: starDesign(photos.map((p) => p.id)) })
      expect(res.status).toBe(429)
      expect(res.body.error.message).toMatch(/previews in the last hour/)
      l.setNow(new Date(l.now().getTime() + 60 * 60 * 1000))
      const later = await l.request('/v1/printify/generate-preview', { method: 'POST', cookie: cookieL, json: starDesign(photos.map((p) => p.id)) })
      expect(later.status).toBe(201)
    } finally {
      await l.close()
    }
  })

  it('a preview stores its two mockups and nothing else: no print file is rendered for it, and the provider is not asked', async () => {
    const asked: string[] = []
    const unused = async (): Promise<never> => {
      asked.push('called')
      throw new PrintProviderError('down', 503)
    }
    const failing: PrintProvider = { name: 'printify', submitOrder: unused, sendToProduction: unused, cancelOrder: unused }
    const f = await createTestApi({}, { print: failing })
    try {
      const photos = await addAlbumPhotos(f, demoAccounts[0].family.id, 2, undefined, PRINTABLE)
      const res = await f.request('/v1/printify/generate-preview', { method: 'POST', cookie: await f.signIn(0), json: starDesign(photos.map((p) => p.id)) })
      expect(res.status).toBe(201)
      expect(asked).toEqual([])
      const media = path.join(f.dataDir, 'media')
      const previewDir = path.join(media, 'previews')
      expect(fs.readdirSync(previewDir)).toEqual([res.body.previewId])
      const stored = fs.readdirSync(path.join(previewDir, res.body.previewId)).filter((name) => !name.endsWith('.content-type'))
      expect(stored.sort()).toEqual(['mockup-back.jpg', 'mockup-front.jpg'])
      // The print files are rendered when the design goes into a cart (or an order needs them), not here.
      expect(fs.existsSync(path.join(media, 'print-files'))).toBe(false)
    } finally {
      await f.close()
    }
  })
})
