/**
 * After payment: each parcel of the order goes to the print provider as its own order, by a durable job
 * (retried with backoff, never submitted twice), and the local provider then moves it through production on a
 * timer. Each step changes the parcel (and the order's status worked out from its parcels) and schedules the
 * next step in one transaction, so a crash between them cannot stop the chain
 * (docs/decisions/018-jobs-that-survive-a-crash.md).
 *
 * An order's first parcel has the order's id, so an order of one parcel keeps the job keys
 * (`submit-order:<orderId>`), provider external id and e-mail references it had before parcels.
 */
import { randomInt, randomUUID } from 'node:crypto'
import { and, asc, eq, inArray, isNull } from 'drizzle-orm'
import type { OrderStatus } from '../../contract/cart'
import { canMove, orderTransitions } from './cart-states'
import { crashPoint } from '../crash-points'
import type { Database } from '../db/client'
import { orderParcels, orders, parcelShipments } from '../db/schema'
import type { ApiDeps } from '../env'
import type { JobHandlers, JobRow } from './jobs'
import { enqueueJob } from './jobs'
import { queueOrderShipped, shippingProgressText } from './order-emails'
import { describePersonalText } from '../../catalogue/personal-line'
import { findOrnamentVariant, ornamentProduct, variantTitle } from '../../catalogue/ornaments'
import { logger } from '../../observability/log'
import { metrics } from '../../observability/metrics'
import { PrintifyProvider } from '../providers/print/printify'
import type { PrintOrderLine } from '../providers/print/provider'
import { ensurePrintFilesOf, PRINT_POSITIONS, printFileKey, signedPrintFileUrl, type PreviewRow } from './print-files'

export type OrderRow = typeof orders.$inferSelect
export type ParcelRow = typeof orderParcels.$inferSelect
export type ShipmentRow = typeof parcelShipments.$inferSelect
type Executor = Pick<Database, 'update' | 'insert' | 'select'>

/** The job's parcel and its order; jobs queued before parcels name only the order, whose first parcel has its id. */
async function loadParcel(deps: ApiDeps, job: JobRow) {
  const parcelId = String(job.payload.parcelId ?? job.payload.orderId ?? '')
  const [parcel] = await deps.db.select().from(orderParcels).where(eq(orderParcels.id, parcelId))
  if (!parcel) throw new Error(`parcel ${parcelId} not found`)
  const [order] = await deps.db.select().from(orders).where(eq(orders.id, parcel.orderId))
  if (!order) throw new Error(`order ${parcel.orderId} not found`)
  return { parcel, order }
}

/** The parcels of an order, in their order. */
export function parcelsOf(db: Pick<Database, 'select'>, orderId: string) {
  return db.select().from(orderParcels).where(eq(orderParcels.orderId, orderId)).orderBy(asc(orderParcels.position))
}

/** How far along production each status is; a failed submission counts as not yet at the printer. */
const progress: Record<OrderStatus, number> = { paid: 0, submission_failed: 0, submitted: 1, in_production: 2, shipped: 3, canceled: 4, refunded: 5 }

/**
 * The order's status from its parcels: refunded stays refunded; a parcel whose submission failed shows on the
 * order (support sees it); otherwise the least advanced parcel that is not canceled (all canceled: canceled).
 * The order's provider id and tracking are its first parcel's.
 */
export function orderStateOf(order: Pick<OrderRow, 'status'>, parcels: Pick<ParcelRow, 'status' | 'providerOrderId' | 'trackingNumber' | 'trackingUrl'>[]) {
  const [first] = parcels
  const live = parcels.filter((p) => p.status !== 'canceled' && p.status !== 'refunded')
  const status: OrderStatus =
    order.status === 'refunded'
      ? 'refunded'
      : parcels.some((p) => p.status === 'submission_failed')
        ? 'submission_failed'
        : live.length === 0
          ? (first?.status ?? order.status)
          : live.reduce((least, p) => (progress[p.status] < progress[least] ? p.status : least), live[0]!.status)
  return { status, providerOrderId: first?.providerOrderId ?? null, trackingNumber: first?.trackingNumber ?? null, trackingUrl: first?.trackingUrl ?? null }
}

/** Writes the order's status and tracking as its parcels say (in the transaction that moved a parcel). */
export async function syncOrderFromParcels(deps: ApiDeps, db: Executor, orderId: string) {
  const [order] = await db.select().from(orders).where(eq(orders.id, orderId))
  if (!order) return
  const state = orderStateOf(order, await parcelsOf(db, orderId))
  if (
    state.status === order.status &&
    state.providerOrderId === order.providerOrderId &&
    state.trackingNumber === order.trackingNumber &&
    state.trackingUrl === order.trackingUrl
  )
    return
  await db
    .update(orders)
    .set({ ...state, updatedAt: deps.now() })
    .where(eq(orders.id, orderId))
}

