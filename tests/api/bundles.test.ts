import { randomUUID } from 'node:crypto'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { carts, checkoutSessions, jobs, orders } from '../../app/api/db/schema'
import { LocalPaymentProvider } from '../../app/api/providers/payments/local'
import type { CreatePaymentSessionInput, PaymentProvider } from '../../app/api/providers/payments/provider'
import { createStripeClient, StripePaymentProvider } from '../../app/api/providers/payments/stripe'
import { appendEntry } from '../../app/api/services/credit'
import type { OrnamentShape } from '../../app/catalogue/ornaments'
import { cartItemFor, recordPreview } from '../support/cart'
import { createStripeMock, MOCK_STRIPE_SECRET_KEY, type StripeMockServer } from '../support/stripe-mock'
import { createTestApi, type TestApi } from '../support/test-api'
import { withSalesTax } from '../../app/catalogue/pricing'

const address = {
  name: 'Maya Rivera',
  email: 'maya@example.com',
  phone: '212 555 0100',
  line1: '12 Orchard Street',
  line2: '',
  city: 'New York',
  state: 'NY',
  postalCode: '10002',
  country: 'US' as const,
}

/** What a provider would charge for a session: the lines, plus shipping, less the discount. */
const chargeOf = (input: CreatePaymentSessionInput) =>
  input.lines.reduce((sum, l) => sum + l.unitAmountCents * l.quantity, 0) + input.shippingCents - input.discountCents

async function fillCart(t: TestApi, cookie: string, userId: string, shapes: OrnamentShape[]) {
  const ids: string[] = []
  for (const shape of shapes) {
    const res = await t.request('/v1/photo-products-cart/items', { method: 'POST', cookie, json: cartItemFor(await recordPreview(t, userId, shape)) })
    expect(res.status, JSON.stringify(res.body)).toBe(201)
    ids.push(res.body.item.id)
  }
  return ids
}

async function giveCredit(t: TestApi, userId: string, cents: number) {
  await appendEntry(t.db, { userId, amountCents: cents, reason: 'referral_reward', reference: `bundles-test-${randomUUID()}`, at: t.now() })
}

