import fs from 'node:fs'
import path from 'node:path'
import { randomUUID } from 'node:crypto'
import { asc, eq, sql } from 'drizzle-orm'
import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { migrationsFolder } from '../../app/api/db/client'
import { orderParcels, orders, outboxEmails } from '../../app/api/db/schema'
import { giftNoteReference } from '../../app/api/services/order-emails'
import { formatWeekday } from '../../app/catalogue/shipping'
import { fulfilmentJobs, orderStateOf } from '../../app/api/services/fulfilment'
import { drainJobs } from '../../app/api/services/jobs'
import { LOCAL_TEST_CARDS, orderStatuses, type OrderStatus } from '../../app/contract/cart'
import { cartItemFor, recordPreview, testAddress } from '../support/cart'
import { grandmaAddress, shipThroughLocalProvider, splitIntoTwoParcels } from '../support/parcels'
import { createTestApi, type TestApi } from '../support/test-api'

/**
 * The print provider's unit is the parcel (issue 33): every order has at least one, the first with the order's own
 * id, and the order's status and tracking are worked out from them.
 */
let t: TestApi
let cookie: string
beforeAll(async () => {
  t = await createTestApi()
  cookie = await t.signIn(0)
})
afterAll(() => t.close())

async function paidOrder(quantity = 1) {
  const preview = await recordPreview(t, t.users[0].id, 'tree')
  expect((await t.request('/v1/photo-products-cart/items', { method: 'POST', cookie, json: { ...cartItemFor(preview), quantity } })).status).toBe(201)
  const session = await t.request('/v1/photo-products-cart/checkout-session', { method: 'POST', cookie })
  const paid = await t.request(`/v1/checkout/local/${session.body.id}/pay`, {
    method: 'POST',
    cookie,
    json: { cardNumber: LOCAL_TEST_CARDS.succeeds, shippingAddress: testAddress },
  })
  expect(paid.status, JSON.stringify(paid.body)).toBe(200)
  return paid.body.orderId as string
}

describe('an order’s parcels', () => {
  it('a checkout to one address makes one parcel with the order’s id, its lines, address, method and promise', async () => {
    const orderId = await paidOrder(2)
    const order = (await t.request(`/v1/photo-products-orders/${orderId}`, { cookie })).body
    expect(order.parcels).toEqual([
      {
        id: orderId,
        position: 1,
        addressId: null,
        label: null,
        shippingAddress: order.shippingAddress,
        shippingMethod: 'standard',
        arrivesBy: order.arrivesBy,
        items: order.lines.map((l: { cartItemId: string; quantity: number }) => ({ cartItemId: l.cartItemId, quantity: l.quantity })),
        giftMessage: null,
        recipientEmail: null,
        status: 'paid',
        trackingNumber: null,
        trackingUrl: null,
        sentToProductionAt: null,
        shipments: [],
        quantity: 2,
        shippedQuantity: 0,
        shippingProgress: null,
      },
    ])
    await drainJobs(t.api.deps, fulfilmentJobs)
    const submitted = (await t.request(`/v1/photo-products-orders/${orderId}`, { cookie })).body
    expect(submitted).toMatchObject({ status: 'submitted', providerOrderId: `local-${orderId}`, parcels: [{ status: 'submitted' }] })
  })

  it('migration 0019 gives every order made before parcels the one parcel a checkout makes now', async () => {
    await paidOrder()
    await paidOrder(3)
    await drainJobs(t.api.deps, fulfilmentJobs)
    const backfill = fs
      .readFileSync(path.join(migrationsFolder, '0019_order_parcels.sql'), 'utf8')
      .split('--> statement-breakpoint')
      .map((s) => s.trim())
      .find((s) => s.includes('INSERT INTO "order_parcels"'))!
    const parcels = () => t.db.select().from(orderParcels).orderBy(asc(orderParcels.id))
    const made = await parcels()
    expect(made.length).toBe((await t.db.select().from(orders)).length)
    await t.db.delete(orderParcels)
    await t.db.execute(sql.raw(backfill))
    // sent_to_production_at came after 0019 (0026, issue 50): the backfill leaves it null, as it was for those orders.
    expect(await parcels()).toEqual(made.map((parcel) => ({ ...parcel, sentToProductionAt: null })))
  })
})

