import { createHmac } from 'node:crypto'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest'
import { eq } from 'drizzle-orm'
import { checkoutSessions, orderParcels, orders, outboxEmails, savedAddresses } from '../../app/api/db/schema'
import { formatCents } from '../../app/catalogue/currency'
import { withSalesTax } from '../../app/catalogue/pricing'
import { ADDRESS_CHANGED_MESSAGE, CART_PAID_MESSAGE } from '../../app/catalogue/cart-terms'
import type Stripe from 'stripe'
import { createStripeClient, STRIPE_MAX_NETWORK_RETRIES, StripePaymentProvider } from '../../app/api/providers/payments/stripe'
import { MemoryRateLimiter } from '../../app/api/rate-limit'
import { onLogLine } from '../../app/observability/log'
import { metrics } from '../../app/observability/metrics'
import { cartItemFor, emptyCartsAndOrders, recordPreview } from '../support/cart'
import { creditedShopper } from '../support/credit'
import { createStripeMock, MOCK_STRIPE_SECRET_KEY, MOCK_STRIPE_WEBHOOK_SECRET, mockStripeTax, type StripeMockServer } from '../support/stripe-mock'
import { createTestApi, type TestApi } from '../support/test-api'

/**
 * Checkout through Stripe, against the documented-contract mock served over HTTP: the official SDK reaches it
 * through its host/port/protocol options. Sessions, the webhook, the return page.
 */
let t: TestApi
let cookie: string
let server: StripeMockServer
let stripe: Stripe
const clock = () => (t ? t.now().getTime() : Date.parse('2026-11-22T12:00:00Z'))
const mock = createStripeMock({ now: clock })

beforeAll(async () => {
  server = await mock.listen()
  stripe = createStripeClient({ secretKey: MOCK_STRIPE_SECRET_KEY, ...server.endpoint })
  t = await createTestApi(
    { STRIPE_SECRET_KEY: MOCK_STRIPE_SECRET_KEY, STRIPE_WEBHOOK_SECRET: MOCK_STRIPE_WEBHOOK_SECRET },
    { payments: new StripePaymentProvider(stripe, { now: clock }) },
  )
  cookie = await t.signIn(0)
})
afterAll(async () => {
  await t.close()
  await server.close()
})
beforeEach(() => emptyCartsAndOrders(t))

async function startCheckout(quantity = 1) {
  const preview = await recordPreview(t, t.users[0].id, 'tree')
  const added = await t.request('/v1/photo-products-cart/items', { method: 'POST', cookie, json: { ...cartItemFor(preview), quantity } })
  expect(added.status).toBe(201)
  const res = await t.request('/v1/photo-products-cart/checkout-session', { method: 'POST', cookie })
  expect(res.status, JSON.stringify(res.body)).toBe(201)
  const row = (await t.db.select().from(checkoutSessions)).find((r) => r.id === res.body.id)!
  return { session: res.body, stripeId: row.providerSessionId! }
}

const deliver = (delivery: { rawBody: string; signatureHeader: string }) =>
  t.api.fetch(
    new Request('http://localhost:3000/v1/webhooks/stripe', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'stripe-signature': delivery.signatureHeader },
      body: delivery.rawBody,
    }),
  )
const orderCount = async () => (await t.db.select().from(orders)).length
const getSession = (id: string) => t.request(`/v1/photo-products-cart/checkout-session/${id}`, { cookie }).then((r) => r.body)

