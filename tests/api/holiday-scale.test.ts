/**
 * Issue 50 at the boundary where it is kept, a Printify stand-in that records every call: previews reach no provider;
 * a paid order carries its print files (signed URLs Printify can fetch for days, or one product made by the order when
 * it cannot reach them) and is sent to production exactly once when its hold ends; a cancel within the hold cancels at
 * Printify; an order Printify still holds an hour later is an error with a metric.
 */
import { eq } from 'drizzle-orm'
import sharp from 'sharp'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { orderParcels, previews } from '../../app/api/db/schema'
import { demoAccounts } from '../../app/api/demo/accounts'
import { PrintifyClient, PrintifyProvider } from '../../app/api/providers/print/printify'
import { refundOrder } from '../../app/api/services/checkout'
import { fulfilmentJobs } from '../../app/api/services/fulfilment'
import { drainJobs } from '../../app/api/services/jobs'
import { printFileJobs, printFileKey, printFileRenders } from '../../app/api/services/print-files'
import { outputSize } from '../../app/compositor/layout'
import { pseudoTemplates } from '../../app/catalogue/ornaments'
import { metrics } from '../../app/observability/metrics'
import { cartItemOfGenerated, testAddress } from '../support/cart'
import { addAlbumPhotos } from '../support/photos'
import { createPrintifyMock, MOCK_PRINTIFY_SHOP_ID, MOCK_PRINTIFY_TOKEN, type PrintifyMock } from '../support/printify-mock'
import { createTestApi, type TestApi } from '../support/test-api'

/** A public https origin: Printify can fetch the print files from it. */
const PUBLIC_ORIGIN = 'https://shop.keepsake-ornaments.com'

type Store = { t: TestApi; mock: PrintifyMock; cookie: string }

async function storeWith(env: Record<string, string>): Promise<Store> {
  const mock = createPrintifyMock()
  const client = new PrintifyClient({ apiToken: MOCK_PRINTIFY_TOKEN, shopId: MOCK_PRINTIFY_SHOP_ID, fetch: mock.fetch, sleep: async () => {} })
  const t = await createTestApi(env, { print: new PrintifyProvider(client) })
  return { t, mock, cookie: await t.signIn(0) }
}

async function preview({ t, cookie }: Store, photos: { id: string }[], k: number) {
  const res = await t.request('/v1/printify/generate-preview', {
    method: 'POST',
    cookie,
    json: {
      variantId: 72965,
      pseudoTemplateId: pseudoTemplates.star.id,
      backSideId: '72965-1',
      cells: ['star-left', 'star-right'].map((cellId, i) => ({
        cellId,
        photoId: photos[(k + i) % photos.length]!.id,
        transform: { x: 0, y: 0, zoom: 1, rotation: 0 },
      })),
    },
  })
  expect(res.status, JSON.stringify(res.body)).toBe(201)
  return res.body as Record<string, any>
}

async function buy(store: Store, made: Record<string, any>) {
  const { t, cookie } = store
  const added = await t.request('/v1/photo-products-cart/items', { method: 'POST', cookie, json: cartItemOfGenerated(made) })
  expect(added.status, JSON.stringify(added.body)).toBe(201)
  const session = await t.request('/v1/photo-products-cart/checkout-session', { method: 'POST', cookie })
  expect(session.status, JSON.stringify(session.body)).toBe(201)
  const paid = await t.request(`/v1/checkout/local/${session.body.id}/pay`, {
    method: 'POST',
    cookie,
    json: { cardNumber: '4242424242424242', shippingAddress: testAddress },
  })
  expect(paid.body.status, JSON.stringify(paid.body)).toBe('paid')
  return paid.body.orderId as string
}

const jobs = { ...fulfilmentJobs, ...printFileJobs }
const parcelOf = async (t: TestApi, orderId: string) => (await t.db.select().from(orderParcels).where(eq(orderParcels.orderId, orderId)))[0]!