/** Moves a parcel forward only (the order's transitions), then the order with it; answers whether it moved. */
export async function moveParcel(
  deps: ApiDeps,
  db: Executor,
  parcel: Pick<ParcelRow, 'id' | 'orderId'>,
  from: OrderStatus,
  to: OrderStatus,
  set: Partial<typeof orderParcels.$inferInsert> = {},
) {
  if (!canMove(orderTransitions, from, to)) return false
  const moved = await db
    .update(orderParcels)
    .set({ ...set, status: to, updatedAt: deps.now() })
    .where(and(eq(orderParcels.id, parcel.id), eq(orderParcels.status, from)))
    .returning({ id: orderParcels.id })
  if (moved.length === 0) return false
  await syncOrderFromParcels(deps, db, parcel.orderId)
  return true
}

// ---------------------------------------------------------------------------------------------
// Shipments: a parcel may leave in several boxes, each with its own carrier and tracking (decision 062)

/** The shipments of these parcels, in the order they were heard of. */
export function shipmentsOf(db: Pick<Database, 'select'>, parcelIds: string[]) {
  if (parcelIds.length === 0) return Promise.resolve([] as ShipmentRow[])
  return db.select().from(parcelShipments).where(inArray(parcelShipments.parcelId, parcelIds)).orderBy(asc(parcelShipments.position))
}

/**
 * How many of a parcel's ornaments have shipped: all of them once it is shipped; before that, what the shipments
 * say they hold (a shipment that did not say holds nothing we can count), never more than the parcel holds.
 */
export function shippedQuantityOf(parcel: Pick<ParcelRow, 'status' | 'items'>, shipments: Pick<ShipmentRow, 'items'>[]) {
  const of = parcel.items.reduce((n, i) => n + i.quantity, 0)
  if (parcel.status === 'shipped') return { shipped: of, of }
  const held = new Map(parcel.items.map((i) => [i.cartItemId, i.quantity]))
  const sent = new Map<string, number>()
  for (const shipment of shipments) for (const item of shipment.items ?? []) sent.set(item.cartItemId, (sent.get(item.cartItemId) ?? 0) + item.quantity)
  let shipped = 0
  for (const [cartItemId, quantity] of held) shipped += Math.min(quantity, sent.get(cartItemId) ?? 0)
  return { shipped, of }
}

/** The parcel's shipments and progress as the order answers them ("1 of 2 shipped" while part of it has). */
export function parcelShipping(parcel: Pick<ParcelRow, 'status' | 'items'>, shipments: ShipmentRow[]) {
  const { shipped, of } = shippedQuantityOf(parcel, shipments)
  return {
    quantity: of,
    shippedQuantity: shipped,
    shippingProgress: shippingProgressText(shipped, of),
    shipments: shipments.map((s) => ({
      position: s.position,
      carrier: s.carrier,
      trackingNumber: s.trackingNumber,
      trackingUrl: s.trackingUrl,
      items: s.items,
      shippedAt: s.shippedAt.toISOString(),
      deliveredAt: s.deliveredAt?.toISOString() ?? null,
    })),
  }
}

export type SeenShipment = {
  carrier: string | null
  trackingNumber: string | null
  trackingUrl: string | null
  /** What it holds; null when the provider did not say. */
  items: { cartItemId: string; quantity: number }[] | null
  deliveredAt?: Date | null
}

/**
 * Records a shipment of a parcel once: one heard of again (same tracking number, else URL) only learns what it
 * lacked (what it holds, its delivery). A parcel's untracked shipment (shipped before any tracking was given) takes
 * the first tracking heard of instead of counting as a second box. Answers the new row, or null when it was known.
 */
