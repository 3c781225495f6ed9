import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { cartItems, carts, checkoutSessions, jobs, orders } from '../../app/api/db/schema'
import { checkoutRateLimits, fulfilCheckout } from '../../app/api/services/checkout'
import { fulfilmentJobs } from '../../app/api/services/fulfilment'
import { claimJob, drainJobs, JOB_LEASE_MS } from '../../app/api/services/jobs'
import { MAX_QUANTITY_PER_LINE } from '../../app/contract/cart'
import { CART_CHANGED_MESSAGE } from '../../app/catalogue/cart-terms'
import { cartItemFor, emptyCartsAndOrders, recordPreview } from '../support/cart'
import { createTestApi, type TestApi } from '../support/test-api'

let t: TestApi
let cookie: string
let otherCookie: string
const address = {
  name: 'Maya Rivera',
  email: 'maya@example.com',
  phone: '212 555 0100',
  line1: '12 Orchard Street',
  line2: 'Apt 4',
  city: 'New York',
  state: 'NY',
  postalCode: '10002',
  country: 'US' as const,
}

beforeAll(async () => {
  t = await createTestApi()
  cookie = await t.signIn(0)
  otherCookie = await t.signIn(1)
})
afterAll(() => t.close())

/** Every test starts from an empty cart for both shoppers. */
beforeEach(() => emptyCartsAndOrders(t))

const api = (path: string, init: Parameters<TestApi['request']>[1] = {}) => t.request(path, { cookie, ...init })
const getCart = async (as = cookie) => (await t.request('/v1/photo-products-cart', { cookie: as })).body
const add = (item: unknown, as = cookie) => t.request('/v1/photo-products-cart/items', { method: 'POST', json: item, cookie: as })
const mine = (shape: 'tree' | 'star' | 'stocking' = 'star') => recordPreview(t, t.users[0].id, shape)

async function expectUnchanged(before: unknown) {
  expect(await getCart()).toEqual(before)
}