describe('Printify sees orders, not previews (PUBLIC_URL Printify can reach)', () => {
  let store: Store
  beforeAll(async () => {
    store = await storeWith({ PUBLIC_URL: PUBLIC_ORIGIN })
  })
  afterAll(() => store.t.close())

  it('five previews make no call to Printify; the paid one reaches it with its print files by signed URL and goes to production once', async () => {
    const { t, mock } = store
    const photos = await addAlbumPhotos(t, demoAccounts[0].family.id, 6, undefined, { width: 480, height: 360 })
    const made = []
    for (let k = 0; k < 5; k++) made.push(await preview(store, photos, k))
    // Not one call: no product, no upload, no mockup poll.
    expect(mock.calls).toHaveLength(0)
    expect(mock.products.size).toBe(0)
    expect(mock.uploads.size).toBe(0)
    // The answer keeps the SPEC's shape: productId (the store's own) and the store's mockups.
    expect(made[0]).toMatchObject({
      productId: made[0]!.previewId,
      images: [expect.stringMatching(/mockup-front\.jpg$/), expect.stringMatching(/mockup-back\.jpg$/)],
    })

    const bought = made[4]!
    const rendersBefore = printFileRenders()
    const orderId = await buy(store, bought)
    await drainJobs(t.api.deps, jobs)
    // One print render for the design bought, none for the four only previewed.
    expect(printFileRenders() - rendersBefore).toBe(1)

    const creates = mock.callsTo('POST', `/v1/shops/${MOCK_PRINTIFY_SHOP_ID}/orders.json`)
    expect(creates).toHaveLength(1)
    const [line] = (creates[0]!.body as { line_items: Record<string, any>[] }).line_items
    expect(line).toMatchObject({ blueprint_id: 1186, print_provider_id: 228, variant_id: 72965, quantity: 1 })
    expect(Object.keys(line!.print_areas).sort()).toEqual(['back', 'front'])
    // Still no product of the store's own and no upload: the order made the product, which Printify does not limit.
    expect(mock.callsTo('POST', `/v1/shops/${MOCK_PRINTIFY_SHOP_ID}/products.json`)).toHaveLength(0)
    expect(mock.callsTo('POST', '/v1/uploads/images.json')).toHaveLength(0)

    // Each URL Printify received is signed, lasts days, and serves the print file at the print area's size.
    for (const [position, url] of Object.entries(line!.print_areas as Record<string, string>)) {
      const parsed = new URL(url)
      expect(parsed.origin).toBe(PUBLIC_ORIGIN)
      expect(parsed.pathname).toBe(`/v1/media/print-files/${bought.previewId}/${position}.png`)
      const expires = Number(parsed.searchParams.get('expires')) * 1000
      expect(expires - t.now().getTime()).toBeGreaterThanOrEqual(13 * 24 * 3600_000)
      const served = await t.request(`${parsed.pathname}${parsed.search}`)
      expect(served.status).toBe(200)
      const row = (await t.db.select().from(previews).where(eq(previews.id, bought.previewId)))[0]!
      const stored = await t.storage.get(printFileKey(row, position as 'front' | 'back'))
      expect(served.headers.get('content-type')).toBe('image/png')
      expect(Number(served.headers.get('content-length'))).toBe(stored!.body.length)
      if (position === 'front') {
        const size = await sharp(stored!.body).metadata()
        expect({ width: size.width, height: size.height }).toEqual(outputSize(pseudoTemplates.star, 1))
      }
    }

    // Sent to production exactly once, recorded on the parcel; draining again sends nothing more.
    const providerOrderId = [...mock.orders.keys()][0]!
    expect(mock.sentToProduction.get(providerOrderId)).toBe(1)
    expect((await parcelOf(t, orderId)).sentToProductionAt).not.toBeNull()
    await drainJobs(t.api.deps, jobs)
    expect(mock.sentToProduction.get(providerOrderId)).toBe(1)
    expect(mock.orders.get(providerOrderId)!.status).toBe('in-production')
  })

  it('a print file link that is not signed, is signed for another file, or has expired is refused 403 and serves nothing', async () => {
    const { t } = store
    const photos = await addAlbumPhotos(t, demoAccounts[0].family.id, 2, undefined, { width: 480, height: 360 })
    const made = await preview(store, photos, 0)
    const { signedPrintFileUrl } = await import('../../app/api/services/print-files')
    const good = new URL(await signedPrintFileUrl(t.api.deps, made.previewId, 'front'))
    const other = new URL(await signedPrintFileUrl(t.api.deps, made.previewId, 'back'))
    const path = `/v1/media/print-files/${made.previewId}/front.png`
    const forged = await t.request(`${path}?expires=${good.searchParams.get('expires')}&signature=${other.searchParams.get('signature')}`)
    expect(forged.status).toBe(403)
    expect(forged.body.error.message).toMatch(/not signed by Keepsake or has expired/)
    const later = new Date(t.now().getTime() + 15 * 24 * 3600_000)
    const now = t.now()
    t.setNow(later)
    try {
      expect((await t.request(`${path}${good.search}`)).status).toBe(403)
    } finally {
      t.setNow(now)
    }
    expect((await t.request(`${path}?expires=soon&signature=${good.searchParams.get('signature')}`)).status).toBe(400)
    expect((await t.request(`${path}?expires=${good.searchParams.get('expires')}`)).status).toBe(400)
    expect((await t.request(`/v1/media/print-files/${made.previewId}/mockup-front.jpg${good.search}`)).status).toBe(400)
    // The good one serves the file (rendered on this first ask: the design is in no cart).
    const served = await t.request(`${path}${good.search}`)
    expect(served.status).toBe(200)
    expect(served.headers.get('content-type')).toBe('image/png')
  })
})