export async function recordShipment(deps: Pick<ApiDeps, 'now'>, db: Executor, parcelId: string, seen: SeenShipment): Promise<ShipmentRow | null> {
  const key = seen.trackingNumber ?? seen.trackingUrl ?? UNTRACKED
  const known = await db.select().from(parcelShipments).where(eq(parcelShipments.parcelId, parcelId)).orderBy(asc(parcelShipments.position))
  const same = known.find((s) => s.key === key) ?? (key !== UNTRACKED ? known.find((s) => s.key === UNTRACKED) : undefined)
  if (same) {
    const learnt: Partial<ShipmentRow> = {}
    if (same.key === UNTRACKED && key !== UNTRACKED) Object.assign(learnt, { key, trackingNumber: seen.trackingNumber, trackingUrl: seen.trackingUrl })
    if (!same.carrier && seen.carrier) learnt.carrier = seen.carrier
    if (!same.items && seen.items) learnt.items = seen.items
    if (!same.deliveredAt && seen.deliveredAt) learnt.deliveredAt = seen.deliveredAt
    if (Object.keys(learnt).length > 0) await db.update(parcelShipments).set(learnt).where(eq(parcelShipments.id, same.id))
    return null
  }
  const [row] = await db
    .insert(parcelShipments)
    .values({
      id: randomUUID(),
      parcelId,
      position: known.length + 1,
      key,
      carrier: seen.carrier,
      trackingNumber: seen.trackingNumber,
      trackingUrl: seen.trackingUrl,
      items: seen.items,
      shippedAt: deps.now(),
      deliveredAt: seen.deliveredAt ?? null,
    })
    .onConflictDoNothing()
    .returning()
  return row ?? null
}

const UNTRACKED = 'untracked'

const nextLocalStep: Partial<Record<OrderStatus, OrderStatus>> = { submitted: 'in_production', in_production: 'shipped' }

async function scheduleLocalStep(deps: ApiDeps, db: Executor, parcel: Pick<ParcelRow, 'id' | 'orderId'>, to: OrderStatus) {
  await enqueueJob(db, {
    kind: 'advance-order',
    dedupeKey: `advance-order:${parcel.id}:${to}`,
    payload: { orderId: parcel.orderId, parcelId: parcel.id, to },
    runAt: new Date(deps.now().getTime() + deps.config.localFulfilmentStepSeconds * 1000),
  })
}

/** The job that sends one parcel to the print provider (queued with the order, in its transaction). */
export async function queueParcelSubmission(db: Executor, parcel: Pick<ParcelRow, 'id' | 'orderId'>, now: Date) {
  await enqueueJob(db, { kind: 'submit-order', dedupeKey: `submit-order:${parcel.id}`, payload: { orderId: parcel.orderId, parcelId: parcel.id }, runAt: now })
}

/** A parcel's lines as the provider takes them: each design's product, quantity and print files (signed URLs, and the PNGs). */
async function orderLinesOf(deps: ApiDeps, order: OrderRow, parcel: ParcelRow): Promise<PrintOrderLine[]> {
  const quantities = new Map(parcel.items.map((i) => [i.cartItemId, i.quantity]))
  const items = order.printItems.filter((i) => (quantities.get(i.cartItemId) ?? 0) > 0)
  // Never shipped without its print files: a design whose files are missing is rendered now, and a render that fails
  // fails the submission, which the job retries (issue 50).
  const previewRows = await ensurePrintFilesOf(deps, [...new Set(items.map((i) => i.previewId))])
  const previewOf = new Map<string, PreviewRow>(previewRows.map((row) => [row.id, row]))
  return Promise.all(
    items.map(async (item) => {
      const preview = previewOf.get(item.previewId)!
      const variant = findOrnamentVariant(item.variantId)
      if (!variant) throw new Error(`order ${order.id}: variant ${item.variantId} is no longer in the catalogue`)
      const printFiles = await Promise.all(
        PRINT_POSITIONS.map(async (position) => ({
          position,
          fileName: `${preview.id}-${position}.png`,
          url: await signedPrintFileUrl(deps, preview.id, position),
          read: async () => {
            const stored = await deps.storage.get(printFileKey(preview, position))
            if (!stored) throw new Error(`preview ${preview.id}: its ${position} print file is gone`)
            return stored.body
          },
        })),
      )
      return {
        previewId: preview.id,
        title: variantTitle(variant),
        description: preview.text ? `${ornamentProduct.description} Personal text: ${describePersonalText(preview.text)}.` : ornamentProduct.description,
        blueprintId: ornamentProduct.providerProductId,
        printProviderId: ornamentProduct.printProviderId,
        variantId: item.variantId,
        quantity: quantities.get(item.cartItemId)!,
        priceCents: Math.round(variant.salePrice * 100),
        printFiles,
      }
    }),
  )
}

