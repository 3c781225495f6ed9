import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { carts, checkoutSessions, orderParcels, orders, savedAddresses } from '../../app/api/db/schema'
import { CART_CHANGED_MESSAGE, CART_PAID_MESSAGE } from '../../app/catalogue/cart-terms'
import { LOCAL_TEST_CARDS, type Cart } from '../../app/contract/cart'
import { CART_ID_HEADER } from '../../app/contract/headers'
import { cartItemFor, emptyCartsAndOrders, recordPreview, testAddress } from '../support/cart'
import { createTestApi, type TestApi } from '../support/test-api'

/**
 * Issue 43, item 8: a second tab changes the cart while the first one pays it. Before, the change was answered 200
 * and dropped (the payment had the cart as it was). Now one is before the other: the change lands first and the
 * payment is refused as a changed cart, or the payment lands first and the change is refused, 409 "this cart was just
 * paid" — never a 200 for a change no order holds.
 */
let t: TestApi
let cookie: string
beforeAll(async () => {
  t = await createTestApi()
  cookie = await t.signIn(0)
})
afterAll(() => t.close())
beforeEach(async () => {
  await emptyCartsAndOrders(t)
  await t.db.delete(savedAddresses)
})

type Init = { method?: string; json?: unknown; headers?: Record<string, string> }
const api = (path: string, init: Init = {}) => t.request(path, { cookie, ...init })
const rose = { label: 'Grandma Rose', name: 'Rose Rivera', line1: '4 Maple Court', city: 'Columbus', state: 'OH', postalCode: '43004', phone: '' }

async function cartWithLine(quantity = 2) {
  const preview = await recordPreview(t, t.users[0].id, 'tree')
  const added = await api('/v1/photo-products-cart/items', { method: 'POST', json: { ...cartItemFor(preview), quantity } })
  expect(added.status).toBe(201)
  const roseId = (await api('/v1/photo-products-addresses', { method: 'POST', json: rose })).body.id as string
  return { line: added.body.item.id as string, cart: added.body.cart as Cart, roseId }
}

const openCheckout = async () => {
  const res = await api('/v1/photo-products-cart/checkout-session', { method: 'POST' })
  expect(res.status, JSON.stringify(res.body)).toBe(201)
  return res.body.id as string
}
const pay = (id: string) =>
  api(`/v1/checkout/local/${id}/pay`, { method: 'POST', json: { cardNumber: LOCAL_TEST_CARDS.succeeds, shippingAddress: testAddress } })
const onCart = (cartId: string) => ({ [CART_ID_HEADER]: cartId })

