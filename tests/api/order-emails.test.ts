import { and, eq, inArray } from 'drizzle-orm'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { checkoutSessions, jobs, orderParcels, orders, outboxEmails, previews } from '../../app/api/db/schema'
import { createStripeClient, StripePaymentProvider } from '../../app/api/providers/payments/stripe'
import { applyPaymentState, fulfilCheckout } from '../../app/api/services/checkout'
import { demoAccounts } from '../../app/api/demo/accounts'
import { fulfilmentJobs } from '../../app/api/services/fulfilment'
import { drainJobs } from '../../app/api/services/jobs'
import { mailJobs } from '../../app/api/services/mail'
import { orderConfirmationEmail, orderShippedEmail, queueOrderConfirmation, queueOrderShipped } from '../../app/api/services/order-emails'
import { trackingLinkFor } from '../../app/catalogue/tracking'
import { formatWeekday, shippingMethods } from '../../app/catalogue/shipping'
import { LOCAL_TEST_CARDS, type Order } from '../../app/contract/cart'
import { cartItemFor, recordPreview } from '../support/cart'
import { addAlbumPhotos } from '../support/photos'
import { createStripeMock, MOCK_STRIPE_SECRET_KEY, MOCK_STRIPE_WEBHOOK_SECRET, type StripeMockServer } from '../support/stripe-mock'
import { splitIntoTwoParcels } from '../support/parcels'
import { createTestApi, TEST_ORIGIN, type TestApi } from '../support/test-api'

let t: TestApi
let maya: string
let sam: string
const START = new Date('2026-11-22T12:00:00Z')

beforeAll(async () => {
  t = await createTestApi()
  maya = await t.signIn(0)
  sam = await t.signIn(1)
})
afterAll(() => t.close())
beforeEach(() => t.setNow(START))

/** The shipping address e-mail is not the account's: the e-mails must go to the account (users.email). */
const address = {
  name: 'Maya Rivera',
  email: 'orders-elsewhere@example.com',
  phone: '212 555 0100',
  line1: '12 Orchard Street',
  line2: 'Apt 4',
  city: 'New York',
  state: 'NY',
  postalCode: '10002',
  country: 'US' as const,
}

const emailsFor = (orderId: string) =>
  t.db
    .select()
    .from(outboxEmails)
    .where(inArray(outboxEmails.reference, [`order-confirmation:${orderId}`, `order-shipped:${orderId}`]))
const emailOf = async (reference: string) => (await t.db.select().from(outboxEmails).where(eq(outboxEmails.reference, reference)))[0]
const sendJobsOf = async (emailIds: string[]) =>
  emailIds.length
    ? t.db
        .select()
        .from(jobs)
        .where(
          and(
            eq(jobs.kind, 'send-email'),
            inArray(
              jobs.dedupeKey,
              emailIds.map((id) => `send-email:${id}`),
            ),
          ),
        )
    : []

/** Adds a designed Star pair (two real album photos on it) to Maya's cart and opens a checkout. */
async function checkoutWithStar(quantity = 2) {
  const preview = await recordPreview(t, t.users[0].id, 'star')
  // Real photos, so the thumbnails the e-mail links to exist and can be fetched.
  const photos = await addAlbumPhotos(t, demoAccounts[0].family.id, 2)
  await t.db
    .update(previews)
    .set({ design: photos.map((p, i) => ({ cellId: `star-${i ? 'right' : 'left'}`, photoId: p.id, transform: { x: 0, y: 0, zoom: 1, rotation: 0 } })) })
    .where(eq(previews.id, preview.id))
  const added = await t.request('/v1/photo-products-cart/items', { method: 'POST', cookie: maya, json: { ...cartItemFor(preview), quantity } })
  expect(added.status, JSON.stringify(added.body)).toBe(201)
  const session = await t.request('/v1/photo-products-cart/checkout-session', { method: 'POST', cookie: maya })
  expect(session.status, JSON.stringify(session.body)).toBe(201)
  return { sessionId: session.body.id as string, photoIds: photos.map((p) => p.id) }
}