describe('adding items (SPEC.md §3, §5)', () => {
  // SPEC §3's optional designTemplateId and selectedColor are accepted, not refused with 422.
  it('accepts the optional designTemplateId and selectedColor, validated, and keeps them with the line', async () => {
    const selectedColor = { label: 'Gold', value: '#c9a227', maskImageUrl: '/photo-products/masks/star.png' }
    const res = await add(cartItemFor(await mine(), { metadata: { designTemplateId: 4021, selectedColor } }))
    expect(res.status, JSON.stringify(res.body)).toBe(201)
    expect(res.body.item.metadata).toMatchObject({ designTemplateId: 4021, selectedColor })
    expect((await getCart()).items[0].metadata).toMatchObject({ designTemplateId: 4021, selectedColor })
    for (const metadata of [
      { designTemplateId: 12.5 },
      { designTemplateId: '4021' },
      { selectedColor: { label: 'Gold', value: '#c9a227' } },
      { selectedColor: { ...selectedColor, maskImageUrl: 'javascript:alert(1)' } },
      { selectedColor: { ...selectedColor, label: 'x'.repeat(65) } },
    ]) {
      const before = await getCart()
      const refused = await add(cartItemFor(await mine(), { metadata }))
      expect(refused.status, JSON.stringify(metadata)).toBe(400)
      await expectUnchanged(before)
    }
  })

  it('adds a designed item with the server’s metadata and totals', async () => {
    const preview = await mine()
    const res = await add(cartItemFor(preview))
    expect(res.status).toBe(201)
    expect(res.body.created).toBe(true)
    expect(res.body.item).toMatchObject({ quantity: 1, previewId: preview.id, provider: 'PRINTIFY', lineTotalCents: 2999, lineSaleTotalCents: 2499 })
    expect(res.body.cart.totals).toEqual({
      currency: 'usd',
      itemCount: 1,
      subtotalCents: 2999,
      saleSavingsCents: 500,
      bundleSavingsCents: 0,
      bundles: [],
      shippingMethod: 'standard',
      shippingCents: 599,
      creditsCents: 0,
      totalCents: 3098,
      freeShippingRemainingCents: 2501,
      // No address known yet (no order, no address book): no tax until checkout has one.
      taxCents: 0,
      tax: null,
      // One parcel, the shopper's own: the whole cart.
      parcels: [
        {
          key: 'own',
          shippingMethod: 'standard',
          itemCount: 1,
          goodsCents: 2499,
          bundleSavingsCents: 0,
          shippingCents: 599,
          creditsCents: 0,
          taxCents: 0,
          tax: null,
        },
      ],
    })
  })

  it.each([
    ['a provider other than PRINTIFY', { provider: 'GELATO' }, 'provider must be PRINTIFY'],
    ['a print area position outside the eight', { metadata: { printAreas: [{ position: 'sleeve', imageUrl: 'x' }] } }, 'metadata.printAreas.0.position'],
    ['a missing price', { metadata: { price: undefined } }, 'Required'],
    ['a price given as text', { metadata: { price: '24.99' } }, 'Expected number, received string'],
    ['a negative sale price', { metadata: { salePrice: -1 } }, 'salePrice cannot be negative'],
    ['an empty itemIdentifier', { itemIdentifier: '' }, 'itemIdentifier is required'],
    ['a quantity above the limit', { quantity: MAX_QUANTITY_PER_LINE + 1 }, 'quantity must be a whole number'],
    ['a fractional variantId', { metadata: { variantId: 72965.5 } }, 'variantId must be a whole number'],
  ])('refuses %s with 400 and leaves the cart unchanged', async (_name, change, message) => {
    const preview = await mine()
    const before = await getCart()
    const { metadata, ...rest } = change as { metadata?: Record<string, unknown> }
    const base = cartItemFor(preview, { metadata })
    const res = await add({ ...base, ...rest })
    expect(res.status).toBe(400)
    expect(res.body.error.code).toBe('validation_failed')
    expect(res.body.error.message).toContain(message)
    await expectUnchanged(before)
  })

  it('needs a signed-in shopper (401)', async () => {
    const preview = await mine()
    const res = await t.request('/v1/photo-products-cart/items', { method: 'POST', json: cartItemFor(preview) })
    expect(res.status).toBe(401)
    expect((await t.request('/v1/photo-products-cart')).status).toBe(401)
  })

  it.each([
    ['a lower price', { price: 1 }],
    ['a lower sale price', { salePrice: 0.5 }],
    ['another product id', { providerProductId: 999 }],
    ['another print provider', { printProviderId: 1 }],
  ])('refuses %s than the catalogue’s (422) and records nothing', async (_name, metadata) => {
    const preview = await mine()
    const before = await getCart()
    const res = await add(cartItemFor(preview, { metadata }))
    expect(res.status).toBe(422)
    expect(res.body.error.code).toBe('rule_broken')
    await expectUnchanged(before)
  })

  it('names the current price when the price was tampered with', async () => {
    const res = await add(cartItemFor(await mine(), { metadata: { price: 1 } }))
    expect(res.body.error.message).toBe('The Star ornament costs $29.99 (on sale for $24.99); refresh to see the current price')
  })

  it('refuses print files the server did not make for this shopper (422)', async () => {
    const preview = await mine()
    const other = await mine('tree')
    const theirs = await recordPreview(t, t.users[1].id)
    const before = await getCart()
    const tampered = [
      // another shopper's preview, whole
      cartItemFor(theirs),
      // a print file swapped for one of another design
      cartItemFor(preview, {
        metadata: {
          printAreas: [
            { position: 'front', imageUrl: other.url('front.png') },
            { position: 'back', imageUrl: preview.url('back.png') },
          ],
        },
      }),
      // a print file from anywhere on the internet
      cartItemFor(preview, {
        metadata: {
          printAreas: [
            { position: 'front', imageUrl: `https://evil.example/previews/${preview.id}/front.png` },
            { position: 'back', imageUrl: preview.url('back.png') },
          ],
        },
      }),
      // one print area dropped
      cartItemFor(preview, { metadata: { printAreas: [{ position: 'front', imageUrl: preview.url('front.png') }] } }),
      // the positions swapped
      cartItemFor(preview, {
        metadata: {
          printAreas: [
            { position: 'back', imageUrl: preview.url('front.png') },
            { position: 'front', imageUrl: preview.url('back.png') },
          ],
        },
      }),
      // source images not of this design
      cartItemFor(preview, { metadata: { sourceImages: other.sourceImages } }),
      // a preview image from elsewhere
      cartItemFor(preview, { metadata: { previewCdnUrl: 'https://evil.example/x.jpg' } }),
      // a variant other than the design's
      cartItemFor(preview, { metadata: { variantId: 72963, price: 29.99, salePrice: 24.99 } }),
    ]
    for (const item of tampered) {
      const res = await add(item)
      expect(res.status, JSON.stringify(res.body)).toBe(422)
    }
    await expectUnchanged(before)
  })

  it('adding the same itemIdentifier twice keeps one line (201, then 200)', async () => {
    const item = cartItemFor(await mine())
    const first = await add(item)
    const second = await add(item)
    expect([first.status, second.status]).toEqual([201, 200])
    expect(second.body.item.id).toBe(first.body.item.id)
    expect((await getCart()).items).toHaveLength(1)
  })

  it('ten simultaneous adds of one item (a frantic double tap) make one line', async () => {
    const item = cartItemFor(await mine())
    const results = await Promise.all(Array.from({ length: 10 }, () => add(item)))
    expect(results.filter((r) => r.status === 201)).toHaveLength(1)
    expect(results.filter((r) => r.status === 200)).toHaveLength(9)
    expect((await getCart()).items).toHaveLength(1)
  })

  it('refuses an itemIdentifier reused for another design, and the same design twice (409)', async () => {
    const a = await mine()
    const b = await mine()
    expect((await add(cartItemFor(a))).status).toBe(201)
    const before = await getCart()
    expect((await add(cartItemFor(b, { itemIdentifier: `preview-${a.id}` }))).status).toBe(409)
    expect((await add(cartItemFor(a, { itemIdentifier: 'another-name' }))).status).toBe(409)
    await expectUnchanged(before)
  })

  it('stores the catalogue’s title, whatever the client called it', async () => {
    const res = await add(cartItemFor(await mine(), { metadata: { title: 'Free ornament!!' } }))
    expect(res.body.item.metadata.title).toBe('Star Photo Ornament')
  })
})

