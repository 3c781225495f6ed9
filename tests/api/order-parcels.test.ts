import fs from 'node:fs'
import path from 'node:path'
import { asc, sql } from 'drizzle-orm'
import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { migrationsFolder } from '../../app/api/db/client'
import { orderParcels, orders } from '../../app/api/db/schema'
import { fulfilmentJobs, orderStateOf } from '../../app/api/services/fulfilment'
import { drainJobs } from '../../app/api/services/jobs'
import { LOCAL_TEST_CARDS, orderStatuses, type OrderStatus } from '../../app/contract/cart'
import { cartItemFor, recordPreview, testAddress } from '../support/cart'
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
        shippingAddress: order.shippingAddress,
        shippingMethod: 'standard',
        arrivesBy: order.arrivesBy,
        items: order.lines.map((l: { cartItemId: string; quantity: number }) => ({ cartItemId: l.cartItemId, quantity: l.quantity })),
        status: 'paid',
        trackingNumber: null,
        trackingUrl: null,
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
    expect(await parcels()).toEqual(made)
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