const pay = (sessionId: string, shippingAddress: Record<string, unknown> = address) =>
  t.request(`/v1/checkout/local/${sessionId}/pay`, { method: 'POST', cookie: maya, json: { cardNumber: LOCAL_TEST_CARDS.succeeds, shippingAddress } })

/** The order as its shopper reads it (GET /v1/photo-products-orders/:id). */
async function orderOf(id: string) {
  const res = await t.request(`/v1/photo-products-orders/${id}`, { cookie: maya })
  expect(res.status, JSON.stringify(res.body)).toBe(200)
  return res.body as Order
}

async function paidOrder(shippingAddress: Record<string, unknown> = address) {
  const { sessionId, photoIds } = await checkoutWithStar()
  const paid = await pay(sessionId, shippingAddress)
  expect(paid.status, JSON.stringify(paid.body)).toBe(200)
  // The row itself: the tests hand it to the services that queue the e-mails.
  const [order] = await t.db.select().from(orders).where(eq(orders.id, paid.body.orderId))
  return { sessionId, photoIds, order: order! }
}

/** The order's (one) parcel's method and promised day, in the e-mails' words, from its row. */
async function deliveryOf(orderId: string) {
  const [parcel] = await t.db.select().from(orderParcels).where(eq(orderParcels.orderId, orderId))
  expect(parcel!.arrivesBy).toMatch(/^\d{4}-\d{2}-\d{2}$/)
  return `${shippingMethods[parcel!.shippingMethod].label} shipping, arrives by ${formatWeekday(parcel!.arrivesBy!)}`
}

/** Runs the local print shop's jobs: submitted now, in production one step later, shipped two steps later. */
async function shipLocally() {
  expect(await drainJobs(t.api.deps, fulfilmentJobs)).toContainEqual(expect.objectContaining({ kind: 'submit-order', outcome: 'done' }))
  const step = t.config.localFulfilmentStepSeconds * 1000
  t.setNow(new Date(START.getTime() + step))
  expect(await drainJobs(t.api.deps, fulfilmentJobs)).toContainEqual(expect.objectContaining({ kind: 'advance-order', outcome: 'done' }))
  return async () => {
    t.setNow(new Date(START.getTime() + 2 * step))
    expect(await drainJobs(t.api.deps, fulfilmentJobs)).toContainEqual(expect.objectContaining({ kind: 'advance-order', outcome: 'done' }))
  }
}

