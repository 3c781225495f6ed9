import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { checkoutSessions } from '../../app/api/db/schema'
import { MemoryRateLimiter } from '../../app/api/rate-limit'
import { LOCAL_TEST_CARDS } from '../../app/contract/cart'
import { cartItemFor, recordPreview, testAddress } from '../support/cart'
import { CREDIT_CHANGED_MESSAGE } from '../../app/catalogue/cart-terms'
import { creditedShopper, giftCode, storeCreditOf } from '../support/credit'
import { createTestApi, type TestApi } from '../support/test-api'

/**
 * Issue 29, bug 1: a checkout session that replaces the cart's open one (a double tap, a second tab, Back
 * then Checkout) holds the store credit the old one released, however the calls interleave.
 */
let t: TestApi

beforeAll(async () => {
  t = await createTestApi()
})
afterAll(() => t.close())
beforeEach(() => {
  t.api.deps.rateLimiter = new MemoryRateLimiter()
})

/** A shopper with $10.00 of credit and one tree pair ($24.99 + $5.99 shipping) in the cart. */
async function shopperWithCart() {
  const shopper = await creditedShopper(t)
  const preview = await recordPreview(t, shopper.user.id, 'tree')
  const added = await t.request('/v1/photo-products-cart/items', { method: 'POST', cookie: shopper.cookie, json: cartItemFor(preview) })
  expect(added.status).toBe(201)
  return shopper
}
const checkout = (cookie: string) => t.request('/v1/photo-products-cart/checkout-session', { method: 'POST', cookie })
const openSessionsOf = async (userId: string) => (await t.db.select().from(checkoutSessions)).filter((s) => s.userId === userId && s.status === 'open')

describe('a checkout session that replaces another', () => {
  it('holds the credit the one it replaced released, every time; paying it charges the total less the credit', async () => {
    const shopper = await shopperWithCart()
    let last
    for (let attempt = 0; attempt < 3; attempt++) {
      last = await checkout(shopper.cookie)
      expect(last.status, JSON.stringify(last.body)).toBe(201)
      expect(last.body.totals, `attempt ${attempt + 1}`).toMatchObject({ creditsCents: 1000, totalCents: 2098 })
      expect(await storeCreditOf(t, shopper.cookie, shopper.user.id)).toEqual({ balanceCents: 0, ledgerSumCents: 0 })
    }
    const open = await openSessionsOf(shopper.user.id)
    expect(open.map((s) => s.id)).toEqual([last!.body.id])
    expect(open[0]!.creditStatus).toBe('reserved')
    // The cart shows what the checkout charges.
    expect((await t.request('/v1/photo-products-cart', { cookie: shopper.cookie })).body.totals).toMatchObject({ creditsCents: 1000, totalCents: 2098 })

    const paid = await t.request(`/v1/checkout/local/${last!.body.id}/pay`, {
      method: 'POST',
      cookie: shopper.cookie,
      json: { cardNumber: LOCAL_TEST_CARDS.succeeds, shippingAddress: testAddress },
    })
    expect(paid.status).toBe(200)
    const order = await t.request(`/v1/photo-products-orders/${paid.body.orderId}`, { cookie: shopper.cookie })
    // Paid with the tax of the address (NY, 4 %) on the goods after credit and on shipping: (1499 + 599) × 4 % = 84.
    expect(order.body.totals).toMatchObject({ creditsCents: 1000, taxCents: 84, totalCents: 2098 + 84 })
    expect(await storeCreditOf(t, shopper.cookie, shopper.user.id)).toEqual({ balanceCents: 0, ledgerSumCents: 0 })
  })

  it.each([2, 5])('%i simultaneous checkouts leave one open session, and it holds the credit', async (n) => {
    const shopper = await shopperWithCart()
    const answers = await Promise.all(Array.from({ length: n }, () => checkout(shopper.cookie)))
    for (const answer of answers) expect([201, 409], JSON.stringify(answer.body)).toContain(answer.status)
    const open = await openSessionsOf(shopper.user.id)
    expect(open).toHaveLength(1)
    expect(open[0]!.totals).toMatchObject({ creditsCents: 1000, totalCents: 2098 })
    expect(open[0]!.creditStatus).toBe('reserved')
    expect(await storeCreditOf(t, shopper.cookie, shopper.user.id)).toEqual({ balanceCents: 0, ledgerSumCents: 0 })
    // Cancelling it gives the whole credit back.
    await t.request(`/v1/photo-products-cart/checkout-session/${open[0]!.id}/cancel`, { method: 'POST', cookie: shopper.cookie })
    expect(await storeCreditOf(t, shopper.cookie, shopper.user.id)).toEqual({ balanceCents: 1000, ledgerSumCents: 1000 })
  })
})

describe('credit granted while a checkout is open', () => {
  it('closes that checkout, which says why; the next one holds all the credit the cart may use', async () => {
    const shopper = await shopperWithCart()
    const first = await checkout(shopper.cookie)
    expect(first.body.totals).toMatchObject({ creditsCents: 1000, totalCents: 2098 })
    const code = await giftCode(t, await t.signIn(1), 1000)
    expect((await t.request('/v1/egifts/redeem', { method: 'POST', cookie: shopper.cookie, json: { code } })).status).toBe(200)

    const closed = await t.request(`/v1/photo-products-cart/checkout-session/${first.body.id}`, { cookie: shopper.cookie })
    expect(closed.body).toMatchObject({ status: 'expired', lastError: CREDIT_CHANGED_MESSAGE })
    expect(await storeCreditOf(t, shopper.cookie, shopper.user.id)).toEqual({ balanceCents: 2000, ledgerSumCents: 2000 })
    expect((await t.request('/v1/photo-products-cart', { cookie: shopper.cookie })).body.totals).toMatchObject({ creditsCents: 2000, totalCents: 1098 })
    const next = await checkout(shopper.cookie)
    expect(next.body.totals).toMatchObject({ creditsCents: 2000, totalCents: 1098 })
  })

  it('leaves open a checkout that already holds all the credit the cart may use', async () => {
    const shopper = await shopperWithCart()
    // Credit may pay at most the goods, $24.99: with $10 + $50 held, a checkout takes $24.99, and more credit changes nothing.
    const code = await giftCode(t, await t.signIn(1), 5000)
    await t.request('/v1/egifts/redeem', { method: 'POST', cookie: shopper.cookie, json: { code } })
    const first = await checkout(shopper.cookie)
    expect(first.body.totals).toMatchObject({ creditsCents: 2499, totalCents: 599 })
    const more = await giftCode(t, await t.signIn(1), 1000)
    expect((await t.request('/v1/egifts/redeem', { method: 'POST', cookie: shopper.cookie, json: { code: more } })).status).toBe(200)
    expect((await t.request(`/v1/photo-products-cart/checkout-session/${first.body.id}`, { cookie: shopper.cookie })).body.status).toBe('open')
    expect(await storeCreditOf(t, shopper.cookie, shopper.user.id)).toEqual({ balanceCents: 7000 - 2499, ledgerSumCents: 7000 - 2499 })
  })
})
