import { eq } from 'drizzle-orm'
import sharp from 'sharp'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { demoAccounts } from '../../app/api/demo/accounts'
import { cartItems, designDrafts, previews } from '../../app/api/db/schema'
import { PrintifyClient, PrintifyProvider } from '../../app/api/providers/print/printify'
import { fulfilmentJobs } from '../../app/api/services/fulfilment'
import { drainJobs } from '../../app/api/services/jobs'
import { pseudoTemplates, textCells } from '../../app/catalogue/ornaments'
import { cellClipRect } from '../../app/compositor/layout'
import { cartItemOfGenerated, testAddress } from '../support/cart'
import { addAlbumPhotos } from '../support/photos'
import { createPrintifyMock, MOCK_PRINTIFY_SHOP_ID, MOCK_PRINTIFY_TOKEN } from '../support/printify-mock'
import { createTestApi, type TestApi } from '../support/test-api'

/** The personal line (issue 19, part 1) from the preview request to the print file, the cart, the order and Printify. */
const mock = createPrintifyMock()
const sleep = async () => {}
let t: TestApi
let cookie: string
let photos: { id: string }[]

const STAR = 72965
const line = { line: '  Ava · 2026 ', typeface: 'lora', colour: 'gold' }
const stored = { line: 'Ava · 2026', typeface: 'lora', colour: 'gold' }
const badLines: [string, unknown][] = [
  ['an emoji', { ...line, line: 'Ava 🎄' }],
  ['Cyrillic', { ...line, line: 'Маша' }],
  ['41 characters', { ...line, line: 'a'.repeat(41) }],
  ['a line break', { ...line, line: 'Ava\n2026' }],
  ['an empty line', { ...line, line: '   ' }],
  ['an unknown typeface', { ...line, typeface: 'comic-sans' }],
  ['an unknown colour', { ...line, colour: 'chartreuse' }],
]

beforeAll(async () => {
  const client = new PrintifyClient({ apiToken: MOCK_PRINTIFY_TOKEN, shopId: MOCK_PRINTIFY_SHOP_ID, fetch: mock.fetch, sleep })
  t = await createTestApi({}, { print: new PrintifyProvider(client, { sleep }) })
  cookie = await t.signIn(0)
  photos = await addAlbumPhotos(t, demoAccounts[0].family.id, 2, undefined, { width: 480, height: 360 })
})
afterAll(() => t.close())

const previewRequest = (text?: unknown) => ({
  variantId: STAR,
  pseudoTemplateId: pseudoTemplates.star.id,
  backSideId: '72965-1',
  cells: photos.map((p, i) => ({ cellId: i ? 'star-right' : 'star-left', photoId: p.id, transform: { x: 0, y: 0, zoom: 1, rotation: 0 } })),
  ...(text === undefined ? {} : { text }),
})
const makePreview = (text?: unknown) => t.request('/v1/printify/generate-preview', { method: 'POST', cookie, json: previewRequest(text) })

/** The front print file Printify was sent for a product (uploaded by content in tests), decoded. */
async function uploadedFront(productId: string) {
  const product = mock.products.get(productId)!
  const front = product.print_areas[0]!.placeholders.find((p) => p.position === 'front')!
  const upload = mock.uploads.get(String(front.images[0]!.id))!
  const png = Buffer.from((upload as unknown as { source: { contents: string } }).source.contents, 'base64')
  return sharp(png).ensureAlpha().raw().toBuffer({ resolveWithObject: true })
}

let withText: Record<string, any>
let without: Record<string, any>
let orderId: string