describe('the order confirmation', () => {
  it('is queued once, with the order, to the account address: lines, photo thumbnails, totals, address and the order link', async () => {
    const { order, photoIds } = await paidOrder()
    const emails = await emailsFor(order.id)
    expect(emails).toHaveLength(1)
    const email = emails[0]!
    expect(email).toMatchObject({
      kind: 'order-confirmation',
      reference: `order-confirmation:${order.id}`,
      to: demoAccounts[0].user.email,
      status: 'scheduled',
      transport: 'outbox',
      subject: `Your Keepsake order ${order.reference} is confirmed`,
    })
    expect(email.sendAfter.toISOString()).toBe(START.toISOString())
    // Two Star pairs at $24.99 (list $29.99), $5.99 shipping (under $50): $55.97, and New York's 4 % on both, $2.24: $58.21, as the order's totals say.
    expect(order.totals.totalCents).toBe(5821)
    const orderUrl = `${TEST_ORIGIN}/photo-products/orders#order-${order.reference}`
    for (const part of [
      'Star Photo Ornament',
      'Qty 2 × $24.99: $49.98',
      'Subtotal: $59.98',
      'Sale savings: −$10.00',
      'Shipping: $5.99',
      'Sales tax (NY): $2.24',
      'Total paid: $58.21',
    ]) {
      expect(email.text).toContain(part)
    }
    expect(email.text).toContain('Shipping to:\nMaya Rivera\n12 Orchard Street\nApt 4\nNew York, NY 10002')
    // Issue 32: the method and the day the checkout promised, as the order keeps them.
    const promise = await deliveryOf(order.id)
    expect(promise).toMatch(/^Standard shipping, arrives by [A-Z][a-z]{2}, [A-Z][a-z]{2} \d{1,2}$/)
    expect(email.text).toContain(promise)
    expect(email.html).toContain(`<strong>${promise}</strong>`)
    expect(email.text).toContain(`See your order: ${orderUrl}`)
    expect(email.html).toContain('$58.21')
    expect(email.html).toContain(`href="${orderUrl}"`)
    expect(email.html).toContain('12 Orchard Street<br>Apt 4<br>New York, NY 10002')
    // The two photos on the ornaments, as absolute URLs an e-mail client can load without our cookie.
    for (const id of photoIds) {
      const url = `${TEST_ORIGIN}/v1/media/photos/${id}/small.jpg`
      expect(email.html).toContain(`src="${url}"`)
      const image = await t.request(url.slice(TEST_ORIGIN.length))
      expect(image.status).toBe(200)
      expect(image.headers.get('content-type')).toBe('image/jpeg')
    }
    // Its delivery job exists once and delivers it.
    expect(await sendJobsOf([email.id])).toHaveLength(1)
    await drainJobs(t.api.deps, mailJobs)
    expect((await emailOf(email.reference))!.status).toBe('sent')
  })

  it('paying again, the return page, a replayed payment state and fulfilCheckout twice (and at once) leave exactly one', async () => {
    const { order, sessionId } = await paidOrder()
    expect((await pay(sessionId)).body.orderId).toBe(order.id)
    expect((await t.request(`/v1/photo-products-cart/checkout-session/${sessionId}`, { cookie: maya })).body.orderId).toBe(order.id)
    const [session] = await t.db.select().from(checkoutSessions).where(eq(checkoutSessions.id, sessionId))
    // What the payment webhook does with a (re)delivered "paid" event.
    await applyPaymentState(t.api.deps, session!, { status: 'paid', shippingAddress: address, amountTotalCents: order.totals.totalCents })
    await applyPaymentState(t.api.deps, session!, { status: 'paid', shippingAddress: address, amountTotalCents: order.totals.totalCents })
    const results = await Promise.all(Array.from({ length: 10 }, () => fulfilCheckout(t.api.deps, sessionId)))
    expect(new Set(results.map((o) => o!.id))).toEqual(new Set([order.id]))
    const emails = await emailsFor(order.id)
    expect(emails.map((e) => e.kind)).toEqual(['order-confirmation'])
    expect(await sendJobsOf(emails.map((e) => e.id))).toHaveLength(1)
  })

  it('queueing it again for the same order (a retried step) is refused by the outbox, not duplicated', async () => {
    const { order } = await paidOrder()
    const first = (await emailOf(`order-confirmation:${order.id}`))!
    expect(await queueOrderConfirmation(t.db, t.api.deps, order, t.now())).toBeNull()
    expect(await emailsFor(order.id)).toEqual([first])
  })

  it('escapes what the shopper typed (<script>, &) in the HTML and keeps it as typed in the text', async () => {
    const name = 'Ann <script>alert("x")</script> & Co'
    const { order } = await paidOrder({ ...address, name, line2: 'Unit 5 & 6 <b>' })
    const email = (await emailOf(`order-confirmation:${order.id}`))!
    expect(email.html).not.toContain('<script')
    expect(email.html).not.toContain('<b>')
    expect(email.html).toContain('Ann &lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; Co')
    expect(email.html).toContain('Unit 5 &amp; 6 &lt;b&gt;')
    expect(email.text).toContain(name)
  })
})

