import { randomUUID } from 'node:crypto'
import { eq } from 'drizzle-orm'
import fc from 'fast-check'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { orderParcels, orders, outboxEmails, savedAddresses } from '../../app/api/db/schema'
import { giftNoteReference } from '../../app/api/services/order-emails'
import { formatCents } from '../../app/catalogue/currency'
import { salesTaxCents } from '../../app/catalogue/sales-tax'
import { formatWeekday, shippingPriceCents } from '../../app/catalogue/shipping'
import { LOCAL_TEST_CARDS, MAX_PARCELS_PER_CART, type Cart } from '../../app/contract/cart'
import { ADDRESS_CHANGED_MESSAGE } from '../../app/catalogue/cart-terms'
import { cartItemFor, emptyCartsAndOrders, recordPreview, testAddress } from '../support/cart'
import { creditedShopper, storeCreditOf } from '../support/credit'
import { refundOrder } from '../../app/api/services/checkout'
import { createTestApi, type TestApi } from '../support/test-api'
import { shipThroughLocalProvider } from '../support/parcels'

/**
 * Shipping one cart to several addresses (issue 33, item 2; decision 055): lines, or part of a line, go to entries
 * of the shopper's address book, each its own parcel with its own method, price, tax, gift message and recipient.
 */
let t: TestApi
let cookie: string
let otherCookie: string
beforeAll(async () => {
  t = await createTestApi()
  cookie = await t.signIn(0)
  otherCookie = await t.signIn(1)
})
afterAll(() => t.close())
beforeEach(async () => {
  await emptyCartsAndOrders(t)
  await t.db.delete(savedAddresses)
})

const api = (path: string, init: { method?: string; json?: unknown; cookie?: string } = {}) => t.request(path, { cookie, ...init })

const rose = { label: 'Grandma Rose', name: 'Rose Rivera', line1: '4 Maple Court', city: 'Columbus', state: 'OH', postalCode: '43004', phone: '' }
const june = { label: 'Aunt June', name: 'June Park', line1: '88 Pine Street', city: 'Sacramento', state: 'CA', postalCode: '95814', phone: '' }
const ida = { label: 'Nana Ida', name: 'Ida Stone', line1: '9 Elm Road', city: 'Portland', state: 'OR', postalCode: '97201', phone: '' }

async function saveAddress(entry: object, who = cookie) {
  const res = await api('/v1/photo-products-addresses', { method: 'POST', json: entry, cookie: who })
  expect(res.status, JSON.stringify(res.body)).toBe(201)
  return res.body.id as string
}

async function addLine(shape: 'tree' | 'star' | 'stocking', quantity: number, who = 0 as 0 | 1) {
  const preview = await recordPreview(t, t.users[who].id, shape)
  const res = await api('/v1/photo-products-cart/items', {
    method: 'POST',
    json: { ...cartItemFor(preview), quantity },
    cookie: who === 0 ? cookie : otherCookie,
  })
  expect(res.status).toBe(201)
  return res.body.item.id as string
}

const setParcels = (parcels: unknown[], who = cookie) => api('/v1/photo-products-cart/parcels', { method: 'PUT', json: { parcels }, cookie: who })
const cartNow = async () => (await api('/v1/photo-products-cart')).body as Cart

