import { eq } from 'drizzle-orm'
import sharp from 'sharp'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { jobs, orderParcels, orders, previews } from '../../app/api/db/schema'
import { PrintifyClient, PrintifyProvider } from '../../app/api/providers/print/printify'
import { demoAccounts } from '../../app/api/demo/accounts'
import { fulfilmentJobs, ON_HOLD_ALARM_MINUTES } from '../../app/api/services/fulfilment'
import { drainJobs, jobBackoffMs } from '../../app/api/services/jobs'
import { printFileKey } from '../../app/api/services/print-files'
import { metrics } from '../../app/observability/metrics'
import { pseudoTemplates } from '../../app/catalogue/ornaments'
import { cartItemOfGenerated } from '../support/cart'
import { addAlbumPhotos } from '../support/photos'
import { createPrintifyMock, MOCK_PRINTIFY_SHOP_ID, MOCK_PRINTIFY_TOKEN, type PrintifyMock } from '../support/printify-mock'
import { createTestApi, TEST_ORIGIN, type TestApi } from '../support/test-api'

/** From a design rendered, through the cart and checkout, to one Printify order that carries its print files. */
const mock = createPrintifyMock()
const ordersPath = `/v1/shops/${MOCK_PRINTIFY_SHOP_ID}/orders.json`
const productsPath = `/v1/shops/${MOCK_PRINTIFY_SHOP_ID}/products.json`
let failNextOrderAfterProcessing = false
/** Printify takes the order, then the answer is lost (a 502 from a proxy): the case a naive retry prints twice. */
const flakyFetch: typeof fetch = async (input, init) => {
  const response = await mock.fetch(input as RequestInfo, init)
  const request = new Request(input as RequestInfo, init)
  if (failNextOrderAfterProcessing && request.method === 'POST' && new URL(request.url).pathname === ordersPath) {
    failNextOrderAfterProcessing = false
    return new Response('{"error":"Bad gateway"}', { status: 502, headers: { 'content-type': 'application/json' } })
  }
  return response
}
const sleep = async () => {}

let t: TestApi
let cookie: string
beforeAll(async () => {
  const client = new PrintifyClient({ apiToken: MOCK_PRINTIFY_TOKEN, shopId: MOCK_PRINTIFY_SHOP_ID, fetch: flakyFetch, sleep })
  t = await createTestApi({}, { print: new PrintifyProvider(client) })
  cookie = await t.signIn(0)
})
afterAll(() => t.close())

const address = {
  name: 'Maya de la Rivera',
  email: 'maya@example.com',
  phone: '2125550100',
  line1: '12 Orchard Street',
  line2: '',
  city: 'New York',
  state: 'NY',
  postalCode: '10002',
  country: 'US',
}

/** A star pair designed and put in the cart; answers its preview and the line. */
async function starPairInCart(quantity = 2, api: TestApi = t, as = cookie) {
  const photos = await addAlbumPhotos(api, demoAccounts[0].family.id, 2, undefined, { width: 480, height: 360 })
  const preview = await api.request('/v1/printify/generate-preview', {
    method: 'POST',
    cookie: as,
    json: {
      variantId: 72965,
      pseudoTemplateId: pseudoTemplates.star.id,
      backSideId: '72965-1',
      cells: photos.map((p, i) => ({ cellId: i ? 'star-right' : 'star-left', photoId: p.id, transform: { x: 0, y: 0, zoom: 1, rotation: 0 } })),
    },
  })
  expect(preview.status).toBe(201)
  const g = preview.body
  const added = await api.request('/v1/photo-products-cart/items', {
    method: 'POST',
    cookie: as,
    json: cartItemOfGenerated(g, { quantity }),
  })
  expect(added.status, JSON.stringify(added.body)).toBe(201)
  return { previewId: g.previewId as string, lineId: added.body.item.id as string }
}

/** The design's print files as the store keeps them (rendered for the order if the cart's job had not yet). */
async function storedPrintFiles(api: TestApi, previewId: string) {
  const [row] = await api.db.select().from(previews).where(eq(previews.id, previewId))
  const read = async (position: 'front' | 'back') => (await api.storage.get(printFileKey(row!, position)))!.body
  return { front: await read('front'), back: await read('back') }
}