describe('Stripe Checkout sessions', () => {
  it('prices lines on the server, references the cart and carries {CHECKOUT_SESSION_ID} in the success URL', async () => {
    const { session, stripeId } = await startCheckout(2)
    expect(session.provider).toBe('stripe')
    expect(session.url).toMatch(/^https:\/\/checkout\.stripe\.com\/c\/pay\/cs_test_/)
    const stripe = mock.sessions.get(stripeId)!
    expect(stripe.client_reference_id).toBe(session.cartId)
    expect(stripe.metadata).toMatchObject({ checkout_session_id: session.id })
    expect(stripe.success_url).toBe(`http://localhost:3000/photo-products/checkout/complete?checkout=${session.id}&session_id={CHECKOUT_SESSION_ID}`)
    // Two tree pairs at the sale price (49.98, just under free shipping) plus 5.99 shipping: what the server computed.
    expect(stripe.amount_total).toBe(session.totals.totalCents)
    expect(session.totals.totalCents).toBe(2 * 2499 + 599)
    const [create] = mock.callsTo('POST', '/v1/checkout/sessions')
    expect(create!.idempotencyKey).toBe(`checkout-session:${session.id}`)
    // Stripe copies payment_intent_data.metadata onto the PaymentIntent, which is how a refund finds its order.
    expect(create!.rawBody).toContain(`payment_intent_data[metadata][checkout_session_id]=${session.id}`)
    expect(create!.body.payment_intent_data).toEqual({ metadata: { checkout_session_id: session.id } })
  })

  it('a newer session expires the older one at Stripe', async () => {
    const first = await startCheckout()
    const second = await t.request('/v1/photo-products-cart/checkout-session', { method: 'POST', cookie })
    expect(second.status).toBe(201)
    expect(mock.sessions.get(first.stripeId)!.status).toBe('expired')
    expect((await getSession(first.session.id)).status).toBe('expired')
  })

  it('a checkout started just after the shopper paid the open one at Stripe keeps that payment: 409, one order, nothing left open', async () => {
    const { stripeId } = await startCheckout()
    mock.complete(stripeId, { paymentStatus: 'paid' })
    const again = await t.request('/v1/photo-products-cart/checkout-session', { method: 'POST', cookie })
    expect(again.status).toBe(409)
    expect(await orderCount()).toBe(1)
    expect((await t.db.select().from(checkoutSessions)).filter((s) => s.status === 'open')).toEqual([])
  })

  it('a change of shipping just after the shopper paid at Stripe (webhook not yet here) keeps the payment and is refused: 409 "this cart was just paid"', async () => {
    const { stripeId, session } = await startCheckout()
    mock.complete(stripeId, { paymentStatus: 'paid' })
    const change = await t.request('/v1/photo-products-cart/shipping', { method: 'PUT', cookie, json: { method: 'express' } })
    expect(change.status, JSON.stringify(change.body)).toBe(409)
    expect(change.body.error).toMatchObject({ code: 'conflict', message: CART_PAID_MESSAGE })
    expect(await orderCount()).toBe(1)
    expect((await getSession(session.id)).status).toBe('paid')
    const [order] = await t.db.select().from(orders)
    expect(order!.totals.shippingMethod).toBe('standard')
  })

  it('a session that replaces another carries its store credit to Stripe as the coupon, also when two are made at once', async () => {
    t.api.deps.rateLimiter = new MemoryRateLimiter()
    const shopper = await creditedShopper(t)
    const preview = await recordPreview(t, shopper.user.id, 'tree')
    expect((await t.request('/v1/photo-products-cart/items', { method: 'POST', cookie: shopper.cookie, json: cartItemFor(preview) })).status).toBe(201)
    const checkout = () => t.request('/v1/photo-products-cart/checkout-session', { method: 'POST', cookie: shopper.cookie })
    const first = await checkout()
    const again = await checkout()
    const together = await Promise.all([checkout(), checkout()])
    const answered = [first, again, ...together].filter((a) => a.status === 201)
    for (const made of answered) expect(made.body.totals).toMatchObject({ creditsCents: 1000, totalCents: 2098 })
    const open = (await t.db.select().from(checkoutSessions)).filter((s) => s.userId === shopper.user.id && s.status === 'open')
    expect(open).toHaveLength(1)
    expect(open[0]!.totals).toMatchObject({ creditsCents: 1000, totalCents: 2098 })
    // What Stripe charges for the open session is our total: the coupon is the credit.
    const atStripe = mock.sessions.get(open[0]!.providerSessionId!)!
    expect(atStripe.status).toBe('open')
    expect(atStripe.amount_total).toBe(2098)
    const coupon = mock.callsTo('POST', '/v1/coupons').find((c) => c.idempotencyKey === `checkout-session:${open[0]!.id}:coupon`)
    expect(coupon!.body.amount_off).toBe('1000')
    expect((await t.request('/v1/store-credit', { cookie: shopper.cookie })).body.balanceCents).toBe(0)
  })
})

