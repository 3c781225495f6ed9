import fs from 'node:fs'
import path from 'node:path'
import { eq, sql } from 'drizzle-orm'
import sharp from 'sharp'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { demoAccounts } from '../../app/api/demo/accounts'
import { migrationsFolder } from '../../app/api/db/client'
import { cartItems, checkoutSessions, designDrafts, designShares, orders, outboxEmails, previews } from '../../app/api/db/schema'
import { PrintifyClient, PrintifyProvider } from '../../app/api/providers/print/printify'
import { fulfilmentJobs } from '../../app/api/services/fulfilment'
import { printFileJobs } from '../../app/api/services/print-files'
import { drainJobs } from '../../app/api/services/jobs'
import { pseudoTemplates, textCells } from '../../app/catalogue/ornaments'
import { cellClipRect } from '../../app/compositor/layout'
import { cartItemOfGenerated, testAddress } from '../support/cart'
import { addAlbumPhotos } from '../support/photos'
import { createPrintifyMock, MOCK_PRINTIFY_SHOP_ID, MOCK_PRINTIFY_TOKEN } from '../support/printify-mock'
import { createTestApi, TEST_ORIGIN, type TestApi } from '../support/test-api'

/** The personal lines (issue 19, part 1), each ornament its own, from the preview request to the print file, the cart, the order and Printify. */
const mock = createPrintifyMock()
const sleep = async () => {}
let t: TestApi
let cookie: string
let photos: { id: string }[]

const STAR = 72965
const leftLine = { line: '  Ava · 2026 ', typeface: 'lora', colour: 'gold' }
const rightLine = { line: "Baby's first Christmas", typeface: 'dancing-script', colour: 'ink' }
const line = { left: leftLine, right: rightLine }
const storedLeft = { line: 'Ava · 2026', typeface: 'lora', colour: 'gold' }
const stored = { left: storedLeft, right: rightLine }
const badLine: [string, unknown][] = [
  ['an emoji', { ...leftLine, line: 'Ava 🎄' }],
  ['Cyrillic', { ...leftLine, line: 'Маша' }],
  ['41 characters', { ...leftLine, line: 'a'.repeat(41) }],
  ['a line break', { ...leftLine, line: 'Ava\n2026' }],
  ['an empty line', { ...leftLine, line: '   ' }],
  ['an unknown typeface', { ...leftLine, typeface: 'comic-sans' }],
  ['an unknown colour', { ...leftLine, colour: 'chartreuse' }],
  ['a line that is not text', { ...leftLine, line: 2026 }],
  ['a NUL byte', { ...leftLine, line: 'Ava\u0000 2026' }],
  ['a lone surrogate (malformed UTF-16)', { ...leftLine, line: 'Ava \ud83c 2026' }],
  ['100,000 characters', { ...leftLine, line: 'A'.repeat(100_000) }],
  ['null for a line', null],
]
/** Each bad line on either ornament (the other one fine), and text with no ornament named. */
const badLines: [string, unknown][] = [
  ...badLine.flatMap(([what, bad]): [string, unknown][] => [
    [`${what} on the left ornament`, { left: bad, right: rightLine }],
    [`${what} on the right ornament`, { left: leftLine, right: bad }],
  ]),
  ['no line for either ornament', {}],
  ['one line without an ornament', leftLine],
  ['a list of lines', [leftLine, rightLine]],
]