describe('the personal line', () => {
  it('a preview with a line prints it in each Text cell of the front file, and only there', async () => {
    const made = await makePreview(line)
    expect(made.status, JSON.stringify(made.body)).toBe(201)
    withText = made.body
    expect(withText.text).toEqual(stored)
    const plain = await makePreview()
    expect(plain.status).toBe(201)
    without = plain.body
    expect(without.text).toBeNull()

    const [a, b] = await Promise.all([uploadedFront(withText.productId), uploadedFront(without.productId)])
    expect([a.info.width, a.info.height]).toEqual([b.info.width, b.info.height])
    const bands = textCells(pseudoTemplates.star).map((c) => cellClipRect(c, 1))
    const inBand = (x: number, y: number) => bands.some((r) => x >= r.left && x < r.left + r.width && y >= r.top && y < r.top + r.height)
    let changedInBands = 0
    let changedOutside = 0
    for (let y = 0; y < a.info.height; y++) {
      for (let x = 0; x < a.info.width; x++) {
        const i = (y * a.info.width + x) * 4
        if (a.data[i] === b.data[i] && a.data[i + 1] === b.data[i + 1] && a.data[i + 2] === b.data[i + 2] && a.data[i + 3] === b.data[i + 3]) continue
        if (inBand(x, y)) changedInBands++
        else changedOutside++
      }
    }
    expect(changedOutside).toBe(0)
    expect(changedInBands).toBeGreaterThan(2000)
    // Printify's product names the line as well as printing it.
    expect(mock.products.get(withText.productId)!.description).toContain('Personal line: “Ava · 2026” in Lora, gold')
  })

  for (const [what, text] of badLines) {
    it(`a preview with ${what} is refused with 400 and nothing is made`, async () => {
      const before = (await t.db.select().from(previews)).length
      const products = mock.products.size
      const res = await makePreview(text)
      expect(res.status).toBe(400)
      expect(res.body.error.code).toBe('validation_failed')
      expect((await t.db.select().from(previews)).length).toBe(before)
      expect(mock.products.size).toBe(products)
    })
  }

  it('the refusal of an emoji says which character the typeface cannot print', async () => {
    const res = await makePreview({ ...line, line: 'Ava 🎄' })
    expect(JSON.stringify(res.body)).toContain('Lora cannot print “🎄”')
  })

  it('the cart line carries the preview’s line; another line or a bad one is refused and the cart is unchanged', async () => {
    const cartBefore = await t.db.select().from(cartItems)
    const bad = await t.request('/v1/photo-products-cart/items', {
      method: 'POST',
      cookie,
      json: cartItemOfGenerated(withText, { metadata: { text: { ...stored, line: 'Ava 🎄' } } }),
    })
    expect(bad.status).toBe(400)
    const other = await t.request('/v1/photo-products-cart/items', {
      method: 'POST',
      cookie,
      json: cartItemOfGenerated(withText, { metadata: { text: { ...stored, line: 'Bo · 2026' } } }),
    })
    expect(other.status).toBe(422)
    const smuggled = await t.request('/v1/photo-products-cart/items', {
      method: 'POST',
      cookie,
      json: cartItemOfGenerated(without, { metadata: { text: stored } }),
    })
    expect(smuggled.status).toBe(422)
    expect(await t.db.select().from(cartItems)).toEqual(cartBefore)

    const added = await t.request('/v1/photo-products-cart/items', { method: 'POST', cookie, json: cartItemOfGenerated(withText) })
    expect(added.status, JSON.stringify(added.body)).toBe(201)
    expect(added.body.item.metadata.text).toEqual(stored)
    const cart = await t.request('/v1/photo-products-cart', { cookie })
    expect(cart.body.items.map((i: { metadata: { text?: unknown } }) => i.metadata.text)).toEqual([stored])
  })

  it('the order shows the line and Printify’s order names the product whose print file has it', async () => {
    const session = await t.request('/v1/photo-products-cart/checkout-session', { method: 'POST', cookie })
    expect(session.status, JSON.stringify(session.body)).toBe(201)
    expect(session.body.lines[0].text).toEqual(stored)
    const paid = await t.request(`/v1/checkout/local/${session.body.id}/pay`, {
      method: 'POST',
      cookie,
      json: { cardNumber: '4242424242424242', shippingAddress: { ...testAddress, phone: '2125550100', line2: '' } },
    })
    expect(paid.body.status, JSON.stringify(paid.body)).toBe('paid')
    orderId = paid.body.orderId
    const order = await t.request(`/v1/photo-products-orders/${paid.body.orderId}`, { cookie })
    expect(order.body.lines[0].text).toEqual(stored)
    await drainJobs(t.api.deps, fulfilmentJobs)
    const [create] = mock.callsTo('POST', `/v1/shops/${MOCK_PRINTIFY_SHOP_ID}/orders.json`)
    expect(create!.body).toMatchObject({ external_id: paid.body.orderId, line_items: [{ product_id: withText.productId, variant_id: STAR, quantity: 1 }] })
  })
})

