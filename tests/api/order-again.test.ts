import { eq, sql } from 'drizzle-orm'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { cartItems } from '../../app/api/db/schema'
import { cartItemFor, emptyCartsAndOrders, recordPreview, testAddress as address } from '../support/cart'
import { createTestApi, type TestApi } from '../support/test-api'

let t: TestApi
let cookie: string
let otherCookie: string
beforeAll(async () => {
  t = await createTestApi()
  cookie = await t.signIn(0)
  otherCookie = await t.signIn(1)
})
afterAll(() => t.close())
beforeEach(() => emptyCartsAndOrders(t))

const cartOf = async (as = cookie) => (await t.request('/v1/photo-products-cart', { cookie: as })).body
const again = (id: string, as: string | null = cookie) =>
  t.request(`/v1/photo-products-orders/${id}/order-again`, { method: 'POST', ...(as ? { cookie: as } : {}) })

/** Maya buys two star pairs; answers the order. */
async function buyTwoStars() {
  const added = await t.request('/v1/photo-products-cart/items', {
    method: 'POST',
    json: { ...cartItemFor(await recordPreview(t, t.users[0].id, 'star')), quantity: 2 },
    cookie,
  })
  expect(added.status, JSON.stringify(added.body)).toBe(201)
  const session = (await t.request('/v1/photo-products-cart/checkout-session', { method: 'POST', cookie })).body
  const paid = await t.request(`/v1/checkout/local/${session.id}/pay`, {
    method: 'POST',
    json: { cardNumber: '4242424242424242', shippingAddress: address },
    cookie,
  })
  expect(paid.status, JSON.stringify(paid.body)).toBe(200)
  return (await t.request(`/v1/photo-products-orders/${paid.body.orderId}`, { cookie })).body
}

describe('order again', () => {
  it('puts the order’s design back in the cart with its quantity, at today’s price', async () => {
    const order = await buyTwoStars()
    // The order was placed when the star cost less (its line remembers that price).
    await t.db.execute(sql`update cart_items set metadata = jsonb_set(jsonb_set(metadata, '{price}', '19.99'), '{salePrice}', '14.99')`)
    expect((await cartOf()).items).toHaveLength(0)
    const res = await again(order.id)
    expect(res.status, JSON.stringify(res.body)).toBe(200)
    expect(res.body).toMatchObject({ added: 1, alreadyInCart: 0 })
    const [line] = res.body.cart.items
    expect(line).toMatchObject({ quantity: 2, metadata: { price: 29.99, salePrice: 24.99 } })
    // The tax is estimated for the state the last order went to (New York, 4 % on the ornaments and shipping).
    const taxCents = Math.round((2 * 2499 + 599) * 0.04)
    expect(res.body.cart.totals).toMatchObject({ itemCount: 2, taxCents, tax: { state: 'NY', estimated: true }, totalCents: 2 * 2499 + 599 + taxCents })
  })

  it('asked twice, adds the design once', async () => {
    const order = await buyTwoStars()
    await again(order.id)
    const second = await again(order.id)
    expect(second.status).toBe(200)
    expect(second.body).toMatchObject({ added: 0, alreadyInCart: 1 })
    expect(second.body.cart.items).toHaveLength(1)
  })

  it('refuses another shopper’s order, an unknown one and a malformed id, and changes nothing', async () => {
    const order = await buyTwoStars()
    const before = await cartOf(otherCookie)
    expect((await again(order.id, otherCookie)).status).toBe(404)
    expect(await cartOf(otherCookie)).toEqual(before)
    expect((await again('00000000-0000-4000-8000-000000000000')).status).toBe(404)
    expect((await again('KS-1234')).status).toBe(400)
    expect((await again(`${order.id}${'0'.repeat(300)}`)).status).toBe(400)
    expect((await cartOf()).items).toHaveLength(0)
  })

  it('needs a signed-in shopper (401)', async () => {
    const order = await buyTwoStars()
    expect((await again(order.id, null)).status).toBe(401)
    expect(
      await t.db
        .select()
        .from(cartItems)
        .where(eq(cartItems.itemIdentifier, `again:${order.lines[0].cartItemId}`)),
    ).toHaveLength(0)
  })
})