describe('quantities, removal and totals', () => {
  it('updates a quantity and recomputes totals; three pairs ship free', async () => {
    const { body } = await add(cartItemFor(await mine()))
    const res = await api(`/v1/photo-products-cart/items/${body.item.id}`, { method: 'PUT', json: { quantity: 3 } })
    expect(res.status).toBe(200)
    expect(res.body.totals).toMatchObject({
      itemCount: 3,
      subtotalCents: 8997,
      saleSavingsCents: 1500,
      shippingCents: 0,
      totalCents: 7497,
      freeShippingRemainingCents: 0,
    })
  })

  it.each([[0], [MAX_QUANTITY_PER_LINE + 1], [1.5], ['2'], [null], [-3]])('refuses quantity %j with 400 and changes nothing', async (quantity) => {
    const { body } = await add(cartItemFor(await mine()))
    const before = await getCart()
    const res = await api(`/v1/photo-products-cart/items/${body.item.id}`, { method: 'PUT', json: { quantity } })
    expect(res.status).toBe(400)
    await expectUnchanged(before)
  })

  it('someone else’s item is not found (404) for update and delete', async () => {
    const { body } = await add(cartItemFor(await mine()))
    const before = await getCart()
    const put = await t.request(`/v1/photo-products-cart/items/${body.item.id}`, { method: 'PUT', json: { quantity: 2 }, cookie: otherCookie })
    const del = await t.request(`/v1/photo-products-cart/items/${body.item.id}`, { method: 'DELETE', cookie: otherCookie })
    expect([put.status, del.status]).toEqual([404, 404])
    await expectUnchanged(before)
    expect((await api('/v1/photo-products-cart/items/not-a-uuid', { method: 'DELETE' })).status).toBe(400)
  })

  it('removes an item', async () => {
    const { body } = await add(cartItemFor(await mine()))
    const res = await api(`/v1/photo-products-cart/items/${body.item.id}`, { method: 'DELETE' })
    expect(res.status).toBe(200)
    expect(res.body.items).toEqual([])
    expect(res.body.totals).toMatchObject({ itemCount: 0, shippingCents: 0, totalCents: 0 })
  })
})

