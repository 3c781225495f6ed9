import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { checkoutSessions, orders } from '../../app/api/db/schema'
import { createStripeClient, StripePaymentProvider } from '../../app/api/providers/payments/stripe'
import { demoAccounts } from '../../app/api/demo/accounts'
import { PrintifyClient, PrintifyProvider } from '../../app/api/providers/print/printify'
import { fulfilmentJobs } from '../../app/api/services/fulfilment'
import { drainJobs } from '../../app/api/services/jobs'
import { QUOTE_RETRY_AFTER_MS, QUOTE_TTL_MS } from '../../app/api/services/shipping-quotes'
import { pseudoTemplates } from '../../app/catalogue/ornaments'
import { shippingMethods } from '../../app/catalogue/shipping'
import { cartItemFor, cartItemOfGenerated, recordPreview } from '../support/cart'
import { addAlbumPhotos } from '../support/photos'
import {
  createPrintifyMock,
  MOCK_ORNAMENT_BLUEPRINT,
  MOCK_ORNAMENT_PROVIDER,
  MOCK_PRINTIFY_SHOP_ID,
  MOCK_PRINTIFY_TOKEN,
  type PrintifyMock,
} from '../support/printify-mock'
import { createStripeMock, MOCK_STRIPE_SECRET_KEY, MOCK_STRIPE_WEBHOOK_SECRET, type StripeMockServer } from '../support/stripe-mock'
import { createTestApi, type TestApi } from '../support/test-api'

/**
 * Issue 42, item 1 (decision 072): with Printify, each parcel's shipping is what Printify quotes for its variants,
 * country and method, cached; a method Printify does not list is not offered and is refused at checkout; when
 * Printify cannot answer, the store's table prices the parcel.
 */