describe('the Stripe webhook', () => {
  it('checkout.session.completed (paid) makes one order; a duplicate delivery changes nothing', async () => {
    const { session, stripeId } = await startCheckout()
    mock.complete(stripeId, { paymentStatus: 'paid' })
    const delivery = mock.event('checkout.session.completed', stripeId)
    const first = await deliver(delivery)
    expect(first.status).toBe(200)
    expect(await first.json()).toEqual({ received: true })
    expect(await deliver(delivery)).toHaveProperty('status', 200)
    expect(await orderCount()).toBe(1)
    const fetched = await getSession(session.id)
    expect(fetched.status).toBe('paid')
    const [order] = await t.db.select().from(orders)
    expect(fetched.orderId).toBe(order!.id)
    expect(order!.shippingAddress).toMatchObject({ country: 'US' })
  })

  // Issue 42, item 6: amount_total was parsed and dropped. The order's totals stay what the store decided (chargedTotals);
  // what Stripe charged is kept beside them when it differs, and said wherever the shopper reads what they paid.
  describe('what Stripe charged, held against what the order says', () => {
    let errors: Record<string, unknown>[]
    let stop: () => void
    beforeEach(() => {
      errors = []
      stop = onLogLine((line) => void (line.level === 50 && errors.push(line)), { silence: true })
    })
    afterEach(() => stop())
    const mismatches = async () => (await metrics().chargeMismatches.get()).values.find((v) => v.labels.provider === 'stripe')?.value ?? 0

    it('an order Stripe charged its total for is not flagged, logs no error and counts no mismatch', async () => {
      const before = await mismatches()
      const { stripeId } = await startCheckout()
      mock.complete(stripeId)
      expect((await deliver(mock.event('checkout.session.completed', stripeId))).status).toBe(200)
      const [order] = await t.db.select().from(orders)
      expect(order!.chargedCents).toBeNull()
      expect((await t.request(`/v1/photo-products-orders/${order!.id}`, { cookie })).body.chargedCents).toBeNull()
      expect(errors).toEqual([])
      expect(await mismatches()).toBe(before)
    })

    it('an order Stripe charged another amount for is flagged with what was charged, logged with both figures, counted once, and the receipt says it', async () => {
      const before = await mismatches()
      const { session, stripeId } = await startCheckout(2)
      // A promotion code taken on Stripe's page: Stripe counts it in total_details.amount_discount and charges amount_total.
      mock.complete(stripeId, { shipping: { state: 'TX', city: 'Austin', postalCode: '78701' }, promotionCodeCents: 500 })
      const charged = mock.sessions.get(stripeId)!.amount_total
      const delivery = mock.event('checkout.session.completed', stripeId)
      expect((await deliver(delivery)).status).toBe(200)
      expect((await deliver(delivery)).status).toBe(200)
      expect(await getSession(session.id)).toMatchObject({ status: 'paid' })
      const [order] = await t.db.select().from(orders)
      // The order's money is still the store's own (the one decider); Stripe's figure is kept beside it.
      expect(order!.totals).toMatchObject({ tax: { state: 'TX', source: 'stripe' }, totalCents: 2 * 2499 + 599 + order!.totals.taxCents })
      expect(charged).toBe(order!.totals.totalCents - 500)
      expect(order!.chargedCents).toBe(charged)
      const api = await t.request(`/v1/photo-products-orders/${order!.id}`, { cookie })
      expect(api.body).toMatchObject({ chargedCents: charged, totals: { totalCents: order!.totals.totalCents } })
      expect((await t.request('/v1/photo-products-orders', { cookie })).body.orders[0].chargedCents).toBe(charged)
      expect(errors).toEqual([
        expect.objectContaining({ orderId: order!.id, checkoutSessionId: session.id, chargedCents: charged, orderTotalCents: order!.totals.totalCents }),
      ])
      expect(String(errors[0]!.msg)).toContain(`${formatCents(charged)}`)
      expect(String(errors[0]!.msg)).toContain(`${formatCents(order!.totals.totalCents)}`)
      expect(await mismatches()).toBe(before + 1)
      const [email] = await t.db
        .select()
        .from(outboxEmails)
        .where(eq(outboxEmails.reference, `order-confirmation:${order!.id}`))
      expect(email!.text).toContain(`Total paid: ${formatCents(charged)}`)
      expect(email!.text).toContain(`Order total: ${formatCents(order!.totals.totalCents)}`)
      expect(email!.html).toContain(formatCents(charged))
    })
  })

  it('records the sales tax Stripe Tax charged, not the store’s own table: order, confirmation and charge agree', async () => {
    const { session, stripeId } = await startCheckout(2)
    const [create] = mock.callsTo('POST', '/v1/checkout/sessions').slice(-1)
    expect(create!.body.automatic_tax).toEqual({ enabled: 'true' })
    // Texas taxes shipping: Stripe's tax is on the ornaments and the shipping.
    mock.complete(stripeId, { shipping: { state: 'TX', city: 'Austin', postalCode: '78701' } })
    expect((await deliver(mock.event('checkout.session.completed', stripeId))).status).toBe(200)
    const stripeTax = mockStripeTax('TX', 2 * 2499, 599).total
    expect(stripeTax).not.toBe(withSalesTax(session.totals, { state: 'TX', estimated: false }).taxCents)
    const [order] = await t.db.select().from(orders)
    expect(order!.totals).toMatchObject({
      taxCents: stripeTax,
      tax: { state: 'TX', estimated: false, source: 'stripe' },
      totalCents: 2 * 2499 + 599 + stripeTax,
    })
    // What Stripe charged is what the order says it charged.
    const charged = mock.sessions.get(stripeId)!
    expect(charged.amount_total).toBe(order!.totals.totalCents)
    expect(charged.total_details.amount_tax).toBe(order!.totals.taxCents)
    const [email] = await t.db
      .select()
      .from(outboxEmails)
      .where(eq(outboxEmails.reference, `order-confirmation:${order!.id}`))
    expect(email!.text).toContain(`Sales tax (TX): ${formatCents(stripeTax)}`)
    expect(email!.text).toContain(`Total paid: ${formatCents(order!.totals.totalCents)}`)
    expect((await getSession(session.id)).totals).toEqual(order!.totals)
  })

  it('an order to three addresses: Checkout taxes the shopper’s own parcel, Stripe Tax calculations the others; all recorded and charged once', async () => {
    await t.db.delete(savedAddresses)
    const preview = await recordPreview(t, t.users[0].id, 'tree')
    const line = (await t.request('/v1/photo-products-cart/items', { method: 'POST', cookie, json: { ...cartItemFor(preview), quantity: 3 } })).body.item.id
    const entry = async (label: string, city: string, state: string, postalCode: string) =>
      (
        await t.request('/v1/photo-products-addresses', {
          method: 'POST',
          cookie,
          json: { label, name: `${label} Rivera`, line1: '4 Maple Court', city, state, postalCode, phone: '' },
        })
      ).body.id as string
    const [ny, wa] = [await entry('Grandma Rose', 'Albany', 'NY', '12207'), await entry('Aunt June', 'Seattle', 'WA', '98101')]
    const parcels = await t.request('/v1/photo-products-cart/parcels', {
      method: 'PUT',
      cookie,
      json: {
        parcels: [
          { addressId: ny, items: [{ cartItemId: line, quantity: 1 }], giftMessage: 'Love, Ava' },
          { addressId: wa, shippingMethod: 'express', items: [{ cartItemId: line, quantity: 1 }] },
        ],
      },
    })
    expect(parcels.status).toBe(200)
    const res = await t.request('/v1/photo-products-cart/checkout-session', { method: 'POST', cookie })
    expect(res.status, JSON.stringify(res.body)).toBe(201)
    const stripeId = (await t.db.select().from(checkoutSessions).where(eq(checkoutSessions.id, res.body.id)))[0]!.providerSessionId!
    // One tax calculation per parcel to the book, for its own address.
    const calculations = mock.callsTo('POST', '/v1/tax/calculations').filter((c) => String(c.idempotencyKey).startsWith(`checkout-tax:${res.body.id}:`))
    expect(calculations.map((c) => (c.body.customer_details as { address: { state: string } }).address.state)).toEqual(['NY', 'WA'])
    const nyTax = mockStripeTax('NY', 2499, 599).total
    const waTax = mockStripeTax('WA', 2499, 1499).total
    expect(res.body.totals.parcels.map((p: { taxCents: number; tax: unknown }) => [p.taxCents, p.tax])).toEqual([
      // The shopper's own: the cart's estimate (their last order's state) until Checkout has the address.
      [expect.any(Number), expect.objectContaining({ estimated: true, source: 'table' })],
      [nyTax, { state: 'NY', estimated: false, source: 'stripe' }],
      [waTax, { state: 'WA', estimated: false, source: 'stripe' }],
    ])
    // Checkout gets the other parcels' ornaments, shipping and tax as lines it must not tax again.
    const [create] = mock.callsTo('POST', '/v1/checkout/sessions').slice(-1)
    const items = create!.body.line_items as { price_data: { unit_amount: string; product_data: { name: string; tax_code: string } } }[]
    expect(items.map((i) => [i.price_data.product_data.name, i.price_data.unit_amount, i.price_data.product_data.tax_code])).toEqual([
      ['Tree Photo Ornament (pair)', '2499', 'txcd_99999999'],
      ['Tree Photo Ornament (pair) · to Grandma Rose', '2499', 'txcd_00000000'],
      ['Standard shipping · to Grandma Rose', '599', 'txcd_00000000'],
      ['Sales tax (NY) · to Grandma Rose', String(nyTax), 'txcd_00000000'],
      ['Tree Photo Ornament (pair) · to Aunt June', '2499', 'txcd_00000000'],
      ['Express shipping · to Aunt June', '1499', 'txcd_00000000'],
      ['Sales tax (WA) · to Aunt June', String(waTax), 'txcd_00000000'],
    ])
    mock.complete(stripeId, { shipping: { state: 'TX', city: 'Austin', postalCode: '78701' } })
    expect((await deliver(mock.event('checkout.session.completed', stripeId))).status).toBe(200)
    const ownTax = mockStripeTax('TX', 2499, 599).total
    const [order] = await t.db.select().from(orders)
    expect(order!.totals.parcels.map((p) => p.taxCents)).toEqual([ownTax, nyTax, waTax])
    expect(order!.totals).toMatchObject({
      taxCents: ownTax + nyTax + waTax,
      tax: { state: 'TX, NY, WA', estimated: false, source: 'stripe' },
      totalCents: 3 * 2499 + 599 + 599 + 1499 + ownTax + nyTax + waTax,
    })
    const charged = mock.sessions.get(stripeId)!
    expect(charged.amount_total).toBe(order!.totals.totalCents)
    const madeParcels = await t.db.select().from(orderParcels).where(eq(orderParcels.orderId, order!.id))
    expect(madeParcels.map((p) => [p.position, p.shippingAddress!.state, p.giftMessage]).sort()).toEqual([
      [1, 'TX', null],
      [2, 'NY', 'Love, Ava'],
      [3, 'WA', null],
    ])
  })

  // Issue 42, item 4: Stripe taxed the parcel for the address it had; a moved or removed address closes the checkout there too.
  it.each(['moved to another state', 'removed'] as const)(
    'an address book entry a parcel uses %s: the checkout is expired at Stripe and here, and says why',
    async (change) => {
      await t.db.delete(savedAddresses)
      const preview = await recordPreview(t, t.users[0].id, 'tree')
      const line = (await t.request('/v1/photo-products-cart/items', { method: 'POST', cookie, json: { ...cartItemFor(preview), quantity: 2 } })).body.item.id
      const rose = { label: 'Grandma Rose', name: 'Rose Rivera', line1: '4 Maple Court', city: 'Albany', state: 'NY', postalCode: '12207', phone: '' }
      const roseId = (await t.request('/v1/photo-products-addresses', { method: 'POST', cookie, json: rose })).body.id as string
      const parcels = [{ addressId: roseId, items: [{ cartItemId: line, quantity: 1 }] }]
      expect((await t.request('/v1/photo-products-cart/parcels', { method: 'PUT', cookie, json: { parcels } })).status).toBe(200)
      const res = await t.request('/v1/photo-products-cart/checkout-session', { method: 'POST', cookie })
      expect(res.status, JSON.stringify(res.body)).toBe(201)
      const stripeId = (await t.db.select().from(checkoutSessions).where(eq(checkoutSessions.id, res.body.id)))[0]!.providerSessionId!
      expect(mock.sessions.get(stripeId)!.status).toBe('open')
      const edited =
        change === 'removed'
          ? await t.request(`/v1/photo-products-addresses/${roseId}`, { method: 'DELETE', cookie })
          : await t.request(`/v1/photo-products-addresses/${roseId}`, {
              method: 'PUT',
              cookie,
              json: { ...rose, city: 'Seattle', state: 'WA', postalCode: '98101' },
            })
      expect(edited.status).toBe(200)
      expect(mock.sessions.get(stripeId)!.status).toBe('expired')
      expect(mock.callsTo('POST', `/v1/checkout/sessions/${stripeId}/expire`)).toHaveLength(1)
      expect(await getSession(res.body.id)).toMatchObject({ status: 'expired', lastError: ADDRESS_CHANGED_MESSAGE })
      expect(await orderCount()).toBe(0)
    },
  )

  it('the return page and the webhook arriving together make one order', async () => {
    const { session, stripeId } = await startCheckout()
    mock.complete(stripeId, { paymentStatus: 'paid' })
    const delivery = mock.event('checkout.session.completed', stripeId)
    const results = await Promise.all([...Array.from({ length: 5 }, () => deliver(delivery)), ...Array.from({ length: 5 }, () => getSession(session.id))])
    expect(results.slice(0, 5).every((r) => (r as Response).status === 200)).toBe(true)
    expect(await orderCount()).toBe(1)
  })

  it('an async payment: completed (unpaid) → processing, no order; succeeded → one order', async () => {
    const { session, stripeId } = await startCheckout()
    mock.complete(stripeId, { paymentStatus: 'unpaid' })
    await deliver(mock.event('checkout.session.completed', stripeId))
    expect((await getSession(session.id)).status).toBe('processing')
    expect(await orderCount()).toBe(0)
    mock.asyncResult(stripeId, 'succeeded')
    await deliver(mock.event('checkout.session.async_payment_succeeded', stripeId))
    expect((await getSession(session.id)).status).toBe('paid')
    expect(await orderCount()).toBe(1)
  })

  it('out of order: async_payment_succeeded before completed(unpaid) stays paid with one order', async () => {
    const { session, stripeId } = await startCheckout()
    mock.complete(stripeId, { paymentStatus: 'unpaid' })
    const completedUnpaid = mock.event('checkout.session.completed', stripeId)
    mock.asyncResult(stripeId, 'succeeded')
    await deliver(mock.event('checkout.session.async_payment_succeeded', stripeId))
    await deliver(completedUnpaid)
    expect((await getSession(session.id)).status).toBe('paid')
    expect(await orderCount()).toBe(1)
  })

  it('async_payment_failed leaves no order and the cart as it was', async () => {
    const { session, stripeId } = await startCheckout()
    mock.complete(stripeId, { paymentStatus: 'unpaid' })
    await deliver(mock.event('checkout.session.completed', stripeId))
    mock.asyncResult(stripeId, 'failed')
    await deliver(mock.event('checkout.session.async_payment_failed', stripeId))
    expect((await getSession(session.id)).status).toBe('failed')
    expect(await orderCount()).toBe(0)
    const cart = (await t.request('/v1/photo-products-cart', { cookie })).body
    expect(cart.items).toHaveLength(1)
  })

  it('checkout.session.expired abandons the cart; a late duplicate completed for it makes no order', async () => {
    const { session, stripeId } = await startCheckout()
    mock.expire(stripeId)
    await deliver(mock.event('checkout.session.expired', stripeId))
    expect((await getSession(session.id)).status).toBe('expired')
    expect((await t.request('/v1/photo-products-cart', { cookie })).body.status).toBe('abandoned')
    expect(await orderCount()).toBe(0)
  })

  it.each([
    ['a tampered body', (d: { rawBody: string; signatureHeader: string }) => ({ ...d, rawBody: d.rawBody.replace('"paid"', '"unpaid"') })],
    ['a wrong secret', () => null],
    ['no signature', (d: { rawBody: string; signatureHeader: string }) => ({ ...d, signatureHeader: '' })],
  ])('refuses %s with 400 and changes nothing', async (_name, change) => {
    const { session, stripeId } = await startCheckout()
    mock.complete(stripeId, { paymentStatus: 'paid' })
    const good = mock.event('checkout.session.completed', stripeId)
    const bad = change(good) ?? mock.event('checkout.session.completed', stripeId, { secret: 'whsec_somebodyElse' })
    const res = await deliver(bad)
    expect(res.status).toBe(400)
    expect(((await res.json()) as { error: { code: string } }).error.code).toBe('validation_failed')
    expect(await orderCount()).toBe(0)
    // Read from the table: GET would ask Stripe and settle the session, which is not what the webhook did.
    expect((await t.db.select().from(checkoutSessions)).find((r) => r.id === session.id)!.status).toBe('open')
  })

  it('refuses a replayed delivery older than five minutes', async () => {
    const { stripeId } = await startCheckout()
    mock.complete(stripeId, { paymentStatus: 'paid' })
    const stale = mock.event('checkout.session.completed', stripeId, { timestamp: Math.floor(clock() / 1000) - 301 })
    expect((await deliver(stale)).status).toBe(400)
    expect(await orderCount()).toBe(0)
  })

  it('the return page alone fulfils a paid session (webhook not yet delivered)', async () => {
    const { session, stripeId } = await startCheckout()
    mock.complete(stripeId, { paymentStatus: 'paid' })
    const fetched = await getSession(session.id)
    expect(fetched).toMatchObject({ status: 'paid', orderId: expect.any(String) })
    expect(await orderCount()).toBe(1)
  })
})