describe('cart states (resume and abandon)', () => {
  it('abandon → resume; illegal moves are 409 and change nothing', async () => {
    await add(cartItemFor(await mine()))
    expect((await api('/v1/photo-products-cart/resume', { method: 'PATCH' })).status).toBe(409)
    const abandoned = await api('/v1/photo-products-cart/abandon', { method: 'PATCH' })
    expect(abandoned.body.status).toBe('abandoned')
    const again = await api('/v1/photo-products-cart/abandon', { method: 'PATCH' })
    expect(again.status).toBe(409)
    expect(again.body.error.message).toBe('The cart is abandoned and cannot become abandoned')
    expect((await getCart()).status).toBe('abandoned')
    const resumed = await api('/v1/photo-products-cart/resume', { method: 'PATCH' })
    expect(resumed.status).toBe(200)
    expect(resumed.body.status).toBe('active')
    expect(resumed.body.items).toHaveLength(1)
  })

  it('changing an abandoned cart resumes it', async () => {
    const { body } = await add(cartItemFor(await mine()))
    await api('/v1/photo-products-cart/abandon', { method: 'PATCH' })
    const res = await api(`/v1/photo-products-cart/items/${body.item.id}`, { method: 'PUT', json: { quantity: 2 } })
    expect(res.body.status).toBe('active')
  })
})

async function checkout() {
  const res = await api('/v1/photo-products-cart/checkout-session', { method: 'POST' })
  expect(res.status, JSON.stringify(res.body)).toBe(201)
  return res.body
}
const pay = (id: string, cardNumber: string, as = cookie) =>
  t.request(`/v1/checkout/local/${id}/pay`, { method: 'POST', json: { cardNumber, shippingAddress: address }, cookie: as })