describe('a gift parcel (issue 33, item 3)', () => {
  const message = 'Merry Christmas, Grandma!\nLove from Maya & the kids <3'

  async function giftOrder() {
    const orderId = await paidOrder(3)
    const parcelId = await splitIntoTwoParcels(t, orderId, grandmaAddress, { giftMessage: message, recipientEmail: 'rose@example.org' })
    return { orderId, parcelId }
  }

  it('its packing slip holds the contents, the recipient and the message, escaped, and no prices', async () => {
    const { orderId, parcelId } = await giftOrder()
    const res = await t.api.fetch(
      new Request(`http://localhost:3000/v1/photo-products-orders/${orderId}/parcels/${parcelId}/packing-slip`, { headers: { cookie } }),
    )
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8')
    const html = await res.text()
    expect(html).toContain('Merry Christmas, Grandma!<br>Love from Maya &amp; the kids &lt;3')
    expect(html).toContain('2 ×')
    expect(html).toContain('Tree Photo Ornament')
    expect(html).toContain('Rose Rivera<br>4 Maple Court<br>Columbus, OH 43004')
    expect(html).toContain('parcel 2 of 2')
    expect(html).not.toMatch(/\$\s?\d|\d\.\d\d\b|total|price/i)
    // The shopper's own parcel: no message box.
    const own = await (
      await t.api.fetch(new Request(`http://localhost:3000/v1/photo-products-orders/${orderId}/parcels/${orderId}/packing-slip`, { headers: { cookie } }))
    ).text()
    expect(own).not.toContain('Gift message')
    expect(own).toContain('1 ×')
  })

  it('another shopper, an unknown parcel or a malformed id get nothing of it', async () => {
    const { orderId, parcelId } = await giftOrder()
    const other = await t.signIn(1)
    const slip = (path: string, who = cookie) => t.request(`/v1/photo-products-orders/${path}/packing-slip`, { cookie: who })
    expect((await slip(`${orderId}/parcels/${parcelId}`, other)).status).toBe(404)
    expect((await slip(`${orderId}/parcels/${randomUUID()}`)).status).toBe(404)
    expect((await slip(`${randomUUID()}/parcels/${parcelId}`)).status).toBe(404)
    expect((await slip(`${orderId}/parcels/not-a-parcel`)).status).toBe(400)
    expect((await slip(`${orderId}/parcels/${parcelId}`, '')).status).toBe(401)
  })

  it('its recipient hears it is on its way when it ships: from whom, by when, and nothing of prices or the order', async () => {
    const { orderId, parcelId } = await giftOrder()
    await shipThroughLocalProvider(t)
    const order = (await t.request(`/v1/photo-products-orders/${orderId}`, { cookie })).body
    expect(order.status).toBe('shipped')
    const notes = await t.db.select().from(outboxEmails).where(eq(outboxEmails.kind, 'gift-note'))
    const note = notes.find((n) => n.reference === giftNoteReference(parcelId))!
    expect(note).toMatchObject({ to: 'rose@example.org', subject: `A gift is on its way from ${t.users[0].firstName}` })
    expect(note.text).toContain(`It should arrive by ${formatWeekday(order.parcels[1].arrivesBy)}.`)
    for (const body of [note.text, note.html]) {
      expect(body).not.toMatch(/\$\s?\d/)
      expect(body).not.toContain(order.reference)
      expect(body).not.toContain('Merry Christmas')
    }
    // The shopper's own parcel has no recipient to tell.
    expect(notes.filter((n) => n.reference === giftNoteReference(orderId))).toEqual([])
  })
})

describe('the order’s status from its parcels (orderStateOf)', () => {
  const anyStatus = fc.constantFrom<OrderStatus>(...orderStatuses)
  const parcel = anyStatus.map((status) => ({ status, providerOrderId: null, trackingNumber: null, trackingUrl: null }))

  it('one parcel: the order is where its parcel is', () => {
    fc.assert(
      fc.property(anyStatus, (status) => {
        expect(orderStateOf({ status: 'paid' }, [{ status, providerOrderId: 'p', trackingNumber: 't', trackingUrl: 'u' }])).toEqual({
          status,
          providerOrderId: 'p',
          trackingNumber: 't',
          trackingUrl: 'u',
        })
      }),
    )
  })

  it('several: refunded stays refunded; a failed submission shows; else the least advanced parcel still on its way', () => {
    const rank: Record<OrderStatus, number> = { paid: 0, submission_failed: 0, submitted: 1, in_production: 2, shipped: 3, canceled: 4, refunded: 5 }
    fc.assert(
      fc.property(anyStatus, fc.array(parcel, { minLength: 2, maxLength: 4 }), (orderStatus, parcels) => {
        const { status } = orderStateOf({ status: orderStatus }, parcels)
        const live = parcels.filter((p) => p.status !== 'canceled' && p.status !== 'refunded')
        if (orderStatus === 'refunded') expect(status).toBe('refunded')
        else if (parcels.some((p) => p.status === 'submission_failed')) expect(status).toBe('submission_failed')
        else if (live.length === 0) expect(status).toBe(parcels[0]!.status)
        else {
          expect(live.map((p) => p.status)).toContain(status)
          for (const p of live) expect(rank[status]).toBeLessThanOrEqual(rank[p.status])
        }
      }),
    )
  })
})