describe('PUT /v1/photo-products-cart/parcels', () => {
  it('sends part of a line to each address; the rest stays the shopper’s, each parcel priced and taxed on its own', async () => {
    const line = await addLine('tree', 3)
    const [roseId, juneId] = [await saveAddress(rose), await saveAddress(june)]
    const res = await setParcels([
      {
        addressId: roseId,
        items: [{ cartItemId: line, quantity: 1 }],
        giftMessage: 'Merry Christmas, Grandma!\nLove, Ava',
        recipientEmail: 'rose@example.org',
      },
      { addressId: juneId, shippingMethod: 'express', items: [{ cartItemId: line, quantity: 1 }] },
    ])
    expect(res.status, JSON.stringify(res.body)).toBe(200)
    const cart = res.body as Cart
    expect(cart.parcels.map((p) => [p.key, p.label, p.shippingMethod, p.items])).toEqual([
      ['own', null, 'standard', [{ cartItemId: line, quantity: 1 }]],
      [roseId, 'Grandma Rose', 'standard', [{ cartItemId: line, quantity: 1 }]],
      [juneId, 'Aunt June', 'express', [{ cartItemId: line, quantity: 1 }]],
    ])
    expect(cart.parcels[1]).toMatchObject({
      giftMessage: 'Merry Christmas, Grandma!\nLove, Ava',
      recipientEmail: 'rose@example.org',
      address: { city: 'Columbus', state: 'OH' },
    })
    // The shopper's own is estimated from the newest book entry (no order yet): CA. Rose's is OH, June's CA.
    const [own, toRose, toJune] = cart.totals.parcels
    expect(toRose).toMatchObject({ key: roseId, itemCount: 1, goodsCents: 2499, shippingCents: 599, taxCents: salesTaxCents('OH', 2499, 599) })
    expect(toJune).toMatchObject({ key: juneId, shippingCents: 1499, taxCents: salesTaxCents('CA', 2499, 1499), tax: { state: 'CA', estimated: true } })
    expect(own!.shippingCents).toBe(599)
    expect(cart.totals.shippingCents).toBe(599 + 599 + 1499)
    expect(cart.totals.totalCents).toBe(3 * 2499 + 599 + 599 + 1499 + cart.totals.taxCents)
    expect(cart.parcels[2]!.shippingOptions).toEqual([
      { method: 'standard', priceCents: shippingPriceCents('standard', 2499, 1) },
      { method: 'express', priceCents: 1499 },
    ])
    // Sending everything away leaves no parcel of the shopper's own.
    const all = await setParcels([{ addressId: roseId, items: [{ cartItemId: line, quantity: 3 }] }])
    expect(all.body.parcels.map((p: { key: string }) => p.key)).toEqual([roseId])
    // And none sends everything home again.
    const none = await setParcels([])
    expect(none.body.parcels).toMatchObject([{ key: 'own', items: [{ cartItemId: line, quantity: 3 }] }])
  })

  it('refuses what cannot be, with the right status, and changes nothing', async () => {
    const line = await addLine('star', 2)
    const roseId = await saveAddress(rose)
    const othersAddress = await saveAddress(ida, otherCookie)
    const othersLine = await addLine('tree', 1, 1)
    const good = { addressId: roseId, items: [{ cartItemId: line, quantity: 1 }] }
    expect((await setParcels([good])).status).toBe(200)
    const before = await cartNow()
    const cases: [string, unknown[], number, RegExp][] = [
      ['another shopper’s address', [{ ...good, addressId: othersAddress }], 404, /Address not found/],
      ['an address that does not exist', [{ ...good, addressId: randomUUID() }], 404, /Address not found/],
      ['another shopper’s line', [{ ...good, items: [{ cartItemId: othersLine, quantity: 1 }] }], 404, /Cart item not found/],
      ['more than the line holds', [{ ...good, items: [{ cartItemId: line, quantity: 3 }] }], 422, /holds 2 .* no more than 2/],
      [
        'more than the line holds, over two parcels',
        [good, { addressId: await saveAddress(june), items: [{ cartItemId: line, quantity: 2 }] }],
        422,
        /you chose 3/,
      ],
      ['the same address twice', [good, good], 400, /Each address gets one parcel/],
      ['the same line twice in a parcel', [{ ...good, items: [good.items[0], good.items[0]] }], 400, /Each design appears once/],
      ['no items', [{ ...good, items: [] }], 400, /at least one ornament/],
      ['a quantity of 0', [{ ...good, items: [{ cartItemId: line, quantity: 0 }] }], 400, /whole number from 1/],
      ['a quantity of 1.5', [{ ...good, items: [{ cartItemId: line, quantity: 1.5 }] }], 400, /whole number/],
      ['a method we do not have', [{ ...good, shippingMethod: 'overnight' }], 400, /standard or express/],
      ['a gift message too long', [{ ...good, giftMessage: 'x'.repeat(301) }], 400, /at most 300 characters/],
      ['a gift message of too many lines', [{ ...good, giftMessage: 'a\n'.repeat(9) + 'a' }], 400, /at most 8 lines/],
      ['a gift message with control characters', [{ ...good, giftMessage: 'hi\u0007' }], 400, /letters, numbers/],
      ['a recipient e-mail that is not one', [{ ...good, recipientEmail: 'rose at home' }], 400, /e-mail/i],
      ['an address id that is not a UUID', [{ ...good, addressId: '1; drop table carts' }], 400, /address book/],
      ['too many parcels', Array.from({ length: MAX_PARCELS_PER_CART + 1 }, () => good), 400, /at most 10 other addresses/],
    ]
    for (const [what, parcels, status, message] of cases) {
      const res = await setParcels(parcels)
      expect(res.status, `${what}: ${JSON.stringify(res.body)}`).toBe(status)
      expect(JSON.stringify(res.body), what).toMatch(message)
      expect((await cartNow()).parcels, what).toEqual(before.parcels)
    }
    // Another shopper never sees this cart's parcels, nor can set parcels on it.
    expect((await cartNow()).parcels).toHaveLength(2)
    expect((await api('/v1/photo-products-cart', { cookie: otherCookie })).body.parcels).toMatchObject([{ key: 'own' }])
  })

  it('with the local print shop a gift message is printed on the packing slip, so it needs no recipient e-mail (issue 42, item 2)', async () => {
    expect((await api('/v1/photo-products-shipping')).body.giftMessageVia).toBe('packing_slip')
    const line = await addLine('star', 1)
    const res = await setParcels([{ addressId: await saveAddress(rose), items: [{ cartItemId: line, quantity: 1 }], giftMessage: 'Love, Ava' }])
    expect(res.status, JSON.stringify(res.body)).toBe(200)
    expect((res.body as Cart).parcels[0]).toMatchObject({ giftMessage: 'Love, Ava', recipientEmail: '' })
  })

  it('a line made smaller or removed is taken from the parcels; an address removed from the book sends its parcel home', async () => {
    const line = await addLine('tree', 3)
    const roseId = await saveAddress(rose)
    const juneId = await saveAddress(june)
    await setParcels([
      { addressId: roseId, items: [{ cartItemId: line, quantity: 2 }] },
      { addressId: juneId, items: [{ cartItemId: line, quantity: 1 }] },
    ])
    expect(
      (await api(`/v1/photo-products-cart/items/${line}`, { method: 'PUT', json: { quantity: 2 } })).body.parcels.map((p: { key: string }) => p.key),
    ).toEqual([roseId])
    expect((await api(`/v1/photo-products-addresses/${roseId}`, { method: 'DELETE' })).status).toBe(200)
    expect((await cartNow()).parcels).toMatchObject([{ key: 'own', items: [{ cartItemId: line, quantity: 2 }] }])
  })

  it('a change of parcels ends a checkout opened before it, which can no longer be paid', async () => {
    const line = await addLine('tree', 2)
    const roseId = await saveAddress(rose)
    const session = (await api('/v1/photo-products-cart/checkout-session', { method: 'POST' })).body
    expect((await setParcels([{ addressId: roseId, items: [{ cartItemId: line, quantity: 1 }] }])).status).toBe(200)
    const paid = await api(`/v1/checkout/local/${session.id}/pay`, {
      method: 'POST',
      json: { cardNumber: LOCAL_TEST_CARDS.succeeds, shippingAddress: testAddress },
    })
    expect(paid.status).toBe(409)
    expect(await t.db.select().from(orders)).toEqual([])
  })
})