describe('ordering again with a new year (issue 19, part 4)', () => {
  const again = (json?: unknown) =>
    t.request(`/v1/photo-products-orders/${orderId}/order-again`, { method: 'POST', cookie, ...(json === undefined ? {} : { json }) })

  it('refuses a year that is not one, and changes nothing', async () => {
    const before = await t.db.select().from(cartItems)
    for (const body of [{ year: 1999 }, { year: 2026.5 }, { year: '2027' }]) expect((await again(body)).status).toBe(400)
    expect(await t.db.select().from(cartItems)).toEqual(before)
  })

  it('renders the design again with the new year in its line and puts that in the cart, once', async () => {
    const previewsBefore = (await t.db.select().from(previews)).length
    const res = await again({ year: 2027 })
    expect(res.status, JSON.stringify(res.body)).toBe(200)
    expect(res.body.added).toBe(1)
    const [line] = res.body.cart.items
    expect(line.metadata.text).toEqual({ ...stored, line: 'Ava · 2027' })
    expect(line.previewId).not.toBe(withText.previewId)
    expect(line.quantity).toBe(1)
    expect((await t.db.select().from(previews)).length).toBe(previewsBefore + 1)
    const [remade] = await t.db.select().from(previews).where(eq(previews.id, line.previewId))
    expect(remade!.text).toEqual({ ...stored, line: 'Ava · 2027' })
    expect(remade!.design.map((d) => d.photoId)).toEqual(photos.map((p) => p.id))

    const twice = await again({ year: 2027 })
    expect(twice.body).toMatchObject({ added: 0, alreadyInCart: 1 })
    expect((await t.db.select().from(previews)).length).toBe(previewsBefore + 1)
  })

  it('without a year, the design goes back as it was printed', async () => {
    const res = await again()
    expect(res.status).toBe(200)
    expect(res.body.cart.items.map((i: { previewId: string }) => i.previewId)).toContain(withText.previewId)
  })
})

describe('the personal line in a saved design', () => {
  const body = (text?: unknown) => ({
    photos: { 'star-left': photos[0]!.id, 'star-right': photos[1]!.id },
    transforms: {},
    backSideId: '72965-3',
    ...(text === undefined ? {} : { text }),
  })
  const put = (json: unknown) => t.request(`/v1/photo-products-designs/variants/${STAR}`, { method: 'PUT', json, cookie })

  it('keeps the line, normalised, and answers it', async () => {
    const saved = await put(body(line))
    expect(saved.status, JSON.stringify(saved.body)).toBe(200)
    expect(saved.body.text).toEqual(stored)
    const list = await t.request('/v1/photo-products-designs', { cookie })
    expect(list.body.designs[0].text).toEqual(stored)
  })

  it('refuses a bad line with 400 and keeps the design as it was', async () => {
    const before = await t.db.select().from(designDrafts)
    for (const [, text] of badLines) {
      const res = await put(body(text))
      expect(res.status).toBe(400)
    }
    expect(await t.db.select().from(designDrafts)).toEqual(before)
  })

  it('a design saved without a line answers none', async () => {
    const saved = await put(body())
    expect(saved.body.text).toBeNull()
  })
})
