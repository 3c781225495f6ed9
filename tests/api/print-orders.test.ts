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
  t = await createTestApi({}, { print: new PrintifyProvider(client, { sleep }) })
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

async function buyOneStarPair() {
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
    json: cartItemOfGenerated(g, { quantity: 2 }),
  })
  expect(added.status, JSON.stringify(added.body)).toBe(201)
  const session = await t.request('/v1/photo-products-cart/checkout-session', { method: 'POST', cookie })
  const paid = await t.request(`/v1/checkout/local/${session.body.id}/pay`, {
    method: 'POST',
    cookie,
    json: { cardNumber: '4242424242424242', shippingAddress: address },
  })
  expect(paid.body.status).toBe('paid')
  return { productId: g.productId as string, orderId: paid.body.orderId as string }
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
      address_to: { first_name: 'Maya', last_name: 'de la Rivera', region: 'NY', zip: '10002', country: 'US', address1: '12 Orchard Street', city: 'New York' },
    })
    const order = (await t.request(`/v1/photo-products-orders/${orderId}`, { cookie })).body
    expect(order).toMatchObject({ status: 'submitted', provider: 'printify', providerOrderId: [...mock.orders.keys()][0] })
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
    expect((await t.db.select().from(orders)).length).toBe(3)
  })
})