describe('checkout on the local provider', () => {
  // Two simultaneous checkouts on PostgreSQL leave one session open, so paying both cannot make two orders.
  it('20 simultaneous checkouts of one cart leave one payable session; paying every one answered makes one order', { timeout: 120_000 }, async () => {
    await add(cartItemFor(await mine()))
    const answers = await Promise.all(Array.from({ length: 20 }, () => api('/v1/photo-products-cart/checkout-session', { method: 'POST' })))
    for (const answer of answers) expect([201, 409], JSON.stringify(answer.body)).toContain(answer.status)
    const made = answers.filter((a) => a.status === 201).map((a) => a.body.id as string)
    expect(made.length).toBeGreaterThan(0)
    const open = (await t.db.select().from(checkoutSessions)).filter((s) => s.status === 'open')
    expect(open).toHaveLength(1)
    const paid = await Promise.all(made.map((id) => pay(id, '4242424242424242')))
    expect(paid.filter((p) => p.status === 200)).toHaveLength(1)
    expect(await t.db.select().from(orders)).toHaveLength(1)
    // Credit held by the sessions that were ended is released: none stays reserved.
    expect((await t.db.select().from(checkoutSessions)).filter((s) => s.creditStatus === 'reserved')).toEqual([])
  })

  it('an empty cart cannot check out (422)', async () => {
    const res = await api('/v1/photo-products-cart/checkout-session', { method: 'POST' })
    expect(res.status).toBe(422)
    expect(await t.db.select().from(checkoutSessions)).toHaveLength(0)
  })

  it('creates a session at server prices and answers the local checkout page', async () => {
    const { body } = await add(cartItemFor(await mine()))
    await api(`/v1/photo-products-cart/items/${body.item.id}`, { method: 'PUT', json: { quantity: 2 } })
    const session = await checkout()
    expect(session).toMatchObject({ provider: 'local', status: 'open', url: `/utils/checkout/${session.id}`, orderId: null })
    expect(session.lines).toEqual([expect.objectContaining({ quantity: 2, unitAmountCents: 2499, unitListAmountCents: 2999, title: 'Star Photo Ornament' })])
    expect(session.totals).toMatchObject({ subtotalCents: 5998, shippingCents: 599, totalCents: 5597 })
    const fetched = await api(`/v1/photo-products-cart/checkout-session/${session.id}`)
    expect(fetched.body).toEqual(session)
    expect((await t.request(`/v1/photo-products-cart/checkout-session/${session.id}`, { cookie: otherCookie })).status).toBe(404)
    expect((await pay(session.id, '4242424242424242', otherCookie)).status).toBe(404)
  })

  it('a declined card (402) leaves the session open and the cart intact', async () => {
    await add(cartItemFor(await mine()))
    const before = await getCart()
    const session = await checkout()
    const res = await pay(session.id, '4000 0000 0000 0002')
    expect(res.status).toBe(402)
    expect(res.body.error).toMatchObject({ code: 'payment_declined', message: 'Your card was declined. Try another card; nothing was charged.' })
    const after = await api(`/v1/photo-products-cart/checkout-session/${session.id}`)
    expect(after.body).toMatchObject({ status: 'open', orderId: null, lastError: 'Your card was declined. Try another card; nothing was charged.' })
    expect((await getCart()).items).toEqual(before.items)
    expect(await t.db.select().from(orders)).toHaveLength(0)
  })

  it('refuses a bad address or an unknown card with 400 and records nothing', async () => {
    await add(cartItemFor(await mine()))
    const session = await checkout()
    const badZip = await t.request(`/v1/checkout/local/${session.id}/pay`, {
      method: 'POST',
      cookie,
      json: { cardNumber: '4242424242424242', shippingAddress: { ...address, postalCode: 'ABCDE' } },
    })
    expect(badZip.status).toBe(400)
    expect(badZip.body.error.issues[0]).toMatchObject({ path: 'body.shippingAddress.postalCode', message: 'ZIP code must be 5 digits (or ZIP+4)' })
    expect((await pay(session.id, '5555555555554444')).status).toBe(400)
    expect((await api(`/v1/photo-products-cart/checkout-session/${session.id}`)).body.status).toBe('open')
  })

  // Issue 42, item 3: the address book's rule, not any two letters (a state ZZ was taxed at 0 and stored as ZZ).
  it('refuses a state we do not ship to and a ZIP code of another state (400), as the address book does, and records nothing', async () => {
    await add(cartItemFor(await mine()))
    const session = await checkout()
    for (const [shippingAddress, path, message] of [
      [{ ...address, state: 'ZZ' }, 'body.shippingAddress.state', 'Choose a state'],
      [{ ...address, postalCode: '90210' }, 'body.shippingAddress.postalCode', 'ZIP code 90210 is not in New York'],
    ] as const) {
      const res = await t.request(`/v1/checkout/local/${session.id}/pay`, { method: 'POST', cookie, json: { cardNumber: '4242424242424242', shippingAddress } })
      expect(res.status).toBe(400)
      expect(res.body.error.issues).toEqual([expect.objectContaining({ path, message })])
    }
    expect((await api(`/v1/photo-products-cart/checkout-session/${session.id}`)).body).toMatchObject({ status: 'open', totals: session.totals })
    expect(await t.db.select().from(orders)).toHaveLength(0)
  })

  it('a good card pays, makes one order, checks the cart out and starts a fresh one', async () => {
    await add(cartItemFor(await mine()))
    const session = await checkout()
    const res = await pay(session.id, '4242 4242 4242 4242')
    expect(res.status).toBe(200)
    expect(res.body.status).toBe('paid')
    expect(res.body.orderId).toEqual(expect.any(String))
    const cart = await getCart()
    expect(cart.items).toEqual([])
    expect(cart.id).not.toBe(session.cartId)
    const list = await api('/v1/photo-products-orders')
    expect(list.body.orders).toHaveLength(1)
    expect(list.body.orders[0]).toMatchObject({
      id: res.body.orderId,
      status: 'paid',
      shippingAddress: address,
      // What the session priced, with the sales tax of the state the address is in (NY, 4 % on goods and shipping).
      totals: {
        ...session.totals,
        taxCents: 124,
        tax: { state: 'NY', estimated: false, source: 'table' },
        totalCents: session.totals.totalCents + 124,
        parcels: [{ ...session.totals.parcels[0], taxCents: 124, tax: { state: 'NY', estimated: false, source: 'table' } }],
      },
      reference: expect.stringMatching(/^KS-[0-9A-F]{8}$/),
    })
    expect((await t.request(`/v1/photo-products-orders/${res.body.orderId}`, { cookie: otherCookie })).status).toBe(404)
    // Paying again answers the same order.
    const again = await pay(session.id, '4242424242424242')
    expect(again.body.orderId).toBe(res.body.orderId)
    expect(await t.db.select().from(orders)).toHaveLength(1)
  })

  it('a new session replaces the cart’s open one, which can no longer be paid', async () => {
    await add(cartItemFor(await mine()))
    const first = await checkout()
    const second = await checkout()
    expect((await api(`/v1/photo-products-cart/checkout-session/${first.id}`)).body.status).toBe('expired')
    expect((await pay(first.id, '4242424242424242')).status).toBe(409)
    expect((await pay(second.id, '4242424242424242')).status).toBe(200)
  })

  it('cancelling ends the session and abandons the cart until the shopper resumes it', async () => {
    await add(cartItemFor(await mine()))
    const session = await checkout()
    const res = await api(`/v1/photo-products-cart/checkout-session/${session.id}/cancel`, { method: 'POST' })
    expect(res.body.status).toBe('expired')
    expect((await getCart()).status).toBe('abandoned')
    expect((await api('/v1/photo-products-cart/resume', { method: 'PATCH' })).body.status).toBe('active')
  })

  it('a session left past its hour expires and abandons the cart', async () => {
    const start = t.now()
    try {
      await add(cartItemFor(await mine()))
      const session = await checkout()
      t.setNow(new Date(start.getTime() + 61 * 60_000))
      expect((await api(`/v1/photo-products-cart/checkout-session/${session.id}`)).body.status).toBe('expired')
      expect((await getCart()).status).toBe('abandoned')
      expect((await pay(session.id, '4242424242424242')).status).toBe(409)
    } finally {
      t.setNow(start)
    }
  })

  // A checkout pays for the cart as it is now: one Star checked out in one tab, two more added in another; the first tab must not pay for one.
  it.each([
    ['a line is added', async (_itemId: string) => void (await add(cartItemFor(await mine('tree')))), 2],
    ['a quantity changes', async (itemId: string) => void (await api(`/v1/photo-products-cart/items/${itemId}`, { method: 'PUT', json: { quantity: 3 } })), 1],
    ['a line is removed', async (itemId: string) => void (await api(`/v1/photo-products-cart/items/${itemId}`, { method: 'DELETE' })), 1],
  ])('when %s while a checkout is open, that checkout closes: it cannot be paid, its credit is released, and it says why', async (_, change, lines) => {
    const { body } = await add(cartItemFor(await mine()))
    if (lines === 1) await add(cartItemFor(await mine('stocking')))
    const session = await checkout()
    await change(body.item.id)
    const after = await api(`/v1/photo-products-cart/checkout-session/${session.id}`)
    expect(after.body).toMatchObject({ status: 'expired', lastError: CART_CHANGED_MESSAGE })
    const paid = await pay(session.id, '4242424242424242')
    expect(paid.status).toBe(409)
    expect(await t.db.select().from(orders)).toHaveLength(0)
    expect((await t.db.select().from(checkoutSessions)).filter((s) => s.creditStatus === 'reserved')).toEqual([])
    // The cart is as edited and checks out again at its new total.
    const cart = await getCart()
    const next = await checkout()
    expect(next.totals.totalCents).toBe(cart.totals.totalCents)
    expect((await pay(next.id, '4242424242424242')).status).toBe(200)
  })

  it('adding a line that is already there (a retried request) changes nothing and leaves the checkout open', async () => {
    const item = cartItemFor(await mine())
    await add(item)
    const session = await checkout()
    expect((await add(item)).status).toBe(200)
    expect((await api(`/v1/photo-products-cart/checkout-session/${session.id}`)).body.status).toBe('open')
  })

  it('starting checkouts is limited per shopper: past the limit a 429 with Retry-After says when, and nothing is made or ended', async () => {
    await add(cartItemFor(await mine()))
    let last = null as null | { id: string }
    for (let i = 0; i < checkoutRateLimits.sessionsPerUser.limit; i++) last = await checkout()
    const before = await t.db.select().from(checkoutSessions)
    const refused = await api('/v1/photo-products-cart/checkout-session', { method: 'POST' })
    expect(refused.status).toBe(429)
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0)
    expect(refused.body.error).toMatchObject({
      code: 'rate_limited',
      message: expect.stringMatching(/^Too many checkouts started; try again in \d+ minutes?$/),
    })
    // The open checkout is still the one to pay, and no other row appeared or changed.
    expect(await t.db.select().from(checkoutSessions)).toEqual(before)
    expect((await api(`/v1/photo-products-cart/checkout-session/${last!.id}`)).body.status).toBe('open')
    // Another shopper is not held back by this one's checkouts.
    await add(cartItemFor(await recordPreview(t, t.users[1].id, 'star')), otherCookie)
    expect((await api('/v1/photo-products-cart/checkout-session', { method: 'POST', cookie: otherCookie })).status).toBe(201)
    // Once the window has passed, the shopper can check out again.
    const start = t.now()
    t.setNow(new Date(start.getTime() + Number(refused.headers.get('retry-after')) * 1000))
    try {
      expect((await api('/v1/photo-products-cart/checkout-session', { method: 'POST' })).status).toBe(201)
    } finally {
      t.setNow(start)
    }
  })

  it('a session whose lines are not the cart’s any more (made while it was being edited) is refused at payment and closed', async () => {
    const { body } = await add(cartItemFor(await mine()))
    const session = await checkout()
    // The edit lands between the session reading the cart and its creation: no route closed it.
    await t.db.update(cartItems).set({ quantity: 3 }).where(eq(cartItems.id, body.item.id))
    const paid = await pay(session.id, '4242424242424242')
    expect(paid.status).toBe(409)
    expect(paid.body.error.message).toBe(CART_CHANGED_MESSAGE)
    expect((await api(`/v1/photo-products-cart/checkout-session/${session.id}`)).body).toMatchObject({ status: 'expired', lastError: CART_CHANGED_MESSAGE })
    expect(await t.db.select().from(orders)).toHaveLength(0)
  })
})