// Issue 42, item 4: the session keeps the address a parcel had when the checkout opened; a change to it must not be paid for.
describe('an address book entry changed while a checkout ships to it', () => {
  async function openCheckoutToRose() {
    const line = await addLine('tree', 2)
    const roseId = await saveAddress(rose)
    const juneId = await saveAddress(june)
    expect((await setParcels([{ addressId: roseId, items: [{ cartItemId: line, quantity: 1 }] }])).status).toBe(200)
    const session = (await api('/v1/photo-products-cart/checkout-session', { method: 'POST' })).body
    expect(session.status).toBe('open')
    return { session, roseId, juneId }
  }
  const sessionNow = async (id: string) => (await api(`/v1/photo-products-cart/checkout-session/${id}`)).body
  const payLocal = (id: string) =>
    api(`/v1/checkout/local/${id}/pay`, { method: 'POST', json: { cardNumber: LOCAL_TEST_CARDS.succeeds, shippingAddress: testAddress } })

  it.each([
    [
      'moved to another state',
      (id: string) => api(`/v1/photo-products-addresses/${id}`, { method: 'PUT', json: { ...rose, city: 'Albany', state: 'NY', postalCode: '12207' } }),
    ],
    ['given another street', (id: string) => api(`/v1/photo-products-addresses/${id}`, { method: 'PUT', json: { ...rose, line1: '5 Maple Court' } })],
    ['removed', (id: string) => api(`/v1/photo-products-addresses/${id}`, { method: 'DELETE' })],
  ])('an entry a parcel uses %s closes the checkout, which says why and cannot be paid; the cart checks out again', async (_, change) => {
    const { session, roseId } = await openCheckoutToRose()
    expect((await change(roseId)).status).toBe(200)
    expect(await sessionNow(session.id)).toMatchObject({ status: 'expired', lastError: ADDRESS_CHANGED_MESSAGE })
    expect((await payLocal(session.id)).status).toBe(409)
    expect(await t.db.select().from(orders)).toEqual([])
    const next = (await api('/v1/photo-products-cart/checkout-session', { method: 'POST' })).body
    expect(next.totals.totalCents).toBe((await cartNow()).totals.totalCents)
    expect((await payLocal(next.id)).status).toBe(200)
  })

  it('a change to an entry no parcel uses, or only to an entry’s name in the book, leaves the checkout open and payable', async () => {
    const { session, roseId, juneId } = await openCheckoutToRose()
    expect((await api(`/v1/photo-products-addresses/${juneId}`, { method: 'PUT', json: { ...june, line1: '90 Pine Street' } })).status).toBe(200)
    expect((await api(`/v1/photo-products-addresses/${juneId}`, { method: 'DELETE' })).status).toBe(200)
    expect((await api(`/v1/photo-products-addresses/${roseId}`, { method: 'PUT', json: { ...rose, label: 'Grandma' } })).status).toBe(200)
    // A refused edit changes nothing, the checkout included.
    expect((await api(`/v1/photo-products-addresses/${roseId}`, { method: 'PUT', json: { ...rose, postalCode: '90210' } })).status).toBe(400)
    expect((await sessionNow(session.id)).status).toBe('open')
    expect((await payLocal(session.id)).status).toBe(200)
  })

  it('another shopper’s checkout is not closed by this shopper’s edits', async () => {
    const { session, roseId } = await openCheckoutToRose()
    expect((await api(`/v1/photo-products-addresses/${roseId}`, { method: 'PUT', json: rose, cookie: otherCookie })).status).toBe(404)
    expect((await api(`/v1/photo-products-addresses/${roseId}`, { method: 'DELETE', cookie: otherCookie })).status).toBe(404)
    expect((await sessionNow(session.id)).status).toBe('open')
  })
})