describe('on the local provider', () => {
  let t: TestApi
  let cookie: string
  const sent: CreatePaymentSessionInput[] = []
  let local: LocalPaymentProvider
  // The local provider, recording what checkout asks it to charge.
  const recording: PaymentProvider = {
    name: 'local',
    createSession: (input) => {
      sent.push(input)
      return local.createSession(input)
    },
    retrieveSession: (id) => local.retrieveSession(id),
    expireSession: () => local.expireSession(),
  }

  beforeAll(async () => {
    t = await createTestApi({}, { payments: recording })
    local = new LocalPaymentProvider(t.db)
    cookie = await t.signIn(0)
  })
  afterAll(() => t.close())
  beforeEach(async () => {
    await t.db.delete(orders)
    await t.db.delete(checkoutSessions)
    await t.db.delete(carts)
    await t.db.delete(jobs)
    sent.length = 0
  })

  const cartOf = async (as = cookie) => (await t.request('/v1/photo-products-cart', { cookie: as })).body

  describe('GET /v1/loop/bundles', () => {
    it('answers the bundles with prices from the catalogue, signed in or out', async () => {
      const out = await t.request('/v1/loop/bundles')
      expect(out.status).toBe(200)
      expect(out.body.bundles).toEqual([
        {
          id: 'whole-set',
          title: 'The whole set',
          description: expect.any(String),
          items: [
            { variantId: 72963, quantity: 1, title: 'Tree Photo Ornament', shape: 'tree' },
            { variantId: 72965, quantity: 1, title: 'Star Photo Ornament', shape: 'star' },
            { variantId: 72960, quantity: 1, title: 'Stocking Photo Ornament', shape: 'stocking' },
          ],
          currency: 'usd',
          bundlePriceCents: 6997,
          regularPriceCents: 7797,
          savingsCents: 800,
          shapes: ['tree', 'star', 'stocking'],
        },
      ])
      const signedIn = await t.request('/v1/loop/bundles', { cookie })
      expect(signedIn.status).toBe(200)
      expect(signedIn.body).toEqual(out.body)
    })

    it('ignores whatever the query holds', async () => {
      const plain = await t.request('/v1/loop/bundles')
      const junk = await t.request('/v1/loop/bundles?id=%3Cscript%3E&limit=-1&limit=abc&__proto__[x]=1')
      expect(junk.status).toBe(200)
      expect(junk.body).toEqual(plain.body)
    })

    it('answers 404 for other methods and paths, like every unknown endpoint', async () => {
      for (const method of ['POST', 'PUT', 'PATCH', 'DELETE']) {
        const res = await t.request('/v1/loop/bundles', { method, cookie, json: {} })
        expect(res.status, method).toBe(404)
        expect(res.body.error).toMatchObject({ code: 'not_found', message: `No such endpoint: ${method} /v1/loop/bundles` })
      }
      for (const path of ['/v1/loop/bundles/whole-set', '/v1/loop/bundle', '/v1/loop']) {
        const res = await t.request(path)
        expect(res.status, path).toBe(404)
        expect(res.body.error.code).toBe('not_found')
      }
    })

    it('is in the OpenAPI document', async () => {
      const doc = (await t.request('/v1/openapi.json')).body
      expect(doc.paths['/loop/bundles'].get).toMatchObject({ tags: ['loop'] })
      expect(doc.paths['/loop/bundles'].get.security).toEqual([])
      expect(Object.keys(doc.paths['/loop/bundles'].get.responses['200'].content['application/json'].schema.properties)).toEqual(['bundles'])
    })
  })

  describe('the cart', () => {
    it('a tree, a star and a stocking cost the whole set’s bundle price, shipped free', async () => {
      await fillCart(t, cookie, t.users[0].id, ['tree', 'star'])
      expect((await cartOf()).totals).toMatchObject({ bundleSavingsCents: 0, bundles: [], shippingCents: 599, totalCents: 2 * 2499 + 599 })
      await fillCart(t, cookie, t.users[0].id, ['stocking'])
      expect((await cartOf()).totals).toEqual({
        currency: 'usd',
        itemCount: 3,
        subtotalCents: 2999 + 2999 + 3299,
        saleSavingsCents: 1500,
        bundleSavingsCents: 800,
        bundles: [{ id: 'whole-set', title: 'The whole set', sets: 1, savingsCents: 800 }],
        shippingMethod: 'standard',
        shippingCents: 0,
        creditsCents: 0,
        totalCents: 6997,
        freeShippingRemainingCents: 0,
        taxCents: 0,
        tax: null,
        parcels: [
          {
            key: 'own',
            shippingMethod: 'standard',
            itemCount: 3,
            goodsCents: 6997,
            bundleSavingsCents: 800,
            shippingCents: 0,
            creditsCents: 0,
            taxCents: 0,
            tax: null,
          },
        ],
      })
    })

    it('removing one ornament of the set removes the saving; quantities make more sets', async () => {
      const [tree, star, stocking] = await fillCart(t, cookie, t.users[0].id, ['tree', 'star', 'stocking'])
      const removed = await t.request(`/v1/photo-products-cart/items/${tree}`, { method: 'DELETE', cookie })
      expect(removed.status).toBe(200)
      expect(removed.body.totals).toMatchObject({ bundleSavingsCents: 0, bundles: [], shippingCents: 0, totalCents: 2499 + 2799 })
      const [again] = await fillCart(t, cookie, t.users[0].id, ['tree'])
      for (const id of [again, star]) await t.request(`/v1/photo-products-cart/items/${id}`, { method: 'PUT', cookie, json: { quantity: 2 } })
      // Two trees, two stars, one stocking: still one set.
      expect((await cartOf()).totals).toMatchObject({ bundles: [{ id: 'whole-set', sets: 1, savingsCents: 800 }], totalCents: 4 * 2499 + 2799 - 800 })
      const two = await t.request(`/v1/photo-products-cart/items/${stocking}`, { method: 'PUT', cookie, json: { quantity: 2 } })
      expect(two.body.totals).toMatchObject({ bundleSavingsCents: 1600, bundles: [{ id: 'whole-set', sets: 2, savingsCents: 1600 }], totalCents: 2 * 6997 })
    })
  })

  describe('checkout', () => {
    it('a session made from the cart carries its totals, and is charged exactly their total', async () => {
      await fillCart(t, cookie, t.users[0].id, ['tree', 'star', 'stocking'])
      const cart = await cartOf()
      const res = await t.request('/v1/photo-products-cart/checkout-session', { method: 'POST', cookie })
      expect(res.status, JSON.stringify(res.body)).toBe(201)
      expect(res.body.totals).toEqual(cart.totals)
      expect(sent).toHaveLength(1)
      expect(sent[0]!.discountCents).toBe(800)
      expect(chargeOf(sent[0]!)).toBe(cart.totals.totalCents)
      // The local provider reports the session's own total as the amount it charges.
      expect((await local.retrieveSession(`local_${res.body.id}`)).amountTotalCents).toBe(6997)

      const paid = await t.request(`/v1/checkout/local/${res.body.id}/pay`, {
        method: 'POST',
        cookie,
        json: { cardNumber: '4242424242424242', shippingAddress: address },
      })
      expect(paid.status, JSON.stringify(paid.body)).toBe(200)
      const order = await t.request(`/v1/photo-products-orders/${paid.body.orderId}`, { cookie })
      // Charged: the cart's totals with the tax of the address's state, on the goods after the bundle saving.
      expect(order.body.totals).toEqual(withSalesTax(cart.totals, { state: address.state, estimated: false }))
      expect(order.body.totals.taxCents).toBe(Math.round(6997 * 0.04))
    })

    it('bundle savings and store credit together are the discount, and credit stops at the goods after savings', async () => {
      const otherCookie = await t.signIn(1)
      await giveCredit(t, t.users[1].id, 100_000)
      await fillCart(t, otherCookie, t.users[1].id, ['tree', 'star', 'stocking'])
      const res = await t.request('/v1/photo-products-cart/checkout-session', { method: 'POST', cookie: otherCookie })
      expect(res.status, JSON.stringify(res.body)).toBe(201)
      expect(res.body.totals).toMatchObject({ bundleSavingsCents: 800, creditsCents: 6997 - 50, shippingCents: 0, totalCents: 50 })
      expect(sent[0]!.discountCents).toBe(800 + 6947)
      expect(chargeOf(sent[0]!)).toBe(50)
    })

    it('a session saved before bundles existed still reads, with no bundle savings', async () => {
      await fillCart(t, cookie, t.users[0].id, ['star'])
      const res = await t.request('/v1/photo-products-cart/checkout-session', { method: 'POST', cookie })
      const { bundleSavingsCents: _, bundles: __, ...oldTotals } = res.body.totals
      await t.db.update(checkoutSessions).set({ totals: oldTotals })
      const read = await t.request(`/v1/photo-products-cart/checkout-session/${res.body.id}`, { cookie })
      expect(read.status).toBe(200)
      expect(read.body.totals).toEqual({ ...oldTotals, bundleSavingsCents: 0, bundles: [] })
    })
  })
})