describe('the shipping e-mail', () => {
  it('is queued once when the local print shop ships the order, with the tracking number and a UPS link', async () => {
    const { order } = await paidOrder()
    const ship = await shipLocally()
    expect((await orderOf(order.id)).status).toBe('in_production')
    // Submitted and in production: nothing said yet.
    expect(await emailOf(`order-shipped:${order.id}`)).toBeUndefined()
    await ship()
    const shipped = await orderOf(order.id)
    expect(shipped).toMatchObject({ status: 'shipped', trackingNumber: expect.stringMatching(/^1ZKS\d{14}$/) })
    const email = (await emailOf(`order-shipped:${order.id}`))!
    const link = `https://www.ups.com/track?tracknum=${shipped!.trackingNumber}`
    expect(email).toMatchObject({ kind: 'order-shipped', to: demoAccounts[0].user.email, subject: `Your Keepsake order ${order.reference} is on its way` })
    expect(email.sendAfter.toISOString()).toBe(t.now().toISOString())
    expect(email.text).toContain(`Tracking number: ${shipped!.trackingNumber}`)
    expect(email.text).toContain(`Track your parcel: ${link}`)
    expect(email.text).toContain(await deliveryOf(order.id))
    expect(email.html).toContain(`<strong>${await deliveryOf(order.id)}</strong>`)
    expect(email.text).toContain(`See your order: ${TEST_ORIGIN}/photo-products/orders#order-${order.reference}`)
    expect(email.html).toContain(`href="${link}"`)

    // The step run again (a retried job), and queueing again directly: still one, and one delivery job.
    await t.db
      .update(jobs)
      .set({ status: 'queued', runAt: t.now() })
      .where(eq(jobs.dedupeKey, `advance-order:${order.id}:shipped`))
    expect(await drainJobs(t.api.deps, fulfilmentJobs)).toContainEqual(expect.objectContaining({ kind: 'advance-order', outcome: 'done' }))
    expect(await queueOrderShipped(t.db, t.api.deps, order.id, t.now())).toBeNull()
    const emails = await emailsFor(order.id)
    expect(emails.map((e) => e.kind).sort()).toEqual(['order-confirmation', 'order-shipped'])
    expect(await sendJobsOf(emails.map((e) => e.id))).toHaveLength(2)
    // The tracking number did not change either (the retried step found the order shipped).
    expect((await orderOf(order.id)).trackingNumber).toBe(shipped!.trackingNumber)
  })

  it('links the provider’s own tracking URL when the order has one', async () => {
    const { order } = await paidOrder()
    const ship = await shipLocally()
    const own = 'https://track.example.com/parcel?id=42&lang=en'
    // The order's one parcel (it has the order's id) is what the provider ships and tracks.
    await t.db.update(orderParcels).set({ trackingUrl: own }).where(eq(orderParcels.id, order.id))
    await ship()
    const email = (await emailOf(`order-shipped:${order.id}`))!
    expect(email.text).toContain(`Track your parcel: ${own}`)
    expect(email.html).toContain('href="https://track.example.com/parcel?id=42&amp;lang=en"')
    expect(email.html).not.toContain('ups.com')
  })

  it('is not sent for an order refunded before it shipped', async () => {
    const { order } = await paidOrder()
    const ship = await shipLocally()
    await t.db.update(orders).set({ status: 'refunded' }).where(eq(orders.id, order.id))
    await ship()
    expect(await emailOf(`order-shipped:${order.id}`)).toBeUndefined()
  })
})

