import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { carts, checkoutSessions, jobs, orders } from '../../app/api/db/schema'
import { CART_CHANGED_MESSAGE } from '../../app/catalogue/cart-terms'
import { shippingMethods } from '../../app/catalogue/shipping'
import { TIMEZONE_HEADER } from '../../app/contract/headers'
import { cartItemFor, recordPreview, testAddress as address } from '../support/cart'
import { createTestApi, type TestApi } from '../support/test-api'

let t: TestApi
let cookie: string
beforeAll(async () => {
  t = await createTestApi()
  cookie = await t.signIn(0)
})
afterAll(() => t.close())
beforeEach(async () => {
  t.setNow(new Date('2026-11-22T12:00:00Z')) // a Sunday, Thanksgiving week ahead
  await t.db.delete(orders)
  await t.db.delete(checkoutSessions)
  await t.db.delete(carts)
  await t.db.delete(jobs)
})

const inZone = (zone: string) => ({ [TIMEZONE_HEADER]: zone })
const calendar = (zone = 'America/New_York') => t.request('/v1/photo-products-shipping', { headers: inZone(zone) })
const getCart = async () => (await t.request('/v1/photo-products-cart', { cookie })).body
const choose = (method: unknown) => t.request('/v1/photo-products-cart/shipping', { method: 'PUT', json: { method }, cookie })
async function addStars(count = 1) {
  for (let i = 0; i < count; i++) {
    const res = await t.request('/v1/photo-products-cart/items', { method: 'POST', json: cartItemFor(await recordPreview(t, t.users[0].id, 'star')), cookie })
    expect(res.status, JSON.stringify(res.body)).toBe(201)
  }
}

describe('the shipping calendar', () => {
  it('answers each method’s price and the day an order placed now arrives, skipping Thanksgiving', async () => {
    const res = await calendar()
    expect(res.status).toBe(200)
    expect(res.headers.get('cache-control')).toBe('private, max-age=300')
    expect(res.body).toEqual({
      today: '2026-11-22',
      methods: [
        { method: 'standard', label: 'Standard', priceCents: 599, freeFromCents: 5000, arrivesBy: '2026-12-03' },
        { method: 'express', label: 'Express', priceCents: 1499, freeFromCents: null, arrivesBy: '2026-11-27' },
      ],
      christmas: {
        year: 2026,
        deadlines: [
          { method: 'standard', lastOrderDay: '2026-12-14', inTime: true },
          { method: 'express', lastOrderDay: '2026-12-20', inTime: true },
        ],
      },
      // The local print shop prints a gift message on the packing slip (issue 42, item 2).
      giftMessageVia: 'packing_slip',
    })
  })

  it('takes the day from the shopper’s time zone: late Sunday in Hawaii is Monday in New York', async () => {
    t.setNow(new Date('2026-12-07T08:00:00Z'))
    expect((await calendar('Pacific/Honolulu')).body.methods[1]).toMatchObject({ arrivesBy: '2026-12-10' })
    expect((await calendar('America/New_York')).body.methods[1]).toMatchObject({ arrivesBy: '2026-12-11' })
  })

  it('says plainly when a method no longer arrives by Christmas, and says nothing after it', async () => {
    t.setNow(new Date('2026-12-16T15:00:00Z'))
    expect((await calendar()).body.christmas.deadlines.map((d: { inTime: boolean }) => d.inTime)).toEqual([false, true])
    t.setNow(new Date('2026-12-26T15:00:00Z'))
    expect((await calendar()).body.christmas).toBeNull()
  })

  it('refuses a time zone that is not one (400)', async () => {
    const res = await calendar('Mars/Olympus')
    expect(res.status).toBe(400)
    expect(JSON.stringify(res.body)).toContain('IANA time zone')
  })
})

