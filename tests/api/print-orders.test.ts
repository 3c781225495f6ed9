import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { orders } from '../../app/api/db/schema'
import { PrintifyClient, PrintifyProvider } from '../../app/api/providers/print/printify'
import { demoAccounts } from '../../app/api/demo/accounts'
import { fulfilmentJobs } from '../../app/api/services/fulfilment'
import { drainJobs, jobBackoffMs } from '../../app/api/services/jobs'
import { pseudoTemplates } from '../../app/catalogue/ornaments'
import { cartItemOfGenerated } from '../support/cart'
import { addAlbumPhotos } from '../support/photos'
import { createPrintifyMock, MOCK_PRINTIFY_SHOP_ID, MOCK_PRINTIFY_TOKEN } from '../support/printify-mock'
import { createTestApi, type TestApi } from '../support/test-api'

/** From a design rendered and sent to Printify, through the cart and checkout, to one Printify order. */
const mock = createPrintifyMock()
const ordersPath = `/v1/shops/${MOCK_PRINTIFY_SHOP_ID}/orders.json`
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

/** A star pair made and put in the cart through Printify (its product is the mock's); answers the product and the line. */
async function starPairInCart(quantity = 2) {
  const photos = await addAlbumPhotos(t, demoAccounts[0].family.id, 2, undefined, { width: 480, height: 360 })
  const preview = await t.request('/v1/printify/generate-preview', {
    method: 'POST',
    cookie,
    json: {
      variantId: 72965,
      pseudoTemplateId: pseudoTemplates.star.id,
      backSideId: '72965-1',
      cells: photos.map((p, i) => ({ cellId: i ? 'star-right' : 'star-left', photoId: p.id, transform: { x: 0, y: 0, zoom: 1, rotation: 0 } })),
    },
  })
  expect(preview.status).toBe(201)
  const g = preview.body
  const added = await t.request('/v1/photo-products-cart/items', {
    method: 'POST',
    cookie,
    json: cartItemOfGenerated(g, { quantity }),
  })
  expect(added.status, JSON.stringify(added.body)).toBe(201)
  return { productId: g.productId as string, lineId: added.body.item.id as string }
}

async function payCart() {
  const session = await t.request('/v1/photo-products-cart/checkout-session', { method: 'POST', cookie })
  const paid = await t.request(`/v1/checkout/local/${session.body.id}/pay`, {
    method: 'POST',
    cookie,
    json: { cardNumber: '4242424242424242', shippingAddress: address },
  })
  expect(paid.body.status, JSON.stringify(paid.body)).toBe('paid')
  return paid.body.orderId as string
}

async function buyOneStarPair() {
  const { productId } = await starPairInCart(2)
  return { productId, orderId: await payCart() }
}

describe('orders to Printify', () => {
  it('submits the order with our id as external_id, the preview’s product, the quantity and the address', async () => {
    const { productId, orderId } = await buyOneStarPair()
    await drainJobs(t.api.deps, fulfilmentJobs)
    const creates = mock.callsTo('POST', ordersPath)
    expect(creates).toHaveLength(1)
    expect(creates[0]!.body).toMatchObject({
      external_id: orderId,
      line_items: [{ product_id: productId, variant_id: 72965, quantity: 2 }],
      shipping_method: 1,
      send_shipping_notification: false,
      address_to: { first_name: 'Maya', last_name: 'de la Rivera', region: 'NY', zip: '10002', country: 'US', address1: '12 Orchard Street', city: 'New York' },
    })
    const order = (await t.request(`/v1/photo-products-orders/${orderId}`, { cookie })).body
    expect(order).toMatchObject({ status: 'submitted', provider: 'printify', providerOrderId: [...mock.orders.keys()][0] })
  })

  it('each parcel reaches Printify with the shipping method the shopper paid for, and Printify sends no e-mail of its own', async () => {
    const { productId, lineId } = await starPairInCart(3)
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
    expect(byRegion.OH).toMatchObject({ ...express, line_items: [{ product_id: productId, quantity: 1 }] })
    expect(byRegion.CA).toMatchObject({ shipping_method: 1, is_printify_express: false, send_shipping_notification: false })
    // What Printify recorded, as it would answer the order.
    expect(
      [...mock.orders.values()]
        .filter((o) => o.external_id.length > 0 && creates.some((c) => (c.body as { external_id: string }).external_id === o.external_id))
        .map((o) => o.shipping_method)
        .sort(),
    ).toEqual([1, 3, 3])
  })

  it('an order Printify took whose answer was lost is found by external_id on the retry, never created twice', async () => {
    const before = mock.orders.size
    const { orderId } = await buyOneStarPair()
    failNextOrderAfterProcessing = true
    const first = await drainJobs(t.api.deps, fulfilmentJobs)
    expect(first).toEqual([expect.objectContaining({ kind: 'submit-order', outcome: 'retry' })])
    expect(mock.orders.size).toBe(before + 1)
    const start = t.now()
    try {
      t.setNow(new Date(start.getTime() + jobBackoffMs(1)))
      expect(await drainJobs(t.api.deps, fulfilmentJobs)).toEqual([expect.objectContaining({ kind: 'submit-order', outcome: 'done' })])
    } finally {
      t.setNow(start)
    }
    expect(mock.orders.size).toBe(before + 1)
    const mine = [...mock.orders.values()].filter((o) => o.external_id === orderId)
    expect(mine).toHaveLength(1)
    const order = (await t.request(`/v1/photo-products-orders/${orderId}`, { cookie })).body
    expect(order).toMatchObject({ status: 'submitted', providerOrderId: mine[0]!.id })
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