describe('an order of two parcels with the local print shop (issue 33)', () => {
  it('each parcel goes through production on its own, ships with its own tracking and its own e-mail; the order ships with the last', async () => {
    const { order } = await paidOrder()
    const secondId = await splitIntoTwoParcels(t, order.id)
    const ship = await shipLocally()
    const before = await orderOf(order.id)
    expect(before.parcels.map((p: { status: string }) => p.status)).toEqual(['in_production', 'in_production'])
    expect(before.status).toBe('in_production')
    await ship()
    const after = await orderOf(order.id)
    expect(after.status).toBe('shipped')
    const [mine, grandmas] = after.parcels as { id: string; trackingNumber: string; shippingAddress: { city: string } }[]
    expect(mine!.trackingNumber).toMatch(/^1ZKS\d{14}$/)
    expect(grandmas!.trackingNumber).toMatch(/^1ZKS\d{14}$/)
    expect(grandmas!.trackingNumber).not.toBe(mine!.trackingNumber)
    expect(grandmas!.shippingAddress.city).toBe('Columbus')
    const mails = [(await emailOf(`order-shipped:${order.id}`))!, (await emailOf(`order-shipped:${secondId}`))!]
    expect(mails[0]!.text).toContain(mine!.trackingNumber)
    expect(mails[0]!.text).toContain('New York, NY 10002')
    expect(mails[1]!.text).toContain(grandmas!.trackingNumber)
    expect(mails[1]!.text).toContain('Columbus, OH 43004')
  })
})

describe('the demo outbox', () => {
  it('shows both e-mails to the shopper who owns the order, and not to another shopper', async () => {
    const { order } = await paidOrder()
    await (
      await shipLocally()
    )()
    const mine = (await t.request('/v1/demo/outbox', { cookie: maya })).body.emails as { kind: string; subject: string; to: string; text: string }[]
    const about = mine.filter((e) => e.subject.includes(order.reference))
    expect(about.map((e) => e.kind).sort()).toEqual(['order-confirmation', 'order-shipped'])
    expect(about.every((e) => e.to === demoAccounts[0].user.email)).toBe(true)
    const theirs = await t.request('/v1/demo/outbox', { cookie: sam })
    expect(theirs.status).toBe(200)
    expect(
      (theirs.body.emails as { subject: string; text: string }[]).filter((e) => e.subject.includes(order.reference) || e.text.includes(order.reference)),
    ).toEqual([])
    expect((await t.request('/v1/demo/outbox')).body.emails).toEqual([])
  })
})

describe('the templates', () => {
  const base = {
    firstName: 'Maya',
    reference: 'KS-0000ABCD',
    orderUrl: 'https://shop.example/photo-products/orders#order-KS-0000ABCD',
    supportEmail: 'help@keepsake.example',
  }

  it('offer a UPS link for 1Z numbers only, and none for a number of an unknown carrier', () => {
    expect(trackingLinkFor('1ZKS12345678901234', null)).toBe('https://www.ups.com/track?tracknum=1ZKS12345678901234')
    expect(trackingLinkFor('9400111899223856928499', null)).toBeNull()
    expect(trackingLinkFor('1ZKS12345678901234', 'javascript:alert(1)')).toBe('https://www.ups.com/track?tracknum=1ZKS12345678901234')
    const shipped = orderShippedEmail({ ...base, trackingNumber: '9400111899223856928499', trackingLink: null, shippingAddress: null })
    expect(shipped.text).toContain('Tracking number: 9400111899223856928499')
    expect(shipped.text).not.toContain('Track your parcel')
    expect(shipped.html).not.toContain('Track your parcel')
  })

  it('list store credit and bundle savings when the order used them, and free shipping as Free', () => {
    const totals = {
      currency: 'usd' as const,
      itemCount: 3,
      subtotalCents: 8997,
      saleSavingsCents: 1500,
      bundleSavingsCents: 800,
      bundles: [],
      shippingMethod: 'standard' as const,
      shippingCents: 0,
      creditsCents: 1000,
      totalCents: 5697,
      freeShippingRemainingCents: 0,
      taxCents: 0,
      tax: null,
      parcels: [],
    }
    const { text, html } = orderConfirmationEmail({
      ...base,
      totals,
      shippingAddress: null,
      lines: [
        { title: 'Tree & Star', quantity: 1, unitAmountCents: 2499, imageUrls: [] },
        {
          title: 'Star Photo Ornament',
          quantity: 1,
          unitAmountCents: 2499,
          imageUrls: [],
          text: { left: { line: 'Ava & Leo · 2026', typeface: 'lora', colour: 'gold' }, right: { line: '<b>Noël</b>', typeface: 'montserrat', colour: 'ink' } },
        },
      ],
    })
    for (const part of ['Bundle savings: −$8.00', 'Store credit: −$10.00', 'Shipping: Free', 'Total paid: $56.97', 'Qty 1: $24.99'])
      expect(text).toContain(part)
    expect(text).not.toContain('Shipping to:')
    expect(html).toContain('Tree &amp; Star')
    // Each ornament's line, as the order page names it; escaped in the HTML.
    expect(text).toContain('Star Photo Ornament\n  Text: Left: “Ava & Leo · 2026” in Lora, gold; Right: “<b>Noël</b>” in Montserrat, ink\n  Qty 1: $24.99')
    expect(html).toContain('Text: Left: “Ava &amp; Leo · 2026” in Lora, gold; Right: “&lt;b&gt;Noël&lt;/b&gt;” in Montserrat, ink')
    expect(html).not.toContain('<b>Noël')
  })
})