describe('choosing the cart’s shipping', () => {
  it('charges the chosen method: express is never free, standard is free from $50', async () => {
    await addStars(1)
    expect((await getCart()).totals).toMatchObject({ shippingMethod: 'standard', shippingCents: 599, totalCents: 2499 + 599 })
    const res = await choose('express')
    expect(res.status, JSON.stringify(res.body)).toBe(200)
    expect(res.body.totals).toMatchObject({ shippingMethod: 'express', shippingCents: 1499, totalCents: 2499 + 1499 })
    expect(res.body.shippingOptions).toEqual([
      { method: 'standard', priceCents: 599 },
      { method: 'express', priceCents: 1499 },
    ])
    await addStars(2) // 3 × $24.99 of goods: standard would be free
    const cart = await getCart()
    expect(cart.totals).toMatchObject({ shippingMethod: 'express', shippingCents: 1499 })
    expect(cart.shippingOptions).toEqual([
      { method: 'standard', priceCents: 0 },
      { method: 'express', priceCents: 1499 },
    ])
    expect((await choose('standard')).body.totals).toMatchObject({ shippingMethod: 'standard', shippingCents: 0, totalCents: 3 * 2499 })
  })

  it('refuses a method that is not one, or none, and changes nothing', async () => {
    await addStars(1)
    const before = await getCart()
    for (const bad of ['overnight', 'EXPRESS', '', 12.5, null, ['express']]) {
      const res = await choose(bad)
      expect(res.status, JSON.stringify(bad)).toBe(400)
      expect(JSON.stringify(res.body)).toContain('Choose a shipping method')
    }
    const noBody = await t.request('/v1/photo-products-cart/shipping', { method: 'PUT', json: {}, cookie })
    expect(noBody.status).toBe(400)
    expect(await getCart()).toEqual(before)
  })

  it('needs a signed-in shopper (401)', async () => {
    expect((await t.request('/v1/photo-products-cart/shipping', { method: 'PUT', json: { method: 'express' } })).status).toBe(401)
  })

  it('a checkout charges the chosen method, promises its date, and the order keeps the promise', async () => {
    await addStars(1)
    await choose('express')
    const session = await t.request('/v1/photo-products-cart/checkout-session', { method: 'POST', cookie, headers: inZone('America/New_York') })
    expect(session.status, JSON.stringify(session.body)).toBe(201)
    expect(session.body.totals).toMatchObject({ shippingMethod: 'express', shippingCents: 1499, totalCents: 2499 + 1499 })
    expect(session.body.arrivesBy).toBe('2026-11-27')
    const paid = await t.request(`/v1/checkout/local/${session.body.id}/pay`, {
      method: 'POST',
      json: { cardNumber: '4242424242424242', shippingAddress: address },
      cookie,
    })
    expect(paid.status, JSON.stringify(paid.body)).toBe(200)
    const order = (await t.request(`/v1/photo-products-orders/${paid.body.orderId}`, { cookie })).body
    // The address's state taxes shipping (NY, 4 %): the tax is on the ornament and the express shipping.
    const taxCents = Math.round((2499 + 1499) * 0.04)
    expect(order).toMatchObject({
      arrivesBy: '2026-11-27',
      totals: { shippingMethod: 'express', shippingCents: 1499, taxCents, totalCents: 2499 + 1499 + taxCents },
    })
  })

  it('changing the method closes a checkout opened before (it charged the old one); choosing the same one again does not', async () => {
    await addStars(1)
    const first = (await t.request('/v1/photo-products-cart/checkout-session', { method: 'POST', cookie })).body
    await choose('standard')
    expect((await t.request(`/v1/photo-products-cart/checkout-session/${first.id}`, { cookie })).body.status).toBe('open')
    await choose('express')
    const closed = (await t.request(`/v1/photo-products-cart/checkout-session/${first.id}`, { cookie })).body
    expect(closed).toMatchObject({ status: 'expired', lastError: CART_CHANGED_MESSAGE })
    const pay = await t.request(`/v1/checkout/local/${first.id}/pay`, {
      method: 'POST',
      json: { cardNumber: '4242424242424242', shippingAddress: address },
      cookie,
    })
    expect(pay.status).not.toBe(200)
    expect(await t.db.select().from(orders)).toHaveLength(0)
  })

  it('the table the dates come from is the one the prices come from', () => {
    expect(shippingMethods.standard.priceCents).toBe(599)
    expect(shippingMethods.express.freeFromCents).toBeNull()
  })
})