describe('fulfilment exactly once', () => {
  it('20 simultaneous fulfil calls for one paid session make one order', async () => {
    await add(cartItemFor(await mine()))
    const session = await checkout()
    await t.db.update(checkoutSessions).set({ status: 'paid', shippingAddress: address }).where(eq(checkoutSessions.id, session.id))
    const results = await Promise.all(Array.from({ length: 20 }, () => fulfilCheckout(t.api.deps, session.id)))
    expect(new Set(results.map((o) => o!.id)).size).toBe(1)
    expect(await t.db.select().from(orders)).toHaveLength(1)
    // One submission, and one delivery of the order confirmation (beside the design's print render, queued when it went into the cart).
    expect((await t.db.select().from(jobs)).map((j) => j.kind).sort()).toEqual(['render-print-files', 'send-email', 'submit-order'])
  })

  it('20 simultaneous return-page fetches of a paid session make one order', async () => {
    await add(cartItemFor(await mine()))
    const session = await checkout()
    await t.db.update(checkoutSessions).set({ status: 'paid', shippingAddress: address }).where(eq(checkoutSessions.id, session.id))
    const results = await Promise.all(Array.from({ length: 20 }, () => api(`/v1/photo-products-cart/checkout-session/${session.id}`)))
    expect(new Set(results.map((r) => r.body.orderId)).size).toBe(1)
    expect(await t.db.select().from(orders)).toHaveLength(1)
  })

  it('never fulfils an unpaid session', async () => {
    await add(cartItemFor(await mine()))
    const session = await checkout()
    expect(await fulfilCheckout(t.api.deps, session.id)).toBeNull()
    expect(await t.db.select().from(orders)).toHaveLength(0)
  })
})