describe('a change to a cart another tab has paid', () => {
  it('is refused with 409 "this cart was just paid", each kind of change, and changes nothing', async () => {
    const { line, cart, roseId } = await cartWithLine()
    expect((await pay(await openCheckout())).status).toBe(200)
    const [order] = await t.db.select().from(orders)
    const openAfter = (await api('/v1/photo-products-cart')).body as Cart
    expect(openAfter.id).not.toBe(cart.id)

    const changes: [string, Init][] = [
      [`/v1/photo-products-cart/parcels`, { method: 'PUT', json: { parcels: [{ addressId: roseId, items: [{ cartItemId: line, quantity: 1 }] }] } }],
      [`/v1/photo-products-cart/shipping`, { method: 'PUT', json: { method: 'express' } }],
      [`/v1/photo-products-cart/items/${line}`, { method: 'PUT', json: { quantity: 3 } }],
      [`/v1/photo-products-cart/items/${line}`, { method: 'DELETE' }],
    ]
    for (const [path, init] of changes) {
      const res = await api(path, { ...init, headers: onCart(cart.id) })
      expect(res.status, `${init.method} ${path}`).toBe(409)
      expect(res.body.error).toMatchObject({ code: 'conflict', message: CART_PAID_MESSAGE })
    }
    // Nothing moved: the order is what was paid, the new cart as it was.
    expect(await t.db.select().from(orders)).toEqual([order])
    expect((await t.db.select().from(orderParcels)).map((p) => [p.shippingMethod, p.items])).toEqual([['standard', [{ cartItemId: line, quantity: 2 }]]])
    const [fresh] = await t.db.select().from(carts).where(eq(carts.id, openAfter.id))
    expect(fresh).toMatchObject({ shippingMethod: 'standard', parcels: [] })
  })

  it('is refused while the paid checkout’s order is still being made (the session paid, the cart not yet checked out)', async () => {
    const { roseId, line } = await cartWithLine()
    const id = await openCheckout()
    // The instant between the payment and its order (payLocalCheckout moves the session, then fulfils it).
    await t.db.update(checkoutSessions).set({ status: 'paid' }).where(eq(checkoutSessions.id, id))
    const res = await api('/v1/photo-products-cart/parcels', {
      method: 'PUT',
      json: { parcels: [{ addressId: roseId, items: [{ cartItemId: line, quantity: 1 }] }] },
    })
    expect(res.status).toBe(409)
    expect(res.body.error.message).toBe(CART_PAID_MESSAGE)
    expect((await api('/v1/photo-products-cart/shipping', { method: 'PUT', json: { method: 'express' } })).status).toBe(409)
  })

  it('names only the shopper’s own cart: another id, or none, is the open cart’s change as before', async () => {
    const { cart, line } = await cartWithLine()
    const notACart = '00000000-0000-4000-8000-000000000000'
    expect((await api('/v1/photo-products-cart/shipping', { method: 'PUT', json: { method: 'express' }, headers: onCart(notACart) })).status).toBe(200)
    expect((await api(`/v1/photo-products-cart/items/${line}`, { method: 'PUT', json: { quantity: 3 }, headers: onCart(cart.id) })).status).toBe(200)
    expect((await api(`/v1/photo-products-cart/items/${line}`, { method: 'PUT', json: { quantity: 4 } })).status).toBe(200)
    // A header that names no cart at all is refused, 400 with the header named, and changes nothing.
    for (const bad of ['not-a-cart', `${cart.id}x`, "' or 1=1 --"]) {
      const res = await api(`/v1/photo-products-cart/items/${line}`, { method: 'PUT', json: { quantity: 5 }, headers: onCart(bad) })
      expect(res.status, bad).toBe(400)
      expect(res.body.error).toMatchObject({ code: 'validation_failed', issues: [{ path: `headers.${CART_ID_HEADER}` }] })
    }
    expect((await api('/v1/photo-products-cart')).body.items[0].quantity).toBe(4)
  })

  it('under a race of Pay and a parcel change, one wins: never a 200 for a change the order does not hold', async () => {
    const outcomes: string[] = []
    for (let trial = 0; trial < 8; trial++) {
      await emptyCartsAndOrders(t)
      await t.db.delete(savedAddresses)
      const { cart, line, roseId } = await cartWithLine()
      const id = await openCheckout()
      const [paid, changed] = await Promise.all([
        pay(id),
        api('/v1/photo-products-cart/parcels', {
          method: 'PUT',
          json: { parcels: [{ addressId: roseId, items: [{ cartItemId: line, quantity: 1 }] }] },
          headers: onCart(cart.id),
        }),
      ])
      const made = await t.db.select().from(orders)
      if (changed.status === 200) {
        // The change came first: the payment was of a cart that no longer is, and was refused.
        expect(paid.status, JSON.stringify(paid.body)).toBe(409)
        expect(paid.body.error.message).toBe(CART_CHANGED_MESSAGE)
        expect(made).toEqual([])
        outcomes.push('change first')
      } else {
        expect(changed.status, JSON.stringify(changed.body)).toBe(409)
        expect(changed.body.error.message).toBe(CART_PAID_MESSAGE)
        expect(paid.status).toBe(200)
        expect(made).toHaveLength(1)
        expect((await t.db.select().from(orderParcels)).map((p) => p.items)).toEqual([[{ cartItemId: line, quantity: 2 }]])
        outcomes.push('payment first')
      }
    }
    expect(outcomes).toHaveLength(8)
  })
})