/** The job that sends a submitted parcel to production once its hold ends (ORDER_HOLD_MINUTES after it reached the provider). */
async function queueSendToProduction(deps: ApiDeps, db: Executor, parcel: Pick<ParcelRow, 'id' | 'orderId'>) {
  await enqueueJob(db, {
    kind: 'send-to-production',
    dedupeKey: `send-to-production:${parcel.id}`,
    payload: { orderId: parcel.orderId, parcelId: parcel.id },
    runAt: new Date(deps.now().getTime() + deps.config.orderHoldMinutes * 60_000),
  })
}

/** The job that cancels a parcel's order at the provider (a refund or cancel before it went to production). */
export async function queueProviderCancel(db: Executor, parcel: Pick<ParcelRow, 'id' | 'orderId'>, now: Date) {
  await enqueueJob(db, {
    kind: 'cancel-at-provider',
    dedupeKey: `cancel-at-provider:${parcel.id}`,
    payload: { orderId: parcel.orderId, parcelId: parcel.id },
    runAt: now,
  })
}

/**
 * Submits once: a parcel that already has the provider's id is not sent again, and the provider itself finds an
 * earlier try whose answer was lost (a crash between its answer and our update), by the parcel's id.
 */
async function submitParcel(deps: ApiDeps, job: JobRow) {
  const { parcel, order } = await loadParcel(deps, job)
  if (order.status === 'refunded' || parcel.status === 'refunded') return
  if (parcel.providerOrderId) {
    // Submitted by an earlier run; make sure its send to production was scheduled (a no-op when it was).
    if (parcel.status === 'submitted' && !parcel.sentToProductionAt) await queueSendToProduction(deps, deps.db, parcel)
    return
  }
  if (!parcel.shippingAddress) throw new Error(`parcel ${parcel.id} of order ${order.id} has no shipping address`)
  const lines = await orderLinesOf(deps, order, parcel)
  await crashPoint('submit-order:before-provider')
  const { providerOrderId } = await deps.print.submitOrder({
    orderId: parcel.id,
    reference: parcel.position === 1 ? order.reference : `${order.reference}-${parcel.position}`,
    lines,
    // The job's first run cannot have made the order; any later run (a retry, a takeover) may have.
    mayExist: job.attempts > 1 || parcel.status === 'submission_failed',
    shippingMethod: parcel.shippingMethod,
    address: parcel.shippingAddress,
  })
  await crashPoint('submit-order:after-provider')
  const from = parcel.status === 'submission_failed' ? 'submission_failed' : 'paid'
  const recorded = await deps.db.transaction(async (tx) => {
    const updated = await tx
      .update(orderParcels)
      .set({ providerOrderId, status: 'submitted', updatedAt: deps.now() })
      .where(and(eq(orderParcels.id, parcel.id), isNull(orderParcels.providerOrderId), eq(orderParcels.status, from)))
      .returning({ id: orderParcels.id })
    if (updated.length > 0) {
      await syncOrderFromParcels(deps, tx, order.id)
      await queueSendToProduction(deps, tx, parcel)
    } else {
      // Refunded while the provider was being asked: the provider's order is kept on the parcel, and canceled there.
      const [now] = await tx.select({ status: orderParcels.status }).from(orderParcels).where(eq(orderParcels.id, parcel.id))
      if (now?.status === 'refunded' || now?.status === 'canceled') {
        await tx
          .update(orderParcels)
          .set({ providerOrderId })
          .where(and(eq(orderParcels.id, parcel.id), isNull(orderParcels.providerOrderId)))
        await queueProviderCancel(tx, parcel, deps.now())
      }
    }
    await crashPoint('submit-order:before-commit')
    return updated.length > 0
  })
  if (recorded) logger().info({ orderId: order.id, parcelId: parcel.id, providerOrderId }, `[orders] parcel ${parcel.id} reached the print provider`)
}

/** How long after its send to production an order may stay on hold at the provider before someone is told. */
export const ON_HOLD_ALARM_MINUTES = 60

/**
 * The hold has ended: the provider is asked to start production, once (the provider answers 'already-sent' to a second
 * ask, and the parcel keeps when it was sent). A parcel refunded or canceled meanwhile is not sent.
 */