describe('through Stripe', () => {
  let s: TestApi
  const clock = () => (s ? s.now().getTime() : START.getTime())
  const mock = createStripeMock({ now: clock })
  let server: StripeMockServer
  beforeAll(async () => {
    server = await mock.listen()
    const client = createStripeClient({ secretKey: MOCK_STRIPE_SECRET_KEY, ...server.endpoint })
    s = await createTestApi(
      { STRIPE_SECRET_KEY: MOCK_STRIPE_SECRET_KEY, STRIPE_WEBHOOK_SECRET: MOCK_STRIPE_WEBHOOK_SECRET },
      { payments: new StripePaymentProvider(client, { now: clock }) },
    )
  })
  afterAll(() => Promise.all([s.close(), server.close()]))

  it('a webhook delivered three times, racing the return page, queues one confirmation', async () => {
    const cookie = await s.signIn(0)
    const preview = await recordPreview(s, s.users[0].id, 'tree')
    expect((await s.request('/v1/photo-products-cart/items', { method: 'POST', cookie, json: cartItemFor(preview) })).status).toBe(201)
    const session = await s.request('/v1/photo-products-cart/checkout-session', { method: 'POST', cookie })
    const [row] = await s.db.select().from(checkoutSessions).where(eq(checkoutSessions.id, session.body.id))
    mock.complete(row!.providerSessionId!, { paymentStatus: 'paid', shipping: { name: 'Jenny <Rosen> & Co' } })
    const delivery = mock.event('checkout.session.completed', row!.providerSessionId!)
    const deliver = () =>
      s.api.fetch(
        new Request(`${TEST_ORIGIN}/v1/webhooks/stripe`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'stripe-signature': delivery.signatureHeader },
          body: delivery.rawBody,
        }),
      )
    const results = await Promise.all([deliver(), deliver(), s.request(`/v1/photo-products-cart/checkout-session/${session.body.id}`, { cookie })])
    expect(results.slice(0, 2).map((r) => (r as Response).status)).toEqual([200, 200])
    expect((await deliver()).status).toBe(200)
    const [order] = await s.db.select().from(orders).where(eq(orders.checkoutSessionId, session.body.id))
    const emails = await s.db
      .select()
      .from(outboxEmails)
      .where(eq(outboxEmails.reference, `order-confirmation:${order!.id}`))
    expect(emails).toHaveLength(1)
    expect(emails[0]).toMatchObject({ to: demoAccounts[0].user.email, kind: 'order-confirmation' })
    expect(emails[0]!.html).toContain('Jenny &lt;Rosen&gt; &amp; Co')
  })
})