beforeAll(async () => {
  const client = new PrintifyClient({ apiToken: MOCK_PRINTIFY_TOKEN, shopId: MOCK_PRINTIFY_SHOP_ID, fetch: mock.fetch, sleep })
  t = await createTestApi({}, { print: new PrintifyProvider(client) })
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

/** A preview's front print file as its printAreas URL serves it (rendered on that request, at the print area's size). */
async function printedFront(preview: Record<string, any>) {
  const front = (preview.printAreas as { position: string; imageUrl: string }[]).find((area) => area.position === 'front')!
  const res = await t.api.fetch(new Request(new URL(front.imageUrl, TEST_ORIGIN)))
  expect(res.status).toBe(200)
  return Buffer.from(await res.arrayBuffer())
}

const decoded = (png: Buffer) => sharp(png).ensureAlpha().raw().toBuffer({ resolveWithObject: true })

/** The product an order's line item names, and the front print file Printify was sent for it (uploaded by content in tests). */
function orderedProduct(lineItem: { product_id: string }) {
  const product = mock.products.get(lineItem.product_id)!
  const front = product.print_areas[0]!.placeholders.find((p) => p.position === 'front')!
  const upload = mock.uploads.get(String(front.images[0]!.id))!
  return { product, front: Buffer.from((upload.source as { contents: string }).contents, 'base64') }
}

/** Pays the open cart's checkout, runs the fulfilment jobs, and answers the order id and the order Printify was asked for. */
async function orderTheCart() {
  const session = await t.request('/v1/photo-products-cart/checkout-session', { method: 'POST', cookie })
  expect(session.status, JSON.stringify(session.body)).toBe(201)
  const paid = await t.request(`/v1/checkout/local/${session.body.id}/pay`, {
    method: 'POST',
    cookie,
    json: { cardNumber: '4242424242424242', shippingAddress: { ...testAddress, phone: '2125550100', line2: '' } },
  })
  expect(paid.body.status, JSON.stringify(paid.body)).toBe('paid')
  await drainJobs(t.api.deps, { ...fulfilmentJobs, ...printFileJobs })
  const create = mock
    .callsTo('POST', `/v1/shops/${MOCK_PRINTIFY_SHOP_ID}/orders.json`)
    .find((call) => (call.body as { external_id?: string } | undefined)?.external_id === paid.body.orderId)
  expect(create, `Printify was asked for order ${paid.body.orderId}`).toBeDefined()
  return { session: session.body, orderId: paid.body.orderId as string, create: create!.body as { line_items: { product_id: string }[] } }
}

let withText: Record<string, any>
let withTextFront: Buffer
let without: Record<string, any>
let rightOnly: Record<string, any>
let orderId: string

describe('the personal line', () => {
  it('a preview prints each ornament’s line in that ornament’s Text cell of the front file, and only there', async () => {
    const made = await makePreview(line)
    expect(made.status, JSON.stringify(made.body)).toBe(201)
    withText = made.body
    expect(withText.text).toEqual(stored)
    const plain = await makePreview()
    expect(plain.status).toBe(201)
    without = plain.body
    expect(without.text).toBeNull()
    const madeRightOnly = await makePreview({ right: rightLine })
    expect(madeRightOnly.status).toBe(201)
    rightOnly = madeRightOnly.body
    expect(rightOnly.text).toEqual({ right: rightLine })
    // A preview reaches no provider: Printify hears of a design only when it is ordered.
    expect(mock.calls).toEqual([])

    const [front, plainFront, rightOnlyFront] = await Promise.all([printedFront(withText), printedFront(without), printedFront(rightOnly)])
    withTextFront = front
    const [a, b, r] = await Promise.all([decoded(front), decoded(plainFront), decoded(rightOnlyFront)])
    expect([a.info.width, a.info.height]).toEqual([pseudoTemplates.star.width, pseudoTemplates.star.height])
    expect([a.info.width, a.info.height]).toEqual([b.info.width, b.info.height])
    const [leftBand, rightBand] = textCells(pseudoTemplates.star).map((c) => cellClipRect(c, 1))
    const within = (band: typeof leftBand, x: number, y: number) =>
      x >= band!.left && x < band!.left + band!.width && y >= band!.top && y < band!.top + band!.height
    /** Pixels of `image` that differ from the plain front, in each band and outside both. */
    const changes = (image: typeof a) => {
      const counted = { left: 0, right: 0, outside: 0 }
      for (let y = 0; y < image.info.height; y++) {
        for (let x = 0; x < image.info.width; x++) {
          const i = (y * image.info.width + x) * 4
          if ([0, 1, 2, 3].every((k) => image.data[i + k] === b.data[i + k])) continue
          if (within(leftBand, x, y)) counted.left++
          else if (within(rightBand, x, y)) counted.right++
          else counted.outside++
        }
      }
      return counted
    }
    const both = changes(a)
    expect(both.outside).toBe(0)
    expect(both.left).toBeGreaterThan(2000)
    expect(both.right).toBeGreaterThan(2000)
    // Different lines: the right band is not the left one moved across.
    const shift = rightBand!.left - leftBand!.left
    let same = 0
    for (let y = leftBand!.top; y < leftBand!.top + leftBand!.height; y++) {
      for (let x = leftBand!.left; x < leftBand!.left + leftBand!.width; x++) {
        const i = (y * a.info.width + x) * 4
        const j = i + shift * 4
        if ([0, 1, 2, 3].every((k) => a.data[i + k] === a.data[j + k])) same++
      }
    }
    expect(same).toBeLessThan(leftBand!.width * leftBand!.height * 0.9)
    // A line on the right ornament only: the left one is printed as with no text, the right one as with both lines.
    const one = changes(r)
    expect(one).toMatchObject({ left: 0, outside: 0, right: both.right })
  })

  for (const [what, text] of badLines) {
    it(`a preview with ${what} is refused with 400 and nothing is made`, async () => {
      const before = (await t.db.select().from(previews)).length
      const calls = mock.calls.length
      const res = await makePreview(text)
      expect(res.status).toBe(400)
      expect(res.body.error.code).toBe('validation_failed')
      expect((await t.db.select().from(previews)).length).toBe(before)
      expect(mock.calls.length).toBe(calls)
    })
  }

  it('the refusal of an emoji says which character the typeface cannot print, and on which ornament', async () => {
    const res = await makePreview({ left: leftLine, right: { ...rightLine, line: 'Leo 🎄' } })
    expect(JSON.stringify(res.body)).toContain('Dancing Script cannot print “🎄”')
    expect(JSON.stringify(res.body)).toContain('right')
    const none = await makePreview({})
    expect(JSON.stringify(none.body)).toContain('Give a line for the left or the right ornament, or leave the text out')
  })

  it('the cart line carries the preview’s line; another line or a bad one is refused and the cart is unchanged', async () => {
    const cartBefore = await t.db.select().from(cartItems)
    const bad = await t.request('/v1/photo-products-cart/items', {
      method: 'POST',
      cookie,
      json: cartItemOfGenerated(withText, { metadata: { text: { ...stored, left: { ...storedLeft, line: 'Ava 🎄' } } } }),
    })
    expect(bad.status).toBe(400)
    // Another line on one ornament, the lines swapped, or one of them left out: not what was printed.
    for (const text of [{ ...stored, right: { ...rightLine, line: 'Bo · 2026' } }, { left: rightLine, right: storedLeft }, { left: storedLeft }]) {
      const other = await t.request('/v1/photo-products-cart/items', { method: 'POST', cookie, json: cartItemOfGenerated(withText, { metadata: { text } }) })
      expect(other.status, JSON.stringify(text)).toBe(422)
    }
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
    const ordered = await orderTheCart()
    orderId = ordered.orderId
    expect(ordered.session.lines[0].text).toEqual(stored)
    const order = await t.request(`/v1/photo-products-orders/${orderId}`, { cookie })
    expect(order.body.lines[0].text).toEqual(stored)
    // The confirmation e-mail names each ornament's line under the design.
    const [confirmation] = await t.db
      .select()
      .from(outboxEmails)
      .where(eq(outboxEmails.reference, `order-confirmation:${orderId}`))
    expect(confirmation!.text).toContain("Text: Left: “Ava · 2026” in Lora, gold; Right: “Baby's first Christmas” in Dancing Script, ink")
    expect(ordered.create).toMatchObject({ external_id: orderId, line_items: [{ variant_id: STAR, quantity: 1 }] })
    expect(ordered.create.line_items).toHaveLength(1)
    // The product the line names is the preview's design: its front print file is the one with the lines, and it names them.
    const { product, front } = orderedProduct(ordered.create.line_items[0]!)
    expect(product.tags).toEqual([`keepsake-preview:${withText.previewId}`])
    expect(front.equals(withTextFront)).toBe(true)
    expect(product.description).toContain("Personal text: Left: “Ava · 2026” in Lora, gold; Right: “Baby's first Christmas” in Dancing Script, ink.")
  })

  it('a line on the right ornament only is named so on the product Printify’s order names', async () => {
    const added = await t.request('/v1/photo-products-cart/items', { method: 'POST', cookie, json: cartItemOfGenerated(rightOnly) })
    expect(added.status, JSON.stringify(added.body)).toBe(201)
    const ordered = await orderTheCart()
    expect(ordered.create.line_items).toHaveLength(1)
    const { product } = orderedProduct(ordered.create.line_items[0]!)
    expect(product.tags).toEqual([`keepsake-preview:${rightOnly.previewId}`])
    expect(product.description).toContain("Personal text: “Baby's first Christmas” in Dancing Script, ink, on the right ornament.")
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
    // The left line names the year and changes; the right one names none and is printed as it was.
    expect(line.metadata.text).toEqual({ left: { ...storedLeft, line: 'Ava · 2027' }, right: rightLine })
    expect(line.previewId).not.toBe(withText.previewId)
    expect(line.quantity).toBe(1)
    expect((await t.db.select().from(previews)).length).toBe(previewsBefore + 1)
    const [remade] = await t.db.select().from(previews).where(eq(previews.id, line.previewId))
    expect(remade!.text).toEqual({ left: { ...storedLeft, line: 'Ava · 2027' }, right: rightLine })
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

describe('the personal lines in a saved design', () => {
  const body = (text?: unknown) => ({
    photos: { 'star-left': photos[0]!.id, 'star-right': photos[1]!.id },
    transforms: {},
    backSideId: '72965-3',
    ...(text === undefined ? {} : { text }),
  })
  const put = (json: unknown) => t.request(`/v1/photo-products-designs/variants/${STAR}`, { method: 'PUT', json, cookie })

  it('keeps each ornament’s line, normalised, and answers them', async () => {
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

const saveStar = (text: unknown) =>
  t.request(`/v1/photo-products-designs/variants/${STAR}`, {
    method: 'PUT',
    cookie,
    json: { photos: { 'star-left': photos[0]!.id, 'star-right': photos[1]!.id }, transforms: {}, backSideId: '72965-3', text },
  })

/** The star design saved with `text`, then sent to the family: the share as its sharer sees it. */
async function saveAndShare(text: unknown) {
  const saved = await saveStar(text)
  expect(saved.status).toBe(200)
  const shared = await t.request('/v1/photo-products-design-shares', { method: 'POST', cookie, json: { designId: saved.body.id } })
  expect(shared.status, JSON.stringify(shared.body)).toBe(201)
  return shared.body as { token: string }
}

describe('the personal lines in a design shared for a look', () => {
  it('the family’s page shows each ornament’s line as it was when shared', async () => {
    const shared = await saveAndShare(line)
    // Changed after sending: the share keeps the lines it was sent with.
    expect((await saveStar({ right: rightLine })).status).toBe(200)
    const opened = await t.request(`/v1/photo-products-design-shares/${shared.token}`, { cookie })
    expect(opened.status).toBe(200)
    expect(opened.body.text).toEqual(stored)
  })
})

describe('migration 0016: rows written when a design had one line for both ornaments', () => {
  const statements = fs
    .readFileSync(path.join(migrationsFolder, '0016_text_per_ornament.sql'), 'utf8')
    .split('--> statement-breakpoint')
    .map((s) => s.trim())
    .filter(Boolean)
  const migrate = async () => {
    for (const statement of statements) await t.db.execute(sql.raw(statement))
  }

  it('gives each ornament that line, in every table that keeps a design’s text, and leaves the rest as they are', async () => {
    // A saved design, shared with the family, so every table that keeps text has a row with it.
    await saveAndShare(line)

    const snapshot = async () => ({
      previews: await t.db.select({ id: previews.id, text: previews.text }).from(previews).orderBy(previews.id),
      cartItems: await t.db.select({ id: cartItems.id, metadata: cartItems.metadata }).from(cartItems).orderBy(cartItems.id),
      drafts: await t.db.select({ id: designDrafts.id, body: designDrafts.body }).from(designDrafts).orderBy(designDrafts.id),
      shares: await t.db.select({ id: designShares.id, body: designShares.body }).from(designShares).orderBy(designShares.id),
      sessions: await t.db.select({ id: checkoutSessions.id, lines: checkoutSessions.lines }).from(checkoutSessions).orderBy(checkoutSessions.id),
      orders: await t.db.select({ id: orders.id, lines: orders.lines }).from(orders).orderBy(orders.id),
    })
    const now = await snapshot()
    const texts = [
      ...now.previews.map((r) => r.text),
      ...now.cartItems.map((r) => r.metadata.text),
      ...now.drafts.map((r) => r.body.text),
      ...now.shares.map((r) => r.body.text),
      ...now.sessions.flatMap((r) => r.lines.map((l) => l.text)),
      ...now.orders.flatMap((r) => r.lines.map((l) => l.text)),
    ].filter(Boolean)
    expect(texts.length).toBeGreaterThanOrEqual(8)

    // As the rows were before it: the left line alone, as `{ line, typeface, colour }`. A right-only text stays as it is.
    const oldShape = (text: unknown) => (text && typeof text === 'object' && 'left' in text ? (text as { left: unknown }).left : text)
    await t.db.execute(sql`update previews set text = text->'left' where text ? 'left'`)
    await t.db.execute(sql`update cart_items set metadata = jsonb_set(metadata, '{text}', metadata->'text'->'left') where metadata->'text' ? 'left'`)
    await t.db.execute(sql`update design_drafts set body = jsonb_set(body, '{text}', body->'text'->'left') where body->'text' ? 'left'`)
    await t.db.execute(sql`update design_shares set body = jsonb_set(body, '{text}', body->'text'->'left') where body->'text' ? 'left'`)
    for (const table of ['checkout_sessions', 'orders']) {
      await t.db.execute(
        sql.raw(`update ${table} set lines = (select jsonb_agg(case when l->'text' ? 'left' then jsonb_set(l, '{text}', l->'text'->'left') else l end order by i)
          from jsonb_array_elements(lines) with ordinality as e(l, i))`),
      )
    }
    const before = await snapshot()
    expect(before.orders.flatMap((r) => r.lines.map((l) => l.text)).filter(Boolean)).toEqual(
      now.orders.flatMap((r) => r.lines.map((l) => oldShape(l.text))).filter(Boolean),
    )

    await migrate()
    const after = await snapshot()
    const bothOf = (text: unknown) => {
      const old = oldShape(text) as { line?: string } | null | undefined
      return old && 'line' in old ? { left: old, right: old } : old
    }
    expect(after.previews).toEqual(now.previews.map((r) => ({ ...r, text: bothOf(r.text) ?? null })))
    expect(after.cartItems.map((r) => r.metadata.text)).toEqual(now.cartItems.map((r) => bothOf(r.metadata.text)))
    expect(after.cartItems.map((r) => ({ ...r.metadata, text: undefined }))).toEqual(now.cartItems.map((r) => ({ ...r.metadata, text: undefined })))
    expect(after.drafts.map((r) => r.body.text)).toEqual(now.drafts.map((r) => bothOf(r.body.text)))
    expect(after.shares.map((r) => r.body.text)).toEqual(now.shares.map((r) => bothOf(r.body.text)))
    expect(after.sessions.map((r) => r.lines.map((l) => l.text))).toEqual(now.sessions.map((r) => r.lines.map((l) => bothOf(l.text))))
    expect(after.orders.map((r) => r.lines.map((l) => l.text))).toEqual(now.orders.map((r) => r.lines.map((l) => bothOf(l.text))))
    expect(after.orders.map((r) => r.lines.length)).toEqual(now.orders.map((r) => r.lines.length))

    // Run again, it changes nothing: rows already in the new shape are left alone.
    await migrate()
    expect(await snapshot()).toEqual(after)
  })
})