describe('cancelling at Stripe', () => {
  it('cancel expires the Stripe session and abandons the cart', async () => {
    const { session, stripeId } = await startCheckout()
    const res = await t.request(`/v1/photo-products-cart/checkout-session/${session.id}/cancel`, { method: 'POST', cookie })
    expect(res.body.status).toBe('expired')
    expect(mock.sessions.get(stripeId)!.status).toBe('expired')
    expect((await t.request('/v1/photo-products-cart', { cookie })).body.status).toBe('abandoned')
  })

  it('cancelling a session Stripe already took payment for keeps the payment: 409, and the order is made', async () => {
    const { session, stripeId } = await startCheckout()
    mock.complete(stripeId, { paymentStatus: 'paid' })
    const res = await t.request(`/v1/photo-products-cart/checkout-session/${session.id}/cancel`, { method: 'POST', cookie })
    expect(res.status).toBe(409)
    expect(await orderCount()).toBe(1)
  })
})

describe('refunds in Stripe', () => {
  /** A Stripe order: the session paid at the mock and the completed event delivered. */
  async function paidOrder() {
    const { session, stripeId } = await startCheckout()
    mock.complete(stripeId, { paymentStatus: 'paid' })
    expect((await deliver(mock.event('checkout.session.completed', stripeId))).status).toBe(200)
    const [order] = await t.db.select().from(orders)
    // Stripe Tax charged California's tax on the mock's default address: a full refund returns it with the rest.
    expect(order!.totals).toMatchObject({ taxCents: mock.sessions.get(stripeId)!.total_details.amount_tax, tax: { state: 'CA', source: 'stripe' } })
    expect(order!.totals.taxCents).toBeGreaterThan(0)
    const paymentIntentId = mock.sessions.get(stripeId)!.payment_intent!
    expect(mock.paymentIntents.get(paymentIntentId)!.metadata).toEqual({ checkout_session_id: session.id })
    return { session, order: order!, paymentIntentId }
  }
  let refundKey = 0
  /** What the Dashboard (or an operator's script) does: POST /v1/refunds, here through the SDK. */
  async function refundAtStripe(params: { payment_intent: string; amount?: number }) {
    const refund = await stripe.refunds.create(params, { idempotencyKey: `refund-${++refundKey}` })
    expect(refund.status).toBe('succeeded')
    return refund
  }
  const orderStatus = async (id: string) => (await t.request(`/v1/photo-products-orders/${id}`, { cookie })).body.status

  it('charge.refunded for a full refund records the order refunded; a redelivery changes nothing more', async () => {
    const { order, paymentIntentId } = await paidOrder()
    expect(await orderStatus(order.id)).not.toBe('refunded')
    const refund = await refundAtStripe({ payment_intent: paymentIntentId })
    expect(refund.amount).toBe(order.totals.totalCents)
    const delivery = mock.chargeEvent('charge.refunded', paymentIntentId)
    expect(delivery.event.data.object).toMatchObject({ object: 'charge', refunded: true, payment_intent: paymentIntentId })

    const first = await deliver(delivery)
    expect(first.status).toBe(200)
    expect(await first.json()).toEqual({ received: true })
    expect(mock.callsTo('GET', `/v1/payment_intents/${paymentIntentId}`)).toHaveLength(1)
    expect(await orderStatus(order.id)).toBe('refunded')
    const [after] = await t.db.select().from(orders)
    expect(after!.updatedAt.getTime()).toBeGreaterThanOrEqual(order.updatedAt.getTime())

    const again = await deliver(delivery)
    expect(again.status).toBe(200)
    expect(await orderStatus(order.id)).toBe('refunded')
    const [still] = await t.db.select().from(orders)
    expect(still!.updatedAt).toEqual(after!.updatedAt)
    expect(await orderCount()).toBe(1)
  })

  it('a partial refund is acknowledged and leaves the order as it was; the rest refunded later records it', async () => {
    const { order, paymentIntentId } = await paidOrder()
    await refundAtStripe({ payment_intent: paymentIntentId, amount: 500 })
    const partial = mock.chargeEvent('charge.refunded', paymentIntentId)
    expect(partial.event.data.object).toMatchObject({ refunded: false, amount_refunded: 500 })
    const info = vi.spyOn(console, 'info').mockImplementation(() => {})
    try {
      const res = await deliver(partial)
      expect(res.status).toBe(200)
      expect(await res.json()).toEqual({ received: true })
      expect(info).toHaveBeenCalledWith(expect.stringMatching(/partial refund \(500 of \d+ cents\)/))
    } finally {
      info.mockRestore()
    }
    expect(await orderStatus(order.id)).toBe(order.status)
    const [unchanged] = await t.db.select().from(orders)
    expect(unchanged).toEqual(order)

    await refundAtStripe({ payment_intent: paymentIntentId })
    expect((await deliver(mock.chargeEvent('charge.refunded', paymentIntentId))).status).toBe(200)
    expect(await orderStatus(order.id)).toBe('refunded')
  })

  it('refuses a tampered charge.refunded with 400 and changes nothing', async () => {
    const { order, paymentIntentId } = await paidOrder()
    await refundAtStripe({ payment_intent: paymentIntentId, amount: 500 })
    const good = mock.chargeEvent('charge.refunded', paymentIntentId)
    const tampered = { ...good, rawBody: good.rawBody.replace('"refunded": false', '"refunded": true') }
    expect(tampered.rawBody).not.toBe(good.rawBody)
    const lookups = mock.callsTo('GET', '/v1/payment_intents/').length
    const res = await deliver(tampered)
    expect(res.status).toBe(400)
    expect(((await res.json()) as { error: { code: string } }).error.code).toBe('validation_failed')
    expect(mock.callsTo('GET', '/v1/payment_intents/')).toHaveLength(lookups)
    expect(await orderStatus(order.id)).toBe(order.status)
  })

  it('acknowledges a refund for a payment intent Stripe does not know, and changes nothing', async () => {
    const { order, paymentIntentId } = await paidOrder()
    await refundAtStripe({ payment_intent: paymentIntentId })
    const real = mock.chargeEvent('charge.refunded', paymentIntentId)
    // A genuine, signed delivery about a charge whose PaymentIntent this account does not have (Stripe answers 404).
    const rawBody = real.rawBody.split(paymentIntentId).join('pi_3UnknownUnknownUnknown0')
    const timestamp = Math.floor(clock() / 1000)
    const signatureHeader = `t=${timestamp},v1=${createHmac('sha256', MOCK_STRIPE_WEBHOOK_SECRET).update(`${timestamp}.${rawBody}`).digest('hex')}`
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {})
    try {
      const res = await deliver({ rawBody, signatureHeader })
      expect(res.status).toBe(200)
      expect(await res.json()).toEqual({ received: true })
      expect(warn).toHaveBeenCalledWith(expect.stringMatching(/pi_3UnknownUnknownUnknown0 is unknown/))
    } finally {
      warn.mockRestore()
    }
    const [lookup] = mock.callsTo('GET', '/v1/payment_intents/pi_3UnknownUnknownUnknown0')
    expect(lookup!.status).toBe(404)
    expect(await orderStatus(order.id)).toBe(order.status)
  })

  it('acknowledges a full refund whose checkout session has no order here, and changes nothing', async () => {
    const { order, paymentIntentId } = await paidOrder()
    await refundAtStripe({ payment_intent: paymentIntentId })
    const delivery = mock.chargeEvent('charge.refunded', paymentIntentId)
    await t.db.delete(orders)
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {})
    try {
      expect((await deliver(delivery)).status).toBe(200)
      expect(warn).toHaveBeenCalledWith(expect.stringMatching(/no order for checkout session/))
    } finally {
      warn.mockRestore()
    }
    expect(await orderCount()).toBe(0)
    expect(mock.callsTo('GET', `/v1/payment_intents/${paymentIntentId}`)).toHaveLength(1)
    expect(order.checkoutSessionId).toBe(mock.paymentIntents.get(paymentIntentId)!.metadata.checkout_session_id)
  })

  it('answers 502 when Stripe cannot be reached, so Stripe delivers the event again', async () => {
    const { order, paymentIntentId } = await paidOrder()
    await refundAtStripe({ payment_intent: paymentIntentId })
    const delivery = mock.chargeEvent('charge.refunded', paymentIntentId)
    for (let i = 0; i <= STRIPE_MAX_NETWORK_RETRIES; i++) mock.failNext(503)
    const res = await deliver(delivery)
    expect(res.status).toBe(502)
    expect(mock.callsTo('GET', `/v1/payment_intents/${paymentIntentId}`).map((c) => c.status)).toEqual(Array(STRIPE_MAX_NETWORK_RETRIES + 1).fill(503))
    expect(await orderStatus(order.id)).toBe(order.status)
    expect((await deliver(delivery)).status).toBe(200)
    expect(await orderStatus(order.id)).toBe('refunded')
  })
})
