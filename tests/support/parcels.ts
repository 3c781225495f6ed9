import { randomUUID } from 'node:crypto'
import { eq } from 'drizzle-orm'
import { orderParcels } from '../../app/api/db/schema'
import { fulfilmentJobs, queueParcelSubmission } from '../../app/api/services/fulfilment'
import { drainJobs } from '../../app/api/services/jobs'
import type { ShippingAddress } from '../../app/contract/cart'
import type { TestApi } from './test-api'

/** Grandma Rose, in Ohio: the second address of a two-parcel order. */
export const grandmaAddress: ShippingAddress = {
  name: 'Rose Rivera',
  email: '',
  phone: '',
  line1: '4 Maple Court',
  line2: '',
  city: 'Columbus',
  state: 'OH',
  postalCode: '43004',
  country: 'US',
}

/**
 * Splits a just-paid order of one line (quantity ≥ 2, its submission not yet run) into two parcels: one of the
 * line stays in the first parcel (the order's own id, the checkout's address), the rest goes to `to`, as a
 * checkout to several addresses records them. Answers the second parcel's id.
 */
export async function splitIntoTwoParcels(
  t: TestApi,
  orderId: string,
  to: ShippingAddress = grandmaAddress,
  gift: { giftMessage?: string; recipientEmail?: string } = {},
) {
  const [first] = await t.db.select().from(orderParcels).where(eq(orderParcels.id, orderId))
  const [item] = first!.items
  if (!item || first!.items.length !== 1 || item.quantity < 2) throw new Error('splitIntoTwoParcels needs an order of one line with quantity 2 or more')
  const secondId = randomUUID()
  await t.db.transaction(async (tx) => {
    await tx
      .update(orderParcels)
      .set({ items: [{ cartItemId: item.cartItemId, quantity: 1 }] })
      .where(eq(orderParcels.id, orderId))
    const [second] = await tx
      .insert(orderParcels)
      .values({
        id: secondId,
        orderId,
        position: 2,
        shippingAddress: to,
        shippingMethod: 'express',
        giftMessage: gift.giftMessage ?? null,
        recipientEmail: gift.recipientEmail ?? null,
        arrivesBy: first!.arrivesBy,
        items: [{ cartItemId: item.cartItemId, quantity: item.quantity - 1 }],
        createdAt: t.now(),
        updatedAt: t.now(),
      })
      .returning()
    await queueParcelSubmission(tx, second!, t.now())
  })
  return secondId
}

/**
 * Runs the local print provider until what was paid has shipped: the submission, then its two production steps,
 * each LOCAL_FULFILMENT_STEP_SECONDS later on the test clock (set back afterwards).
 */
export async function shipThroughLocalProvider(t: TestApi) {
  const start = t.now()
  try {
    await drainJobs(t.api.deps, fulfilmentJobs)
    for (const step of [1, 2]) {
      t.setNow(new Date(start.getTime() + step * t.config.localFulfilmentStepSeconds * 1000))
      await drainJobs(t.api.deps, fulfilmentJobs)
    }
  } finally {
    t.setNow(start)
  }
}