describe('sending the order to print (local provider)', () => {
  it('submits, then moves through production to shipped on the configured timer', async () => {
    const start = t.now()
    try {
      await add(cartItemFor(await mine()))
      const session = await checkout()
      const { body } = await pay(session.id, '4242424242424242')
      const order = () => api(`/v1/photo-products-orders/${body.orderId}`).then((r) => r.body)
      // Submitted, then released to production at once (ORDER_HOLD_MINUTES is 0), which starts the local shop's timer.
      expect(await drainJobs(t.api.deps, fulfilmentJobs)).toEqual([
        expect.objectContaining({ kind: 'submit-order', outcome: 'done' }),
        expect.objectContaining({ kind: 'send-to-production', outcome: 'done' }),
      ])
      expect(await order()).toMatchObject({ status: 'submitted', providerOrderId: `local-${body.orderId}` })
      expect((await order()).parcels[0].sentToProductionAt).toBe(start.toISOString())
      expect(await drainJobs(t.api.deps, fulfilmentJobs)).toEqual([])
      t.setNow(new Date(start.getTime() + t.config.localFulfilmentStepSeconds * 1000))
      await drainJobs(t.api.deps, fulfilmentJobs)
      expect((await order()).status).toBe('in_production')
      t.setNow(new Date(start.getTime() + 2 * t.config.localFulfilmentStepSeconds * 1000))
      await drainJobs(t.api.deps, fulfilmentJobs)
      expect(await order()).toMatchObject({ status: 'shipped', trackingNumber: expect.stringMatching(/^1ZKS\d{14}$/) })
    } finally {
      t.setNow(start)
    }
  })

  it('a job interrupted mid-way (its worker died) is taken again after its lease and completes once', async () => {
    const start = t.now()
    try {
      await add(cartItemFor(await mine()))
      const session = await checkout()
      const { body } = await pay(session.id, '4242424242424242')
      const claimed = await claimJob(t.db, t.now(), ['submit-order'])
      expect(claimed).toMatchObject({ kind: 'submit-order', status: 'running', attempts: 1 })
      // The worker dies here. Until the lease runs out, nobody else takes the job.
      expect(await drainJobs(t.api.deps, fulfilmentJobs)).toEqual([])
      t.setNow(new Date(start.getTime() + JOB_LEASE_MS + 1000))
      expect(await drainJobs(t.api.deps, fulfilmentJobs)).toEqual([
        expect.objectContaining({ kind: 'submit-order', outcome: 'done' }),
        expect.objectContaining({ kind: 'send-to-production', outcome: 'done' }),
      ])
      const [job] = await t.db.select().from(jobs).where(eq(jobs.kind, 'submit-order'))
      expect(job).toMatchObject({ status: 'done', attempts: 2 })
      expect((await api(`/v1/photo-products-orders/${body.orderId}`)).body.status).toBe('submitted')
    } finally {
      t.setNow(start)
    }
  })
})

describe('bookkeeping', () => {
  it('a checked-out cart keeps its lines as the record of the order', async () => {
    await add(cartItemFor(await mine()))
    const session = await checkout()
    await pay(session.id, '4242424242424242')
    const [old] = await t.db.select().from(carts).where(eq(carts.id, session.cartId))
    expect(old!.status).toBe('checked_out')
    expect(await t.db.select().from(cartItems).where(eq(cartItems.cartId, session.cartId))).toHaveLength(1)
  })
})
