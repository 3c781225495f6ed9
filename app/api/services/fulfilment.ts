/**
 * After payment: the order goes to the print provider by a durable job (retried with backoff, never
 * submitted twice), and the local provider then moves it through production on a timer. Each step
 * changes the order and schedules the next step in one transaction, so a crash between them cannot
 * stop the chain (docs/decisions/018-jobs-that-survive-a-crash.md).
 */
import { randomInt } from 'node:crypto'
import { and, eq, isNull } from 'drizzle-orm'
import type { OrderStatus } from '../../contract/cart'
import { canMove, orderTransitions } from './cart-states'
import { crashPoint } from '../crash-points'
import type { Database } from '../db/client'
import { orders } from '../db/schema'
import type { ApiDeps } from '../env'
import type { JobHandlers, JobRow } from './jobs'
import { enqueueJob } from './jobs'
import { queueOrderShipped } from './order-emails'

async function loadOrder(deps: ApiDeps, job: JobRow) {
  const orderId = String(job.payload.orderId ?? '')
  const [order] = await deps.db.select().from(orders).where(eq(orders.id, orderId))
  if (!order) throw new Error(`order ${orderId} not found`)
  return order
}

type Executor = Pick<Database, 'update' | 'insert'>

async function moveOrder(deps: ApiDeps, db: Executor, orderId: string, from: OrderStatus, to: OrderStatus, set: Partial<typeof orders.$inferInsert> = {}) {
  if (!canMove(orderTransitions, from, to)) return false
  const moved = await db
    .update(orders)
    .set({ ...set, status: to, updatedAt: deps.now() })
    .where(and(eq(orders.id, orderId), eq(orders.status, from)))
    .returning({ id: orders.id })
  return moved.length > 0
}

const nextLocalStep: Partial<Record<OrderStatus, OrderStatus>> = { submitted: 'in_production', in_production: 'shipped' }

async function scheduleLocalStep(deps: ApiDeps, db: Executor, orderId: string, to: OrderStatus) {
  await enqueueJob(db, {
    kind: 'advance-order',
    dedupeKey: `advance-order:${orderId}:${to}`,
    payload: { orderId, to },
    runAt: new Date(deps.now().getTime() + deps.config.localFulfilmentStepSeconds * 1000),
  })
}

/**
 * Submits once: an order that already has the provider's id is not sent again, and the provider itself
 * finds an earlier try whose answer was lost (a crash between its answer and our update).
 */
async function submitOrder(deps: ApiDeps, job: JobRow) {
  const order = await loadOrder(deps, job)
  if (order.status === 'refunded') return
  if (order.providerOrderId) {
    // Submitted by an earlier run; make sure the production steps were scheduled (a no-op when they were).
    if (order.provider === 'local' && order.status === 'submitted') await scheduleLocalStep(deps, deps.db, order.id, 'in_production')
    return
  }
  if (!order.shippingAddress) throw new Error(`order ${order.id} has no shipping address`)
  await crashPoint('submit-order:before-provider')
  const { providerOrderId } = await deps.print.submitOrder({
    orderId: order.id,
    reference: order.reference,
    lines: order.printItems.map((i) => ({ providerProductId: i.providerProductId, variantId: i.variantId, quantity: i.quantity })),
    address: order.shippingAddress,
  })
  await crashPoint('submit-order:after-provider')
  const from = order.status === 'submission_failed' ? 'submission_failed' : 'paid'
  await deps.db.transaction(async (tx) => {
    const updated = await tx
      .update(orders)
      .set({ providerOrderId, status: 'submitted', updatedAt: deps.now() })
      .where(and(eq(orders.id, order.id), isNull(orders.providerOrderId), eq(orders.status, from)))
      .returning({ id: orders.id })
    if (updated.length > 0 && order.provider === 'local') await scheduleLocalStep(deps, tx, order.id, 'in_production')
    await crashPoint('submit-order:before-commit')
  })
}

/** The local print shop: submitted → in production → shipped with a tracking number. */
async function advanceOrder(deps: ApiDeps, job: JobRow) {
  const order = await loadOrder(deps, job)
  const to = job.payload.to as OrderStatus
  if (order.status === to || nextLocalStep[order.status] !== to) return
  const tracking = to === 'shipped' ? { trackingNumber: `1ZKS${String(randomInt(0, 1e9)).padStart(9, '0')}${String(randomInt(0, 1e5)).padStart(5, '0')}` } : {}
  await deps.db.transaction(async (tx) => {
    if (await moveOrder(deps, tx, order.id, order.status, to, tracking)) {
      const next = nextLocalStep[to]
      if (next) await scheduleLocalStep(deps, tx, order.id, next)
      // With the status change, so the shopper hears of the shipment exactly when (and once) it is recorded.
      if (to === 'shipped') await queueOrderShipped(tx, deps, order.id, deps.now())
    }
    await crashPoint('advance-order:before-commit')
  })
}

export const fulfilmentJobs: JobHandlers = {
  'submit-order': {
    run: submitOrder,
    // Out of retries: the order shows it, support can see the job's last error and requeue it.
    onGiveUp: async (deps, job) => {
      const order = await loadOrder(deps, job)
      await moveOrder(deps, deps.db, order.id, order.status, 'submission_failed')
    },
  },
  'advance-order': { run: advanceOrder },
}