async function sendParcelToProduction(deps: ApiDeps, job: JobRow) {
  const { parcel, order } = await loadParcel(deps, job)
  if (order.status === 'refunded' || !parcel.providerOrderId || parcel.sentToProductionAt) return
  if (parcel.status !== 'submitted' && parcel.status !== 'in_production') return
  const answer = await deps.print.sendToProduction(parcel.providerOrderId)
  await deps.db.transaction(async (tx) => {
    const sent = await tx
      .update(orderParcels)
      .set({ sentToProductionAt: deps.now() })
      .where(and(eq(orderParcels.id, parcel.id), isNull(orderParcels.sentToProductionAt)))
      .returning({ id: orderParcels.id })
    if (sent.length === 0) return
    if (order.provider === 'local') await scheduleLocalStep(deps, tx, parcel, 'in_production')
    else
      await enqueueJob(tx, {
        kind: 'check-production-started',
        dedupeKey: `check-production-started:${parcel.id}`,
        payload: { orderId: parcel.orderId, parcelId: parcel.id },
        runAt: new Date(deps.now().getTime() + ON_HOLD_ALARM_MINUTES * 60_000),
      })
  })
  logger().info(
    { orderId: order.id, parcelId: parcel.id, providerOrderId: parcel.providerOrderId, answer },
    `[orders] parcel ${parcel.id} sent to production (${answer})`,
  )
}

/** An hour after it was sent: an order Printify still holds is an error someone must look at (a shop setting, an image issue). */
async function checkProductionStarted(deps: ApiDeps, job: JobRow) {
  const { parcel } = await loadParcel(deps, job)
  if (!parcel.providerOrderId || parcel.status !== 'submitted' || !(deps.print instanceof PrintifyProvider)) return
  const detail = await deps.print.client.getOrder(parcel.providerOrderId)
  if (detail.status !== 'on-hold' && detail.status !== 'pending') return
  metrics().ordersStuckOnHold.inc()
  logger().error(
    { orderId: parcel.orderId, parcelId: parcel.id, providerOrderId: parcel.providerOrderId, providerStatus: detail.status },
    `[orders] Printify order ${parcel.providerOrderId} (parcel ${parcel.id}) is still ${detail.status} ${ON_HOLD_ALARM_MINUTES} minutes after it was sent to production`,
  )
}

/** A parcel refunded or canceled before production: its order at the provider is canceled (too late once production began). */
async function cancelParcelAtProvider(deps: ApiDeps, job: JobRow) {
  const { parcel } = await loadParcel(deps, job)
  if (!parcel.providerOrderId) return
  const answer = await deps.print.cancelOrder(parcel.providerOrderId)
  const log = answer === 'too-late' ? logger().warn.bind(logger()) : logger().info.bind(logger())
  log(
    { orderId: parcel.orderId, parcelId: parcel.id, providerOrderId: parcel.providerOrderId, answer },
    answer === 'too-late'
      ? `[orders] parcel ${parcel.id}: the provider had already started production and could not cancel it`
      : `[orders] parcel ${parcel.id}: canceled at the provider (${answer})`,
  )
}

/** The local print shop: submitted → in production → shipped with a tracking number. */
async function advanceParcel(deps: ApiDeps, job: JobRow) {
  const { parcel, order } = await loadParcel(deps, job)
  const to = job.payload.to as OrderStatus
  if (order.status === 'refunded') return
  if (parcel.status === to || nextLocalStep[parcel.status] !== to) return
  const tracking = to === 'shipped' ? { trackingNumber: `1ZKS${String(randomInt(0, 1e9)).padStart(9, '0')}${String(randomInt(0, 1e5)).padStart(5, '0')}` } : {}
  await deps.db.transaction(async (tx) => {
    if (await moveParcel(deps, tx, parcel, parcel.status, to, tracking)) {
      const next = nextLocalStep[to]
      if (next) await scheduleLocalStep(deps, tx, parcel, next)
      // With the status change, so the shopper hears of the shipment exactly when (and once) it is recorded.
      if (to === 'shipped') {
        const box = await recordShipment(deps, tx, parcel.id, {
          carrier: null,
          trackingNumber: tracking.trackingNumber ?? null,
          trackingUrl: parcel.trackingUrl,
          items: parcel.items,
        })
        await queueOrderShipped(tx, deps, parcel.id, deps.now(), box ?? undefined)
      }
    }
    await crashPoint('advance-order:before-commit')
  })
}

export const fulfilmentJobs: JobHandlers = {
  'submit-order': {
    run: submitParcel,
    // Out of retries: the parcel and its order show it, support can see the job's last error and requeue it.
    onGiveUp: async (deps, job) => {
      const { parcel } = await loadParcel(deps, job)
      await moveParcel(deps, deps.db, parcel, parcel.status, 'submission_failed')
    },
  },
  'advance-order': { run: advanceParcel },
  'send-to-production': { run: sendParcelToProduction },
  'check-production-started': { run: checkProductionStarted },
  'cancel-at-provider': { run: cancelParcelAtProvider },
}