describe('an order to three addresses, paid once', () => {
  it('makes a parcel per address, each sent, shipped and tracked on its own, the charge the sum of the parcels', async () => {
    const line = await addLine('tree', 3)
    const roseId = await saveAddress(rose)
    const juneId = await saveAddress(june)
    const idaId = await saveAddress(ida)
    await setParcels([
      { addressId: roseId, items: [{ cartItemId: line, quantity: 1 }], giftMessage: 'Love, Ava', recipientEmail: 'rose@example.org' },
      { addressId: juneId, shippingMethod: 'express', items: [{ cartItemId: line, quantity: 1 }], giftMessage: 'For your tree' },
      { addressId: idaId, items: [{ cartItemId: line, quantity: 1 }] },
    ])
    const session = (await api('/v1/photo-products-cart/checkout-session', { method: 'POST' })).body
    // The parcels to the book are taxed for their state at once (not estimates: their address is known).
    expect(session.totals.parcels.map((p: { tax: unknown }) => p.tax)).toEqual([
      { state: 'OH', estimated: false, source: 'table' },
      { state: 'CA', estimated: false, source: 'table' },
      { state: 'OR', estimated: false, source: 'table' },
    ])
    const paid = await api(`/v1/checkout/local/${session.id}/pay`, {
      method: 'POST',
      json: { cardNumber: LOCAL_TEST_CARDS.succeeds, shippingAddress: testAddress },
    })
    expect(paid.status, JSON.stringify(paid.body)).toBe(200)
    const orderId = paid.body.orderId as string
    const order = (await api(`/v1/photo-products-orders/${orderId}`)).body
    expect(
      order.parcels.map((p: { label: string; shippingAddress: { state: string }; shippingMethod: string; giftMessage: string | null }) => [
        p.label,
        p.shippingAddress.state,
        p.shippingMethod,
        p.giftMessage,
      ]),
    ).toEqual([
      ['Grandma Rose', 'OH', 'standard', 'Love, Ava'],
      ['Aunt June', 'CA', 'express', 'For your tree'],
      ['Nana Ida', 'OR', 'standard', null],
    ])
    // An entry without an e-mail ships with the shopper's, for the carrier's notices.
    expect(order.parcels[0].shippingAddress.email).toBe(t.users[0].email)
    const sum = order.totals.parcels.reduce(
      (a: number, p: { goodsCents: number; creditsCents: number; shippingCents: number; taxCents: number }) =>
        a + p.goodsCents - p.creditsCents + p.shippingCents + p.taxCents,
      0,
    )
    expect(order.totals.totalCents).toBe(sum)
    expect(order.totals.totalCents).toBe(3 * 2499 + 599 + 1499 + 599 + salesTaxCents('OH', 2499, 599) + salesTaxCents('CA', 2499, 1499))

    // The confirmation lists each parcel with its shipping and tax, and the total paid.
    const [confirmation] = await t.db
      .select()
      .from(outboxEmails)
      .where(eq(outboxEmails.reference, `order-confirmation:${orderId}`))
    expect(confirmation!.text).toContain('Shipping in 3 parcels:')
    // Each parcel's promised day, as the order keeps it (issue 32).
    const parcelRows = await t.db.select().from(orderParcels).where(eq(orderParcels.orderId, orderId))
    const arrives = (position: number) => formatWeekday(parcelRows.find((p) => p.position === position)!.arrivesBy!)
    expect(confirmation!.text).toContain(
      `Parcel 1, to Grandma Rose: 1 ornament, Standard shipping $5.99, arrives by ${arrives(1)}, Sales tax (OH) ${formatCents(salesTaxCents('OH', 2499, 599))}`,
    )
    expect(confirmation!.text).toContain(
      `Parcel 2, to Aunt June: 1 ornament, Express shipping $14.99, arrives by ${arrives(2)}, Sales tax (CA) ${formatCents(salesTaxCents('CA', 2499, 1499))}`,
    )
    expect(confirmation!.text).toContain(`Total paid: ${formatCents(order.totals.totalCents)}`)
    expect(confirmation!.html).toContain('Shipping in 3 parcels')

    await shipThroughLocalProvider(t)
    const shipped = (await api(`/v1/photo-products-orders/${orderId}`)).body
    expect(shipped.status).toBe('shipped')
    const tracking = shipped.parcels.map((p: { status: string; trackingNumber: string }) => [p.status, p.trackingNumber])
    expect(tracking.every(([status, number]: [string, string]) => status === 'shipped' && number)).toBe(true)
    expect(new Set(tracking.map(([, number]: [string, string]) => number)).size).toBe(3)
    const shippedMails = await t.db.select().from(outboxEmails).where(eq(outboxEmails.kind, 'order-shipped'))
    expect(shippedMails).toHaveLength(3)
    const notes = await t.db.select().from(outboxEmails).where(eq(outboxEmails.kind, 'gift-note'))
    expect(notes.map((n) => [n.to, n.reference])).toEqual([['rose@example.org', giftNoteReference(shipped.parcels[0].id)]])
    // The packing slips carry the messages and no prices.
    for (const parcel of shipped.parcels) {
      const slip = await api(`/v1/photo-products-orders/${orderId}/parcels/${parcel.id}/packing-slip`)
      expect(slip.status).toBe(200)
      const html = String(slip.body)
      if (parcel.giftMessage) expect(html).toContain(parcel.giftMessage)
      expect(html).not.toMatch(/\$\s?\d/)
    }
  })

  it('for any split of any cart, the order’s charge is the sum of its parcels’ goods − credit + shipping + tax', async () => {
    const roseId = await saveAddress(rose)
    const juneId = await saveAddress(june)
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.tuple(fc.constantFrom<'tree' | 'star' | 'stocking'>('tree', 'star', 'stocking'), fc.integer({ min: 1, max: 3 }), fc.nat(3), fc.nat(3)), {
          minLength: 1,
          maxLength: 3,
        }),
        fc.constantFrom('standard' as const, 'express' as const),
        async (spec, method) => {
          await emptyCartsAndOrders(t)
          const lines = []
          for (const [shape, quantity, toRose, toJune] of spec) {
            const id = await addLine(shape, quantity)
            const rose = Math.min(toRose, quantity)
            lines.push({ id, rose, june: Math.min(toJune, quantity - rose) })
          }
          const parcels = [
            { addressId: roseId, items: lines.filter((l) => l.rose > 0).map((l) => ({ cartItemId: l.id, quantity: l.rose })) },
            { addressId: juneId, shippingMethod: method, items: lines.filter((l) => l.june > 0).map((l) => ({ cartItemId: l.id, quantity: l.june })) },
          ].filter((p) => p.items.length > 0)
          expect((await setParcels(parcels)).status).toBe(200)
          const session = (await api('/v1/photo-products-cart/checkout-session', { method: 'POST' })).body
          const paid = await api(`/v1/checkout/local/${session.id}/pay`, {
            method: 'POST',
            json: { cardNumber: LOCAL_TEST_CARDS.succeeds, shippingAddress: testAddress },
          })
          expect(paid.status).toBe(200)
          const order = (await api(`/v1/photo-products-orders/${paid.body.orderId}`)).body
          const parts = order.totals.parcels as {
            key: string
            itemCount: number
            goodsCents: number
            creditsCents: number
            shippingCents: number
            taxCents: number
          }[]
          expect(order.totals.totalCents).toBe(parts.reduce((a, p) => a + p.goodsCents - p.creditsCents + p.shippingCents + p.taxCents, 0))
          // Every ornament is in exactly one parcel of the order, and the parcels are the totals' parcels.
          expect(order.parcels.map((p: { items: { quantity: number }[] }) => p.items.reduce((a, i) => a + i.quantity, 0))).toEqual(
            parts.map((p) => p.itemCount),
          )
          expect(parts.reduce((a, p) => a + p.itemCount, 0)).toBe(spec.reduce((a, [, q]) => a + q, 0))
        },
      ),
      { numRuns: 8 },
    )
  })

  it('store credit is shared between the parcels, lowers each one’s tax, and comes back with the tax on a refund', async () => {
    const shopper = await creditedShopper(t)
    const entry = await saveAddress(june, shopper.cookie)
    const preview = await recordPreview(t, shopper.user.id, 'star')
    const added = await api('/v1/photo-products-cart/items', { method: 'POST', json: { ...cartItemFor(preview), quantity: 2 }, cookie: shopper.cookie })
    const line = added.body.item.id as string
    expect((await setParcels([{ addressId: entry, items: [{ cartItemId: line, quantity: 1 }] }], shopper.cookie)).status).toBe(200)
    const session = (await api('/v1/photo-products-cart/checkout-session', { method: 'POST', cookie: shopper.cookie })).body
    const paid = await api(`/v1/checkout/local/${session.id}/pay`, {
      method: 'POST',
      cookie: shopper.cookie,
      json: { cardNumber: LOCAL_TEST_CARDS.succeeds, shippingAddress: testAddress },
    })
    expect(paid.status).toBe(200)
    const order = (await api(`/v1/photo-products-orders/${paid.body.orderId}`, { cookie: shopper.cookie })).body
    const [own, toJune] = order.totals.parcels
    expect(order.totals.creditsCents).toBe(1000)
    expect([own.creditsCents, toJune.creditsCents]).toEqual([500, 500])
    expect(own.taxCents).toBe(salesTaxCents('NY', 2499 - 500, own.shippingCents))
    expect(toJune.taxCents).toBe(salesTaxCents('CA', 2499 - 500, toJune.shippingCents))
    expect(order.totals.totalCents).toBe(2 * 2499 - 1000 + own.shippingCents + toJune.shippingCents + own.taxCents + toJune.taxCents)
    expect((await storeCreditOf(t, shopper.cookie, shopper.user.id)).balanceCents).toBe(0)
    await refundOrder(t.api.deps, order.id)
    expect((await storeCreditOf(t, shopper.cookie, shopper.user.id)).balanceCents).toBe(1000)
    expect((await api(`/v1/photo-products-orders/${order.id}`, { cookie: shopper.cookie })).body.parcels.map((p: { status: string }) => p.status)).toEqual([
      'refunded',
      'refunded',
    ])
  })

  it('Order again sets the parcels up again for the addresses still in the book, with their method, note and recipient', async () => {
    const line = await addLine('tree', 3)
    const roseId = await saveAddress(rose)
    const juneId = await saveAddress(june)
    await setParcels([
      {
        addressId: roseId,
        shippingMethod: 'express',
        items: [{ cartItemId: line, quantity: 1 }],
        giftMessage: 'Love, Ava',
        recipientEmail: 'rose@example.org',
      },
      { addressId: juneId, items: [{ cartItemId: line, quantity: 1 }] },
    ])
    const session = (await api('/v1/photo-products-cart/checkout-session', { method: 'POST' })).body
    const paid = await api(`/v1/checkout/local/${session.id}/pay`, {
      method: 'POST',
      json: { cardNumber: LOCAL_TEST_CARDS.succeeds, shippingAddress: testAddress },
    })
    expect(paid.status).toBe(200)
    // June has moved out of the book since.
    expect((await api(`/v1/photo-products-addresses/${juneId}`, { method: 'DELETE' })).status).toBe(200)
    const again = await api(`/v1/photo-products-orders/${paid.body.orderId}/order-again`, { method: 'POST' })
    expect(again.status, JSON.stringify(again.body)).toBe(200)
    const cart = again.body.cart as Cart
    expect(cart.items).toHaveLength(1)
    expect(cart.parcels.map((p) => [p.key, p.shippingMethod, p.giftMessage, p.recipientEmail, p.items])).toEqual([
      ['own', 'standard', '', '', [{ cartItemId: cart.items[0]!.id, quantity: 2 }]],
      [roseId, 'express', 'Love, Ava', 'rose@example.org', [{ cartItemId: cart.items[0]!.id, quantity: 1 }]],
    ])
  })
})