describe('Printify cannot reach the print files (local storage behind http://localhost)', () => {
  let store: Store
  beforeAll(async () => {
    store = await storeWith({})
  })
  afterAll(() => store.t.close())

  it('uploads them by content and makes one product per ordered design at submission, never per preview', async () => {
    const { t, mock } = store
    const photos = await addAlbumPhotos(t, demoAccounts[0].family.id, 4, undefined, { width: 480, height: 360 })
    const made = []
    for (let k = 0; k < 3; k++) made.push(await preview(store, photos, k))
    expect(mock.calls).toHaveLength(0)
    await buy(store, made[2]!)
    await drainJobs(t.api.deps, jobs)
    const uploads = mock.callsTo('POST', '/v1/uploads/images.json')
    expect(uploads).toHaveLength(2)
    expect(uploads.every((c) => typeof (c.body as { contents?: string }).contents === 'string')).toBe(true)
    const products = mock.callsTo('POST', `/v1/shops/${MOCK_PRINTIFY_SHOP_ID}/products.json`)
    expect(products).toHaveLength(1)
    expect(products[0]!.body).toMatchObject({ blueprint_id: 1186, print_provider_id: 228, tags: [`keepsake-preview:${made[2]!.previewId}`] })
    const [order] = [...mock.orders.values()]
    expect(order!.line_items).toMatchObject([{ product_id: [...mock.products.keys()][0], variant_id: 72965, quantity: 1 }])
    // The front upload is the print file, at the print area's size.
    const front = [...mock.uploads.values()].find((u) => u.file_name.endsWith('-front.png'))!
    expect({ width: front.width, height: front.height }).toEqual(outputSize(pseudoTemplates.star, 1))
    expect(mock.sentToProduction.get(order!.id)).toBe(1)
  })
})

describe('the hold, a cancel within it, and an order Printify keeps holding', () => {
  let store: Store
  beforeAll(async () => {
    store = await storeWith({ PUBLIC_URL: PUBLIC_ORIGIN, ORDER_HOLD_MINUTES: '30' })
  })
  afterAll(() => store.t.close())

  it('waits out ORDER_HOLD_MINUTES before sending, and a refund within the hold cancels at Printify and sends nothing', async () => {
    const { t, mock } = store
    const photos = await addAlbumPhotos(t, demoAccounts[0].family.id, 2, undefined, { width: 480, height: 360 })
    const orderId = await buy(store, await preview(store, photos, 0))
    await drainJobs(t.api.deps, jobs)
    const providerOrderId = (await parcelOf(t, orderId)).providerOrderId!
    expect(mock.orders.get(providerOrderId)!.status).toBe('on-hold')
    expect(mock.sentToProduction.get(providerOrderId) ?? 0).toBe(0)

    await refundOrder(t.api.deps, orderId)
    await drainJobs(t.api.deps, jobs)
    expect(mock.callsTo('POST', `/v1/shops/${MOCK_PRINTIFY_SHOP_ID}/orders/${providerOrderId}/cancel.json`)).toHaveLength(1)
    expect(mock.orders.get(providerOrderId)!.status).toBe('canceled')

    // The hold ends: nothing is sent for a refunded parcel.
    const start = t.now()
    t.setNow(new Date(start.getTime() + 31 * 60_000))
    try {
      await drainJobs(t.api.deps, jobs)
    } finally {
      t.setNow(start)
    }
    expect(mock.sentToProduction.get(providerOrderId) ?? 0).toBe(0)
    expect((await parcelOf(t, orderId)).sentToProductionAt).toBeNull()
  })

  it('sends once the hold ends, and an order still on hold an hour after is logged as an error and counted', async () => {
    const { t, mock } = store
    const photos = await addAlbumPhotos(t, demoAccounts[0].family.id, 2, undefined, { width: 480, height: 360 })
    const start = t.now()
    try {
      const orderId = await buy(store, await preview(store, photos, 1))
      await drainJobs(t.api.deps, jobs)
      const providerOrderId = (await parcelOf(t, orderId)).providerOrderId!
      expect(mock.sentToProduction.get(providerOrderId) ?? 0).toBe(0)
      t.setNow(new Date(start.getTime() + 31 * 60_000))
      await drainJobs(t.api.deps, jobs)
      expect(mock.sentToProduction.get(providerOrderId)).toBe(1)
      // Printify keeps it on hold (an image issue, a shop setting): an hour later someone is told.
      mock.orders.get(providerOrderId)!.status = 'on-hold'
      const stuck = async () => (await metrics().ordersStuckOnHold.get()).values.reduce((n, v) => n + v.value, 0)
      const before = await stuck()
      t.setNow(new Date(start.getTime() + 92 * 60_000))
      await drainJobs(t.api.deps, jobs)
      expect((await stuck()) - before).toBe(1)
      expect(mock.sentToProduction.get(providerOrderId)).toBe(1)
    } finally {
      t.setNow(start)
    }
  })
})