const STAR = 72965
const ordersPath = `/v1/shops/${MOCK_PRINTIFY_SHOP_ID}/orders.json`
const quoteCalls = (mock: PrintifyMock) => mock.callsTo('GET', /^\/v2\/catalog\//).length
const sleep = async () => {}

const payingAddress = {
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

/** A store on the Printify stand-in, with one shopper signed in. */
async function printifyStore() {
  const mock = createPrintifyMock()
  const client = new PrintifyClient({ apiToken: MOCK_PRINTIFY_TOKEN, shopId: MOCK_PRINTIFY_SHOP_ID, fetch: mock.fetch, sleep })
  const t = await createTestApi({}, { print: new PrintifyProvider(client) })
  const cookie = await t.signIn(0)
  return { mock, t, cookie }
}

/** `quantity` star pairs designed (Printify is not asked: it hears of the design at the order) and put in the cart; answers the line and its preview. */
async function starPairsInCart(t: TestApi, cookie: string, quantity: number) {
  const photos = await addAlbumPhotos(t, demoAccounts[0].family.id, 2, undefined, { width: 480, height: 360 })
  const preview = await t.request('/v1/printify/generate-preview', {
    method: 'POST',
    cookie,
    json: {
      variantId: STAR,
      pseudoTemplateId: pseudoTemplates.star.id,
      backSideId: `${STAR}-1`,
      cells: photos.map((p, i) => ({ cellId: i ? 'star-right' : 'star-left', photoId: p.id, transform: { x: 0, y: 0, zoom: 1, rotation: 0 } })),
    },
  })
  expect(preview.status).toBe(201)
  const added = await t.request('/v1/photo-products-cart/items', { method: 'POST', cookie, json: cartItemOfGenerated(preview.body, { quantity }) })
  expect(added.status, JSON.stringify(added.body)).toBe(201)
  return { lineId: added.body.item.id as string, previewId: preview.body.previewId as string }
}

async function saveAddress(t: TestApi, cookie: string, entry: object) {
  const res = await t.request('/v1/photo-products-addresses', { method: 'POST', cookie, json: { phone: '', ...entry } })
  expect(res.status, JSON.stringify(res.body)).toBe(201)
  return res.body.id as string
}

async function pay(t: TestApi, cookie: string, sessionId: string) {
  const paid = await t.request(`/v1/checkout/local/${sessionId}/pay`, {
    method: 'POST',
    cookie,
    json: { cardNumber: '4242424242424242', shippingAddress: payingAddress },
  })
  expect(paid.body.status, JSON.stringify(paid.body)).toBe('paid')
  return paid.body.orderId as string
}

describe('shipping priced from Printify’s quotes', () => {
  let store: Awaited<ReturnType<typeof printifyStore>>
  beforeAll(async () => {
    store = await printifyStore()
  })
  afterAll(() => store.t.close())

  it('three parcels (standard, express, standard) are charged what Printify quotes, the cache keeps the calls down, and each order reaches Printify by its method', async () => {
    const { mock, t, cookie } = store
    // The stand-in quotes other prices than the table (standard 5.99, express 14.99); the store has no economy method.
    mock.setShippingRates(MOCK_ORNAMENT_BLUEPRINT, MOCK_ORNAMENT_PROVIDER, 'standard', [
      { variantId: STAR, country: 'US', firstItem: 450, additionalItems: 125 },
      { variantId: STAR, country: 'REST_OF_THE_WORLD', firstItem: 1100, additionalItems: 500 },
    ])
    mock.setShippingRates(MOCK_ORNAMENT_BLUEPRINT, MOCK_ORNAMENT_PROVIDER, 'express', [
      { variantId: STAR, country: 'US', firstItem: 1250, additionalItems: 300 },
    ])
    const { lineId, previewId } = await starPairsInCart(t, cookie, 4)
    expect(mock.callsTo('POST', /^\/v1\//)).toEqual([])
    const roseId = await saveAddress(t, cookie, {
      label: 'Grandma Rose',
      name: 'Rose Rivera',
      line1: '4 Maple Court',
      city: 'Columbus',
      state: 'OH',
      postalCode: '43004',
    })
    const juneId = await saveAddress(t, cookie, {
      label: 'Aunt June',
      name: 'June Park',
      line1: '88 Pine Street',
      city: 'Sacramento',
      state: 'CA',
      postalCode: '95814',
    })
    const parcels = await t.request('/v1/photo-products-cart/parcels', {
      method: 'PUT',
      cookie,
      json: {
        parcels: [
          { addressId: roseId, shippingMethod: 'express', items: [{ cartItemId: lineId, quantity: 1 }] },
          { addressId: juneId, shippingMethod: 'standard', items: [{ cartItemId: lineId, quantity: 1 }] },
        ],
      },
    })
    expect(parcels.status, JSON.stringify(parcels.body)).toBe(200)

    // The own parcel holds two pairs (49.98, under free shipping): 4.50 + 1.25; Rose's express 12.50; June's 4.50.
    const expected = { own: 575, [roseId]: 1250, [juneId]: 450 }
    const cart = await t.request('/v1/photo-products-cart', { cookie })
    expect(cart.status).toBe(200)
    const byKey = Object.fromEntries(cart.body.totals.parcels.map((p: { key: string; shippingCents: number }) => [p.key, p.shippingCents]))
    expect(byKey).toEqual(expected)
    expect(cart.body.totals.shippingCents).toBe(575 + 1250 + 450)
    expect(cart.body.shippingOptions).toEqual([
      { method: 'standard', priceCents: 575 },
      { method: 'express', priceCents: 1250 + 300 },
    ])
    expect(575).not.toBe(shippingMethods.standard.priceCents)
    expect(1250).not.toBe(shippingMethods.express.priceCents)

    // One request per method answers every variant and address; a second cart view and the checkout ask nothing more.
    const asked = quoteCalls(mock)
    expect(asked).toBeGreaterThan(0)
    expect(asked).toBeLessThanOrEqual(2)
    expect((await t.request('/v1/photo-products-cart', { cookie })).body.totals).toEqual(cart.body.totals)
    const session = await t.request('/v1/photo-products-cart/checkout-session', { method: 'POST', cookie })
    expect(session.status, JSON.stringify(session.body)).toBe(201)
    expect(session.body.totals.shippingCents).toBe(575 + 1250 + 450)
    const before = mock.callsTo('POST', ordersPath).length
    const orderId = await pay(t, cookie, session.body.id)
    expect(quoteCalls(mock)).toBe(asked)

    const order = (await t.request(`/v1/photo-products-orders/${orderId}`, { cookie })).body
    expect(order.totals.shippingCents).toBe(575 + 1250 + 450)
    expect(Object.fromEntries(order.totals.parcels.map((p: { key: string; shippingCents: number }) => [p.key, p.shippingCents]))).toEqual(expected)
    const o = order.totals
    // Paying taxed the own parcel for the address given; the shipping in the total is still the quote.
    expect(o.totalCents).toBe(o.subtotalCents - o.saleSavingsCents - o.bundleSavingsCents - o.creditsCents + o.shippingCents + o.taxCents)

    await drainJobs(t.api.deps, fulfilmentJobs)
    const creates = mock.callsTo('POST', ordersPath).slice(before)
    const byRegion = Object.fromEntries(creates.map((c) => [(c.body as { address_to: { region: string } }).address_to.region, c.body]))
    expect(Object.keys(byRegion).sort()).toEqual(['CA', 'NY', 'OH'])
    expect(byRegion.NY).toMatchObject({ shipping_method: 1, is_printify_express: false, line_items: [{ variant_id: STAR, quantity: 2 }] })
    expect(byRegion.OH).toMatchObject({ shipping_method: 3, is_printify_express: true, line_items: [{ variant_id: STAR, quantity: 1 }] })
    expect(byRegion.CA).toMatchObject({ shipping_method: 1, is_printify_express: false, line_items: [{ variant_id: STAR, quantity: 1 }] })
    // Each parcel's line is a product made for the order from this design's print files (uploaded by content: Printify cannot
    // reach localhost), and each order went to production once its hold was over.
    for (const region of ['NY', 'OH', 'CA']) {
      const [item] = (byRegion[region] as { line_items: { product_id: string }[] }).line_items
      expect(mock.products.get(item!.product_id)?.tags, region).toEqual([`keepsake-preview:${previewId}`])
    }
    const sent = [...mock.orders.values()].filter((o) => creates.some((c) => (c.body as { external_id: string }).external_id === o.external_id))
    expect(sent.map((o) => mock.sentToProduction.get(o.id))).toEqual([1, 1, 1])
  })

  it('a method Printify no longer lists for the variant is not offered, and a parcel sent by it is refused at checkout, changing nothing', async () => {
    const { mock, t, cookie } = store
    const { lineId } = await starPairsInCart(t, cookie, 1)
    const roseId = (await t.request('/v1/photo-products-addresses', { cookie })).body.addresses.find((a: { label: string }) => a.label === 'Grandma Rose').id
    const parcels = await t.request('/v1/photo-products-cart/parcels', {
      method: 'PUT',
      cookie,
      json: { parcels: [{ addressId: roseId, shippingMethod: 'express', items: [{ cartItemId: lineId, quantity: 1 }] }] },
    })
    expect(parcels.status, JSON.stringify(parcels.body)).toBe(200)
    // Printify stops shipping the star by express to the US (its express list names other variants only).
    mock.setShippingRates(MOCK_ORNAMENT_BLUEPRINT, MOCK_ORNAMENT_PROVIDER, 'express', [
      { variantId: 72963, country: 'US', firstItem: 1250, additionalItems: 300 },
    ])
    const start = t.now()
    try {
      t.setNow(new Date(start.getTime() + QUOTE_TTL_MS + 1))
      const cart = await t.request('/v1/photo-products-cart', { cookie })
      expect(cart.body.parcels[0].shippingOptions.map((o: { method: string }) => o.method)).toEqual(['standard'])
      const sessionsBefore = await t.db.select().from(checkoutSessions)
      const refused = await t.request('/v1/photo-products-cart/checkout-session', { method: 'POST', cookie })
      expect(refused.status, JSON.stringify(refused.body)).toBe(409)
      expect(refused.body.error.message).toMatch(/Express to Grandma Rose is no longer offered/)
      expect(await t.db.select().from(checkoutSessions)).toEqual(sessionsBefore)
      expect((await t.request('/v1/photo-products-cart', { cookie })).body).toEqual(cart.body)
      // Choosing express again for the parcel is refused the same way; standard is taken, and the checkout opens.
      const choose = (shippingMethod: string) =>
        t.request('/v1/photo-products-cart/parcels', {
          method: 'PUT',
          cookie,
          json: { parcels: [{ addressId: roseId, shippingMethod, items: [{ cartItemId: lineId, quantity: 1 }] }] },
        })
      const again = await choose('express')
      expect(again.status, JSON.stringify(again.body)).toBe(409)
      expect((await t.request('/v1/photo-products-cart', { cookie })).body).toEqual(cart.body)
      expect((await choose('standard')).status).toBe(200)
      expect((await t.request('/v1/photo-products-cart/checkout-session', { method: 'POST', cookie })).status).toBe(201)
    } finally {
      t.setNow(start)
    }
  })
})

describe('shipping when Printify cannot quote', () => {
  let store: Awaited<ReturnType<typeof printifyStore>>
  beforeAll(async () => {
    store = await printifyStore()
  })
  afterAll(() => store.t.close())

  it('prices every parcel from the store’s table when the stand-in fails, and charges that', async () => {
    const { mock, t, cookie } = store
    mock.failCatalog(503)
    await starPairsInCart(t, cookie, 1)
    await t.request('/v1/photo-products-cart/shipping', { method: 'PUT', cookie, json: { method: 'express' } })
    const cart = await t.request('/v1/photo-products-cart', { cookie })
    expect(cart.body.totals.shippingCents).toBe(shippingMethods.express.priceCents)
    expect(cart.body.shippingOptions).toEqual([
      { method: 'standard', priceCents: shippingMethods.standard.priceCents },
      { method: 'express', priceCents: shippingMethods.express.priceCents },
    ])
    const asked = quoteCalls(mock)
    expect(asked).toBeGreaterThan(0)
    // An outage is not asked again on every view: for a minute, the table answers without a request.
    expect((await t.request('/v1/photo-products-cart', { cookie })).body.totals).toEqual(cart.body.totals)
    expect(quoteCalls(mock)).toBe(asked)
    // Past that minute Printify is asked again; unreachable, the table still prices the checkout.
    mock.failCatalog('network')
    t.setNow(new Date(t.now().getTime() + QUOTE_RETRY_AFTER_MS + 1))
    const session = await t.request('/v1/photo-products-cart/checkout-session', { method: 'POST', cookie })
    expect(session.status, JSON.stringify(session.body)).toBe(201)
    expect(session.body.totals.shippingCents).toBe(shippingMethods.express.priceCents)
    const orderId = await pay(t, cookie, session.body.id)
    const order = (await t.request(`/v1/photo-products-orders/${orderId}`, { cookie })).body
    expect(order.totals.shippingCents).toBe(shippingMethods.express.priceCents)
    expect(quoteCalls(mock)).toBeGreaterThan(asked)
  })
})

describe('Printify’s quotes through Stripe Checkout', () => {
  let t: TestApi
  const clock = () => (t ? t.now().getTime() : Date.parse('2026-11-22T12:00:00Z'))
  const stripeMock = createStripeMock({ now: clock })
  let server: StripeMockServer
  let cookie: string
  const printify = createPrintifyMock()
  beforeAll(async () => {
    server = await stripeMock.listen()
    const stripe = createStripeClient({ secretKey: MOCK_STRIPE_SECRET_KEY, ...server.endpoint })
    const client = new PrintifyClient({ apiToken: MOCK_PRINTIFY_TOKEN, shopId: MOCK_PRINTIFY_SHOP_ID, fetch: printify.fetch, sleep })
    t = await createTestApi(
      { STRIPE_SECRET_KEY: MOCK_STRIPE_SECRET_KEY, STRIPE_WEBHOOK_SECRET: MOCK_STRIPE_WEBHOOK_SECRET },
      { payments: new StripePaymentProvider(stripe, { now: clock }), print: new PrintifyProvider(client) },
    )
    cookie = await t.signIn(0)
  })
  afterAll(async () => {
    await t.close()
    await server.close()
  })

  it('the shipping Stripe is asked to charge, for the own parcel and a parcel to the book, is the quote, and so is the order’s', async () => {
    const TREE = 72963
    printify.setShippingRates(MOCK_ORNAMENT_BLUEPRINT, MOCK_ORNAMENT_PROVIDER, 'standard', [
      { variantId: TREE, country: 'US', firstItem: 475, additionalItems: 150 },
    ])
    printify.setShippingRates(MOCK_ORNAMENT_BLUEPRINT, MOCK_ORNAMENT_PROVIDER, 'express', [
      { variantId: TREE, country: 'US', firstItem: 1325, additionalItems: 400 },
    ])
    const preview = await recordPreview(t, t.users[0].id, 'tree')
    const added = await t.request('/v1/photo-products-cart/items', { method: 'POST', cookie, json: { ...cartItemFor(preview), quantity: 2 } })
    expect(added.status, JSON.stringify(added.body)).toBe(201)
    const roseId = await saveAddress(t, cookie, {
      label: 'Grandma Rose',
      name: 'Rose Rivera',
      line1: '4 Maple Court',
      city: 'Columbus',
      state: 'OH',
      postalCode: '43004',
    })
    const parcels = await t.request('/v1/photo-products-cart/parcels', {
      method: 'PUT',
      cookie,
      json: { parcels: [{ addressId: roseId, shippingMethod: 'express', items: [{ cartItemId: added.body.item.id, quantity: 1 }] }] },
    })
    expect(parcels.status, JSON.stringify(parcels.body)).toBe(200)
    const res = await t.request('/v1/photo-products-cart/checkout-session', { method: 'POST', cookie })
    expect(res.status, JSON.stringify(res.body)).toBe(201)
    expect(res.body.totals.parcels.map((p: { shippingCents: number }) => p.shippingCents)).toEqual([475, 1325])
    const stripeId = (await t.db.select().from(checkoutSessions).where(eq(checkoutSessions.id, res.body.id)))[0]!.providerSessionId!
    const [create] = stripeMock.callsTo('POST', '/v1/checkout/sessions').slice(-1)
    const items = create!.body.line_items as { price_data: { unit_amount: string; product_data: { name: string } } }[]
    expect(items.find((i) => i.price_data.product_data.name === 'Express shipping · to Grandma Rose')?.price_data.unit_amount).toBe('1325')
    const session = stripeMock.sessions.get(stripeId)!
    expect(session.shipping_options.map((o) => o.shipping_amount)).toEqual([475])

    stripeMock.complete(stripeId, { shipping: { state: 'TX', city: 'Austin', postalCode: '78701' } })
    const event = stripeMock.event('checkout.session.completed', stripeId)
    const delivered = await t.api.fetch(
      new Request('http://localhost:3000/v1/webhooks/stripe', {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'stripe-signature': event.signatureHeader },
        body: event.rawBody,
      }),
    )
    expect(delivered.status).toBe(200)
    const [order] = await t.db.select().from(orders)
    expect(order!.totals.shippingCents).toBe(475 + 1325)
    expect(order!.totals.totalCents).toBe(stripeMock.sessions.get(stripeId)!.amount_total)
  })
})