/** The product made at Printify for one ordered line (tagged with its design), and the uploads on it. */
function productOfLine(on: PrintifyMock, productId: string) {
  const product = on.products.get(productId)!
  const uploadOf = (position: string) => {
    const id = product.print_areas[0]!.placeholders.find((p) => p.position === position)!.images[0]!.id as string
    const upload = on.uploads.get(id)!
    return Buffer.from((upload.source as { contents: string }).contents, 'base64')
  }
  return { product, front: uploadOf('front'), back: uploadOf('back') }
}

async function payCart(api: TestApi = t, as = cookie) {
  const session = await api.request('/v1/photo-products-cart/checkout-session', { method: 'POST', cookie: as })
  const paid = await api.request(`/v1/checkout/local/${session.body.id}/pay`, {
    method: 'POST',
    cookie: as,
    json: { cardNumber: '4242424242424242', shippingAddress: address },
  })
  expect(paid.body.status, JSON.stringify(paid.body)).toBe('paid')
  return paid.body.orderId as string
}

async function buyOneStarPair() {
  const { previewId } = await starPairInCart(2)
  return { previewId, orderId: await payCart() }
}

const ran = (outcomes: { kind: string; outcome: string }[]) => outcomes.map((o) => [o.kind, o.outcome])

describe('orders to Printify', () => {
  it('submits the order with our id as external_id, a product made from the design’s print files, the quantity and the address, then sends it to production', async () => {
    const { previewId, orderId } = await buyOneStarPair()
    // The hold is 0 minutes (ORDER_HOLD_MINUTES): the order goes to production as soon as Printify has it.
    expect(ran(await drainJobs(t.api.deps, fulfilmentJobs))).toEqual([
      ['submit-order', 'done'],
      ['send-to-production', 'done'],
    ])
    const creates = mock.callsTo('POST', ordersPath)
    expect(creates).toHaveLength(1)
    const [printifyOrder] = [...mock.orders.values()]
    const productId = printifyOrder!.line_items[0]!.product_id
    expect(creates[0]!.body).toMatchObject({
      external_id: orderId,
      line_items: [{ product_id: productId, variant_id: 72965, quantity: 2 }],
      shipping_method: 1,
      send_shipping_notification: false,
      address_to: { first_name: 'Maya', last_name: 'de la Rivera', region: 'NY', zip: '10002', country: 'US', address1: '12 Orchard Street', city: 'New York' },
    })
    // Printify cannot fetch http://localhost, so the design's print files went up by content and one product was made for the line.
    expect(mock.callsTo('POST', productsPath)).toHaveLength(1)
    expect(mock.callsTo('POST', '/v1/uploads/images.json')).toHaveLength(2)
    expect(mock.printFileUrls).toEqual([])
    const made = productOfLine(mock, productId)
    expect(made.product).toMatchObject({
      tags: [`keepsake-preview:${previewId}`],
      blueprint_id: 1186,
      print_provider_id: 228,
      variants: [{ id: 72965, price: 2499, is_enabled: true }],
    })
    expect(made.product.madeByOrder).toBeUndefined()
    const files = await storedPrintFiles(t, previewId)
    expect(made.front.equals(files.front)).toBe(true)
    expect(made.back.equals(files.back)).toBe(true)
    // The print file, at the print area's size (not the preview's display size).
    expect(await sharp(made.front).metadata()).toMatchObject({ width: 2670, height: 1519, format: 'png' })
    // Sent to production once, and the parcel keeps when.
    expect(mock.sentToProduction.get(printifyOrder!.id)).toBe(1)
    expect(printifyOrder!.status).toBe('in-production')
    const [parcel] = await t.db.select().from(orderParcels).where(eq(orderParcels.orderId, orderId))
    expect(parcel!.sentToProductionAt).toEqual(t.now())
    const order = (await t.request(`/v1/photo-products-orders/${orderId}`, { cookie })).body
    // Printify's own events (or the poll) move it on from here.
    expect(order).toMatchObject({ status: 'submitted', provider: 'printify', providerOrderId: printifyOrder!.id })
    // Printify is asked again in an hour whether production began.
    const [check] = await t.db
      .select()
      .from(jobs)
      .where(eq(jobs.dedupeKey, `check-production-started:${parcel!.id}`))
    expect(check).toMatchObject({ status: 'queued', runAt: new Date(t.now().getTime() + ON_HOLD_ALARM_MINUTES * 60_000) })
  })

  it('each parcel reaches Printify with the shipping method the shopper paid for, and Printify sends no e-mail of its own', async () => {
    const { previewId, lineId } = await starPairInCart(3)
    const saveAddress = async (entry: object) => {
      const res = await t.request('/v1/photo-products-addresses', { method: 'POST', cookie, json: entry })
      expect(res.status, JSON.stringify(res.body)).toBe(201)
      return res.body.id as string
    }
    const roseId = await saveAddress({
      label: 'Grandma Rose',
      name: 'Rose Rivera',
      line1: '4 Maple Court',
      city: 'Columbus',
      state: 'OH',
      postalCode: '43004',
      phone: '',
    })
    const juneId = await saveAddress({
      label: 'Aunt June',
      name: 'June Park',
      line1: '88 Pine Street',
      city: 'Sacramento',
      state: 'CA',
      postalCode: '95814',
      phone: '',
    })
    const parcels = await t.request('/v1/photo-products-cart/parcels', {
      method: 'PUT',
      cookie,
      json: {
        parcels: [
          { addressId: roseId, shippingMethod: 'express', items: [{ cartItemId: lineId, quantity: 1 }], recipientEmail: 'rose@example.org' },
          { addressId: juneId, shippingMethod: 'standard', items: [{ cartItemId: lineId, quantity: 1 }] },
        ],
      },
    })
    expect(parcels.status, JSON.stringify(parcels.body)).toBe(200)
    const own = await t.request('/v1/photo-products-cart/shipping', { method: 'PUT', cookie, json: { method: 'express' } })
    expect(own.status, JSON.stringify(own.body)).toBe(200)
    const before = mock.callsTo('POST', ordersPath).length
    const orderId = await payCart()
    await drainJobs(t.api.deps, fulfilmentJobs)
    const creates = mock.callsTo('POST', ordersPath).slice(before)
    const byRegion = Object.fromEntries(creates.map((c) => [(c.body as { address_to: { region: string } }).address_to.region, c.body]))
    expect(Object.keys(byRegion).sort()).toEqual(['CA', 'NY', 'OH'])
    // Printify: 1 standard, 2 priority, 3 Printify Express, 4 economy (decision 062: our express is Printify Express).
    const express = { shipping_method: 3, is_printify_express: true, send_shipping_notification: false }
    expect(byRegion.NY).toMatchObject({ external_id: orderId, ...express })
    expect(byRegion.OH).toMatchObject({ ...express, line_items: [{ variant_id: 72965, quantity: 1 }] })
    expect(byRegion.CA).toMatchObject({ shipping_method: 1, is_printify_express: false, send_shipping_notification: false })
    // Each parcel's line is a product made from this design's print files.
    const files = await storedPrintFiles(t, previewId)
    for (const region of ['NY', 'OH', 'CA']) {
      const [item] = (byRegion[region] as { line_items: { product_id: string }[] }).line_items
      const made = productOfLine(mock, item!.product_id)
      expect(made.product.tags, region).toEqual([`keepsake-preview:${previewId}`])
      expect(made.front.equals(files.front) && made.back.equals(files.back), region).toBe(true)
    }
    // What Printify recorded, as it would answer the order: each one sent to production once.
    const recorded = [...mock.orders.values()].filter((o) => creates.some((c) => (c.body as { external_id: string }).external_id === o.external_id))
    expect(recorded.map((o) => o.shipping_method).sort()).toEqual([1, 3, 3])
    expect(recorded.map((o) => [mock.sentToProduction.get(o.id), o.status])).toEqual(recorded.map(() => [1, 'in-production']))
  })

  it('an order Printify took whose answer was lost is found by external_id on the retry, never created (nor its product made) twice', async () => {
    const before = { orders: mock.orders.size, products: mock.products.size, uploads: mock.uploads.size }
    const { orderId } = await buyOneStarPair()
    failNextOrderAfterProcessing = true
    const first = await drainJobs(t.api.deps, fulfilmentJobs)
    expect(first).toEqual([expect.objectContaining({ kind: 'submit-order', outcome: 'retry' })])
    const taken = { orders: before.orders + 1, products: before.products + 1, uploads: before.uploads + 2 }
    expect({ orders: mock.orders.size, products: mock.products.size, uploads: mock.uploads.size }).toEqual(taken)
    const start = t.now()
    try {
      t.setNow(new Date(start.getTime() + jobBackoffMs(1)))
      expect(ran(await drainJobs(t.api.deps, fulfilmentJobs))).toEqual([
        ['submit-order', 'done'],
        ['send-to-production', 'done'],
      ])
    } finally {
      t.setNow(start)
    }
    expect({ orders: mock.orders.size, products: mock.products.size, uploads: mock.uploads.size }).toEqual(taken)
    const mine = [...mock.orders.values()].filter((o) => o.external_id === orderId)
    expect(mine).toHaveLength(1)
    expect(mock.sentToProduction.get(mine[0]!.id)).toBe(1)
    const order = (await t.request(`/v1/photo-products-orders/${orderId}`, { cookie })).body
    expect(order).toMatchObject({ status: 'submitted', providerOrderId: mine[0]!.id })
  })

  it('an order Printify still holds an hour after it was sent is an error someone sees (keepsake_print_orders_stuck_on_hold_total)', async () => {
    const stuck = async () => (await metrics().ordersStuckOnHold.get()).values.reduce((n, v) => n + v.value, 0)
    const { orderId } = await buyOneStarPair()
    const start = t.now()
    await drainJobs(t.api.deps, fulfilmentJobs)
    const [parcel] = await t.db.select().from(orderParcels).where(eq(orderParcels.orderId, orderId))
    const held = mock.orders.get(parcel!.providerOrderId!)!
    expect(mock.sentToProduction.get(held.id)).toBe(1)
    // Printify keeps it on hold all the same (an image it will not print, a shop setting).
    held.status = 'on-hold'
    const before = await stuck()
    try {
      t.setNow(new Date(start.getTime() + (ON_HOLD_ALARM_MINUTES - 1) * 60_000))
      expect(ran(await drainJobs(t.api.deps, fulfilmentJobs))).not.toContainEqual(['check-production-started', 'done'])
      expect(await stuck()).toBe(before)
      t.setNow(new Date(start.getTime() + (ON_HOLD_ALARM_MINUTES + 1) * 60_000))
      // The earlier tests' orders are checked too: Printify is making those, so only this one is an alarm.
      const checks = ran(await drainJobs(t.api.deps, fulfilmentJobs)).filter(([kind]) => kind === 'check-production-started')
      expect(checks.length).toBeGreaterThan(1)
      expect(checks.every(([, outcome]) => outcome === 'done')).toBe(true)
      expect(await stuck()).toBe(before + 1)
      // Printify was not asked to send it again.
      expect(mock.sentToProduction.get(held.id)).toBe(1)
    } finally {
      t.setNow(start)
    }
  })

  it('print files Printify can fetch (an https PUBLIC_URL): the line items carry their signed URLs, Printify makes the product, nothing is uploaded', async () => {
    const shop = createPrintifyMock()
    const client = new PrintifyClient({ apiToken: MOCK_PRINTIFY_TOKEN, shopId: MOCK_PRINTIFY_SHOP_ID, fetch: shop.fetch, sleep })
    const api = await createTestApi({ PUBLIC_URL: 'https://shop.keepsake-ornaments.com' }, { print: new PrintifyProvider(client) })
    try {
      const as = await api.signIn(0)
      const { previewId } = await starPairInCart(2, api, as)
      const orderId = await payCart(api, as)
      expect(ran(await drainJobs(api.api.deps, fulfilmentJobs))).toEqual([
        ['submit-order', 'done'],
        ['send-to-production', 'done'],
      ])
      const [printifyOrder] = [...shop.orders.values()]
      const urls = shop.printFileUrls
      expect(urls.map((u) => [u.orderId, u.position])).toEqual([
        [printifyOrder!.id, 'front'],
        [printifyOrder!.id, 'back'],
      ])
      for (const u of urls)
        expect(u.url).toMatch(
          new RegExp(`^https://shop\\.keepsake-ornaments\\.com/v1/media/print-files/${previewId}/${u.position}\\.png\\?expires=\\d+&signature=.+`),
        )
      const creates = shop.callsTo('POST', ordersPath)
      expect(creates).toHaveLength(1)
      expect(creates[0]!.body).toMatchObject({
        external_id: orderId,
        line_items: [{ blueprint_id: 1186, print_provider_id: 228, variant_id: 72965, quantity: 2, print_areas: { front: urls[0]!.url, back: urls[1]!.url } }],
      })
      expect(shop.callsTo('POST', '/v1/uploads/images.json')).toHaveLength(0)
      expect(shop.callsTo('POST', productsPath)).toHaveLength(0)
      expect(shop.products.get(printifyOrder!.line_items[0]!.product_id)?.madeByOrder).toBe(true)
      expect(shop.sentToProduction.get(printifyOrder!.id)).toBe(1)

      // Each URL serves the design's print file, as Printify fetches it (no session); a changed signature does not.
      const files = await storedPrintFiles(api, previewId)
      const fetchFile = (url: URL) => api.api.fetch(new Request(`${TEST_ORIGIN}${url.pathname}${url.search}`))
      for (const u of urls) {
        const res = await fetchFile(new URL(u.url))
        expect(res.status).toBe(200)
        expect(res.headers.get('content-type')).toBe('image/png')
        expect(Buffer.from(await res.arrayBuffer()).equals(files[u.position as 'front' | 'back'])).toBe(true)
      }
      const forged = new URL(urls[0]!.url)
      const signature = forged.searchParams.get('signature')!
      forged.searchParams.set('signature', `${signature.slice(0, -1)}${signature.endsWith('A') ? 'B' : 'A'}`)
      expect((await fetchFile(forged)).status).toBe(403)
      // The back's signature does not open the front.
      const swapped = new URL(urls[0]!.url)
      swapped.search = new URL(urls[1]!.url).search
      expect((await fetchFile(swapped)).status).toBe(403)
      // And a URL is good for PRINT_FILE_URL_DAYS only.
      api.setNow(new Date(api.now().getTime() + (api.config.printFileUrlDays * 24 + 1) * 3600_000))
      expect((await fetchFile(new URL(urls[0]!.url))).status).toBe(403)
    } finally {
      await api.close()
    }
  })

  it('an order that keeps failing is marked submission_failed after its last attempt', async () => {
    const ordersBefore = (await t.db.select().from(orders)).length
    const { orderId } = await buyOneStarPair()
    const start = t.now()
    try {
      let outcome
      for (let attempt = 1; attempt <= 8; attempt++) {
        mock.serverErrorNext(4, { status: 500 })
        ;[outcome] = await drainJobs(t.api.deps, fulfilmentJobs)
        t.setNow(new Date(t.now().getTime() + jobBackoffMs(attempt)))
      }
      expect(outcome).toMatchObject({ outcome: 'failed' })
      const order = (await t.request(`/v1/photo-products-orders/${orderId}`, { cookie })).body
      expect(order.status).toBe('submission_failed')
      expect(mock.orders.size).toBeGreaterThan(0)
      expect([...mock.orders.values()].filter((o) => o.external_id === orderId)).toHaveLength(0)
    } finally {
      t.setNow(start)
    }
    expect((await t.db.select().from(orders)).length).toBe(ordersBefore + 1)
  })
})