describe('on Stripe (the documented-contract mock)', () => {
  let t: TestApi
  let cookie: string
  const clock = () => (t ? t.now().getTime() : Date.parse('2026-11-22T12:00:00Z'))
  const mock = createStripeMock({ now: clock })
  let server: StripeMockServer

  beforeAll(async () => {
    server = await mock.listen()
    const client = createStripeClient({ secretKey: MOCK_STRIPE_SECRET_KEY, ...server.endpoint })
    t = await createTestApi({ STRIPE_SECRET_KEY: MOCK_STRIPE_SECRET_KEY }, { payments: new StripePaymentProvider(client, { now: clock }) })
    cookie = await t.signIn(0)
  })
  afterAll(() => Promise.all([t.close(), server.close()]))

  it('Stripe’s amount_total is the cart’s total: bundle savings and credit travel as one amount_off coupon', async () => {
    await giveCredit(t, t.users[0].id, 1000)
    await fillCart(t, cookie, t.users[0].id, ['tree', 'star', 'stocking', 'star'])
    const res = await t.request('/v1/photo-products-cart/checkout-session', { method: 'POST', cookie })
    expect(res.status, JSON.stringify(res.body)).toBe(201)
    const totals = res.body.totals
    expect(totals).toMatchObject({ bundleSavingsCents: 800, creditsCents: 1000, shippingCents: 0, totalCents: 2 * 2499 + 2499 + 2799 - 800 - 1000 })
    const [row] = await t.db.select().from(checkoutSessions)
    const stripe = mock.sessions.get(row!.providerSessionId!)!
    expect(stripe.amount_total).toBe(totals.totalCents)
    const [coupon] = mock.callsTo('POST', '/v1/coupons')
    expect(coupon!.body).toMatchObject({ amount_off: '1800', currency: 'usd', duration: 'once', name: 'Bundle savings and store credit' })
  })
})
