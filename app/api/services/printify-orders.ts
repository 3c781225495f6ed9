/**
 * Printify's order states reach the store: its webhooks (verified, idempotent, forward only) and a poll job
 * that looks up the orders whose webhooks never came. Both end in `applyPrintifyState`, one function, so an
 * event and a poll can never disagree about what an order may become (docs/decisions/043-printify-webhooks.md).
 */
import { createHmac, timingSafeEqual } from 'node:crypto'
import { and, eq, inArray, isNotNull, lt } from 'drizzle-orm'
import type { OrderStatus } from '../../contract/cart'
import type { Database } from '../db/client'
import { jobs, orderParcels, orders, printifyWebhookEvents } from '../db/schema'
import { readBodyCapped } from '../endpoint'
import type { ApiDeps } from '../env'
import { AppError } from '../errors'
import { logger } from '../../observability/log'
import { PrintifyProvider, type PrintifyOrderDetail } from '../providers/print/printify'
import { PrintProviderError } from '../providers/print/provider'
import { moveParcel, recordShipment, shipmentsOf, shippedQuantityOf, syncOrderFromParcels, type ShipmentRow } from './fulfilment'
import type { JobHandlers } from './jobs'
import { enqueueJob } from './jobs'
import { queueOrderShipped } from './order-emails'

/** A webhook body larger than this is refused (413) before it is read further: Printify's order events are a few KB. */
export const MAX_PRINTIFY_WEBHOOK_BYTES = 64 * 1024
export const PRINTIFY_SIGNATURE_HEADER = 'x-pf-signature'

/** What became of one webhook delivery: the one value a counter of webhook events by outcome needs. */
export type PrintifyWebhookOutcome = 'applied' | 'duplicate' | 'ignored' | 'refused'

/** A shipment as Printify tells it: its tracking and, from a shipment event, the SKUs of the line items it holds. */
export type PrintifyShipmentSeen = { carrier: string | null; number: string | null; url: string | null; skus: string[] | null; deliveredAt: Date | null }

/**
 * Where Printify says an order is, in our words: a target state (or none), the shipments it tells of (oldest first;
 * the last one's tracking is the order's), and whether Printify says every line item has shipped.
 */
export type PrintifyState = {
  to: 'in_production' | 'shipped' | 'canceled' | null
  shipments: PrintifyShipmentSeen[]
}

type Tx = Parameters<Parameters<Database['transaction']>[0]>[0]

// ---------------------------------------------------------------------------------------------
// From Printify's words to ours

/**
 * Printify's order statuses (pending, on-hold, sending-to-production, in-production, has-issues, partially-fulfilled,
 * fulfilled, …). A partly fulfilled order is still being made: its parcel ships when the last line item does.
 */
function targetOfStatus(status: unknown): PrintifyState['to'] {
  switch (status) {
    case 'in-production':
    case 'partially-fulfilled':
      return 'in_production'
    case 'fulfilled':
    case 'shipped':
    case 'delivered':
      return 'shipped'
    case 'canceled':
    case 'cancelled':
      return 'canceled'
    default:
      return null
  }
}

/** A shipment event ships the parcel unless the order says only part of it has shipped. */
function targetOfTopic(type: string, status: unknown): PrintifyState['to'] {
  if (type === 'order:sent-to-production') return 'in_production'
  if (type === 'order:shipment:created' || type === 'order:shipment:delivered') return status === 'partially-fulfilled' ? 'in_production' : 'shipped'
  if (type === 'order:canceled') return 'canceled'
  return null
}

const rank: Record<NonNullable<PrintifyState['to']>, number> = { in_production: 1, shipped: 2, canceled: 0 }

/** The further of two targets; a shipment outranks a cancellation (what was shipped cannot be canceled). */
function further(a: PrintifyState['to'], b: PrintifyState['to']): PrintifyState['to'] {
  if (a === null) return b
  if (b === null) return a
  if (a === 'canceled' || b === 'canceled') return a === 'shipped' || b === 'shipped' ? 'shipped' : 'canceled'
  return rank[a] >= rank[b] ? a : b
}

const text = (value: unknown) => (typeof value === 'string' && value.trim() !== '' ? value.trim().slice(0, 500) : null)
const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value)
const httpUrl = (url: string | null) => (url && /^https?:\/\//i.test(url) ? url : null)
const dateOf = (value: unknown) => {
  const time = typeof value === 'string' ? Date.parse(value.replace(' ', 'T')) : Number.NaN
  return Number.isNaN(time) ? null : new Date(time)
}

/** A shipment event's own shipment: `carrier: { code, tracking_number, tracking_url }` and the `skus` it holds. */
function eventShipment(data: Record<string, unknown>): PrintifyShipmentSeen | null {
  const carrier = data.carrier
  if (!isRecord(carrier)) return null
  const number = text(carrier.tracking_number) ?? text(carrier.number)
  const url = httpUrl(text(carrier.tracking_url) ?? text(carrier.url))
  if (!number && !url) return null
  const skus = Array.isArray(data.skus) ? data.skus.map(text).filter((sku): sku is string => sku !== null) : []
  return { carrier: text(carrier.code), number, url, skus: skus.length > 0 ? skus : null, deliveredAt: dateOf(data.delivered_at) }
}

/** An order's `shipments` list (`{ carrier, number, url, delivered_at }`, on the order and on order events). */
function listedShipments(data: Record<string, unknown>): PrintifyShipmentSeen[] {
  const shipments = Array.isArray(data.shipments) ? data.shipments.filter(isRecord) : []
  return shipments.flatMap((shipment) => {
    const number = text(shipment.number) ?? text(shipment.tracking_number)
    const url = httpUrl(text(shipment.url) ?? text(shipment.tracking_url))
    return number || url ? [{ carrier: text(shipment.carrier), number, url, skus: null, deliveredAt: dateOf(shipment.delivered_at) }] : []
  })
}

/**
 * What an order (the poll) or an order event says. A listed shipment does not say what it holds, so it is kept only
 * once the whole order has shipped; while only part has, a shipment is kept from its own event, which names its SKUs.
 */
function stateOf(to: PrintifyState['to'], data: Record<string, unknown>): PrintifyState {
  const own = eventShipment(data)
  const listed = to === 'shipped' ? listedShipments(data) : []
  const shipments = own ? [...listed.filter((s) => s.number !== own.number || s.url !== own.url), own] : listed
  return { to: further(to, own && to === null ? 'shipped' : null), shipments }
}

/** An order as Printify answers it (the poll). */
export function stateOfPrintifyOrder(order: PrintifyOrderDetail): PrintifyState {
  const data = order as unknown as Record<string, unknown>
  const listed = listedShipments(data)
  return stateOf(further(targetOfStatus(order.status), listed.length > 0 && order.status !== 'partially-fulfilled' ? 'shipped' : null), data)
}

/** An order event as Printify sends it: its topic, the order's status and any shipment. */
export function stateOfPrintifyEvent(type: string, data: Record<string, unknown>): PrintifyState {
  return stateOf(further(targetOfTopic(type, data.status), targetOfStatus(data.status)), data)
}

// ---------------------------------------------------------------------------------------------
// The one place a Printify order changes

/** Printify's line items by SKU (`metadata.sku` on the order), to tell what a shipment's `skus` hold. */
export type PrintifySkus = Map<string, { productId: string; variantId: number; quantity: number }>

export function skusOf(order: PrintifyOrderDetail): PrintifySkus {
  const skus: PrintifySkus = new Map()
  for (const item of order.line_items ?? []) {
    const sku = item.metadata?.sku
    if (typeof sku === 'string' && sku !== '') skus.set(sku, { productId: item.product_id, variantId: item.variant_id, quantity: item.quantity })
  }
  return skus
}

/**
 * Moves one of our Printify orders toward `state`, forward only: submitted → in production → shipped, and to
 * canceled only before it shipped. Each shipment Printify tells of is kept once with its own tracking
 * (`recordShipment`), and each new one queues its own shipping e-mail in the same transaction, saying how much of
 * the parcel has shipped. The parcel is shipped once Printify says all of it has, or its shipments hold all of it.
 * Answers whether anything changed.
 */
export async function applyPrintifyState(deps: ApiDeps, tx: Tx, parcelId: string, state: PrintifyState, skus: PrintifySkus = new Map()): Promise<boolean> {
  const [parcel] = await tx.select().from(orderParcels).where(eq(orderParcels.id, parcelId)).for('update')
  if (!parcel) return false
  const [order] = await tx.select({ provider: orders.provider, printItems: orders.printItems }).from(orders).where(eq(orders.id, parcel.orderId))
  if (order?.provider !== 'printify') return false
  const now = deps.now()
  if (state.to === null && state.shipments.length === 0) return false
  // Nothing ships from a canceled (or refunded) parcel; a cancellation after shipping changes nothing.
  if (parcel.status === 'canceled' || parcel.status === 'refunded' || (state.to === 'canceled' && parcel.status === 'shipped')) return false
  if (state.to === 'canceled') return moveParcel(deps, tx, parcel, parcel.status, 'canceled')

  const held = new Map(parcel.items.map((i) => [i.cartItemId, i.quantity]))
  const itemsOf = (seen: PrintifyShipmentSeen) => {
    if (!seen.skus) return null
    const items = new Map<string, number>()
    for (const sku of seen.skus) {
      const line = skus.get(sku)
      // Printify makes each line's product with the order (issue 50), so its product id is Printify's: a line is placed by
      // its variant when the parcel holds one design of it (an older order's lines name the product made at preview time).
      const ofVariant = line ? order.printItems.filter((p) => p.variantId === line.variantId && held.has(p.cartItemId)) : []
      const print = line && (ofVariant.find((p) => p.providerProductId === line.productId) ?? (ofVariant.length === 1 ? ofVariant[0] : undefined))
      if (!line || !print) return null // a SKU we cannot place: say nothing rather than the wrong thing
      items.set(print.cartItemId, Math.min(held.get(print.cartItemId)!, (items.get(print.cartItemId) ?? 0) + line.quantity))
    }
    return [...items].map(([cartItemId, quantity]) => ({ cartItemId, quantity }))
  }
  let changed = false
  const boxes: ShipmentRow[] = []
  for (const seen of state.shipments) {
    const row = await recordShipment(deps, tx, parcel.id, {
      carrier: seen.carrier,
      trackingNumber: seen.number,
      trackingUrl: seen.url,
      items: itemsOf(seen),
      deliveredAt: seen.deliveredAt,
    })
    if (row) boxes.push(row)
  }
  const shipments = await shipmentsOf(tx, [parcel.id])
  const latest = shipments.at(-1)
  const allHeld = shippedQuantityOf({ status: parcel.status, items: parcel.items }, shipments)
  const to: OrderStatus | null = state.to === 'shipped' || (allHeld.of > 0 && allHeld.shipped >= allHeld.of) ? 'shipped' : state.to
  const tracking =
    latest && (latest.trackingNumber !== parcel.trackingNumber || latest.trackingUrl !== parcel.trackingUrl)
      ? { trackingNumber: latest.trackingNumber, trackingUrl: latest.trackingUrl }
      : null
  if (to && to !== parcel.status && (await moveParcel(deps, tx, parcel, parcel.status, to, tracking ?? {}))) changed = true
  else if (tracking) {
    await tx
      .update(orderParcels)
      .set({ ...tracking, updatedAt: now })
      .where(eq(orderParcels.id, parcel.id))
    await syncOrderFromParcels(deps, tx, parcel.orderId)
    changed = true
  }
  const [after] = await tx.select().from(orderParcels).where(eq(orderParcels.id, parcel.id))
  const shippedNow = after!.status === 'shipped' && parcel.status !== 'shipped'
  // One e-mail per shipment; a parcel shipped without any tracking yet still tells the shopper (untracked).
  if (shippedNow && shipments.length === 0) {
    const box = await recordShipment(deps, tx, parcel.id, { carrier: null, trackingNumber: null, trackingUrl: null, items: null })
    if (box) boxes.push(box)
  }
  for (const box of boxes) {
    const upTo = (await shipmentsOf(tx, [parcel.id])).filter((s) => s.position <= box.position)
    const progress = shippedQuantityOf({ status: box.position === latest?.position || !latest ? after!.status : parcel.status, items: parcel.items }, upTo)
    await queueOrderShipped(tx, deps, parcel.id, now, { position: box.position, trackingNumber: box.trackingNumber, trackingUrl: box.trackingUrl, progress })
    changed = true
  }
  return changed
}

// ---------------------------------------------------------------------------------------------
// The webhook

export type PrintifyWebhookResult =
  | { outcome: Exclude<PrintifyWebhookOutcome, 'refused'>; eventId: string; type: string; orderId: string | null }
  | { outcome: 'refused'; error: AppError; type: string | null }

/** Lower-case hex HMAC-SHA256 of the raw body: Printify's `X-Pf-Signature: sha256=<hex>`. */
export function printifySignature(rawBody: string | Buffer, secret: string) {
  return `sha256=${createHmac('sha256', secret).update(rawBody).digest('hex')}`
}

function signatureMatches(header: string | null, rawBody: Buffer, secret: string) {
  if (!header) return false
  const expected = Buffer.from(printifySignature(rawBody, secret))
  const given = Buffer.from(header.trim().toLowerCase())
  return given.length === expected.length && timingSafeEqual(given, expected)
}

const refused = (code: ConstructorParameters<typeof AppError>[0], message: string, type: string | null = null): PrintifyWebhookResult => ({
  outcome: 'refused',
  error: new AppError(code, message),
  type,
})

/**
 * One Printify webhook delivery, start to end: size cap, signature, shape, shop, then the order's move.
 * Every delivery ends in one outcome (decision 043):
 * - refused: too large (413), unsigned or forged (401), not JSON or not an order event (400), another shop (403);
 * - duplicate: this event id was handled before (a redelivery or a replay);
 * - ignored: a well-formed event that changes nothing here (an order we do not know, or a step backward);
 * - applied: the order moved or learnt its tracking.
 * Only `refused` changes nothing by refusing; the others are acknowledged, so Printify stops redelivering.
 */
export async function receivePrintifyWebhook(deps: ApiDeps, request: Request): Promise<PrintifyWebhookResult> {
  const printify = deps.config.printify
  if (!printify?.webhookSecret || deps.print.name !== 'printify') return refused('not_found', 'Printify webhooks are not configured')
  let rawBody: Buffer
  try {
    rawBody = await readBodyCapped(request, MAX_PRINTIFY_WEBHOOK_BYTES, `The webhook body is larger than ${MAX_PRINTIFY_WEBHOOK_BYTES / 1024} KB`)
  } catch (error) {
    if (error instanceof AppError) return { outcome: 'refused', error, type: null }
    throw error
  }
  const header = request.headers.get(PRINTIFY_SIGNATURE_HEADER)
  if (!header) return refused('unauthenticated', 'The webhook has no X-Pf-Signature header')
  if (!signatureMatches(header, rawBody, printify.webhookSecret))
    return refused('unauthenticated', 'The webhook signature does not match its body (X-Pf-Signature is sha256=<hex HMAC-SHA256 of the body>)')

  let event: unknown
  try {
    event = JSON.parse(rawBody.toString('utf8'))
  } catch {
    return refused('validation_failed', 'The webhook body is not valid JSON')
  }
  const problem = eventProblem(event)
  if (problem) return refused('validation_failed', `The webhook is not a Printify order event: ${problem}`)
  const { id: eventId, type, resource } = event as { id: string; type: string; resource: { id: string; data: Record<string, unknown> } }
  const shopId = resource.data.shop_id
  if (String(shopId) !== String(printify.shopId))
    return refused('forbidden', `The webhook is for Printify shop ${String(shopId)}, not this store's shop ${printify.shopId}`, type)

  const providerOrderId = resource.id
  const state = stateOfPrintifyEvent(type, resource.data)
  const skus = await skusForShipments(deps, providerOrderId, state)
  return deps.db.transaction(async (tx) => {
    const [parcel] = await tx
      .select({ id: orderParcels.id, orderId: orderParcels.orderId })
      .from(orderParcels)
      .innerJoin(orders, eq(orders.id, orderParcels.orderId))
      .where(and(eq(orders.provider, 'printify'), eq(orderParcels.providerOrderId, providerOrderId)))
    // An order we do not know (placed in the shop another way, or not yet recorded: the poll catches that) is not kept.
    if (!parcel) return { outcome: 'ignored' as const, eventId, type, orderId: null }
    const recorded = await tx
      .insert(printifyWebhookEvents)
      .values({ eventId, type, providerOrderId, outcome: 'ignored', receivedAt: deps.now() })
      .onConflictDoNothing({ target: printifyWebhookEvents.eventId })
      .returning({ eventId: printifyWebhookEvents.eventId })
    if (recorded.length === 0) return { outcome: 'duplicate' as const, eventId, type, orderId: parcel.orderId }
    const applied = await applyPrintifyState(deps, tx, parcel.id, state, skus)
    if (applied) await tx.update(printifyWebhookEvents).set({ outcome: 'applied' }).where(eq(printifyWebhookEvents.eventId, eventId))
    return { outcome: applied ? ('applied' as const) : ('ignored' as const), eventId, type, orderId: parcel.orderId }
  })
}

/**
 * A shipment event names the SKUs it holds; Printify's order says which line item each SKU is (`metadata.sku`), so
 * for an order of ours it is looked up once, before the transaction. Printify not answering is not a refusal: the
 * shipment is then kept without saying what it holds.
 */
async function skusForShipments(deps: ApiDeps, providerOrderId: string, state: PrintifyState): Promise<PrintifySkus> {
  if (!state.shipments.some((s) => s.skus) || !(deps.print instanceof PrintifyProvider)) return new Map()
  const [ours] = await deps.db
    .select({ id: orderParcels.id, status: orderParcels.status })
    .from(orderParcels)
    .innerJoin(orders, eq(orders.id, orderParcels.orderId))
    .where(and(eq(orders.provider, 'printify'), eq(orderParcels.providerOrderId, providerOrderId)))
  if (!ours || ours.status === 'shipped') return new Map()
  try {
    return skusOf(await deps.print.client.getOrder(providerOrderId))
  } catch (error) {
    if (!(error instanceof PrintProviderError)) throw error
    logger().warn(`[printify] webhook: the SKUs of Printify order ${providerOrderId} could not be looked up: ${error.message}`)
    return new Map()
  }
}

const ID_PATTERN = /^[A-Za-z0-9_-]{1,64}$/

/** What is wrong with a parsed body as `{ id, type, created_at, resource: { id, type: 'order', data: { shop_id, … } } }`, or null. */
function eventProblem(event: unknown): string | null {
  if (!isRecord(event)) return 'the body is not an object'
  if (typeof event.id !== 'string' || !ID_PATTERN.test(event.id)) return '"id" must be the event id'
  if (typeof event.type !== 'string' || !/^order:[a-z:-]{1,60}$/.test(event.type)) return '"type" must be an order topic such as order:updated'
  const resource = event.resource
  if (!isRecord(resource)) return '"resource" must be an object'
  if (resource.type !== 'order') return '"resource.type" must be "order"'
  if (typeof resource.id !== 'string' || !ID_PATTERN.test(resource.id)) return '"resource.id" must be the order id'
  if (!isRecord(resource.data)) return '"resource.data" must be an object'
  const shop = resource.data.shop_id
  if (!(typeof shop === 'number' && Number.isInteger(shop)) && !(typeof shop === 'string' && /^\d{1,20}$/.test(shop)))
    return '"resource.data.shop_id" must be the shop id'
  return null
}

// ---------------------------------------------------------------------------------------------
// The poll

/** Orders looked up per poll run: a backlog is worked off over the next runs, within Printify's rate limit. */
const POLL_BATCH = 50

const pollKey = (now: Date, minutes: number) => `poll-printify-orders:${Math.floor(now.getTime() / (minutes * 60_000))}`

/** Enqueues this period's poll (one per PRINTIFY_POLL_MINUTES, however many processes drain); only with Printify. */
export async function schedulePrintifyPoll(deps: ApiDeps) {
  const minutes = deps.config.printify?.pollMinutes
  if (!minutes || !(deps.print instanceof PrintifyProvider)) return
  const dedupeKey = pollKey(deps.now(), minutes)
  const existing = await deps.db.select({ id: jobs.id }).from(jobs).where(eq(jobs.dedupeKey, dedupeKey))
  if (existing.length > 0) return
  await enqueueJob(deps.db, { kind: 'poll-printify-orders', dedupeKey, payload: {}, runAt: deps.now(), maxAttempts: 3 })
}

/**
 * Looks up each Printify order not heard of for PRINTIFY_POLL_MINUTES that is still on its way (submitted or
 * in production) and applies what Printify answers, as a webhook would. Answers how many moved.
 */
export async function pollPrintifyOrders(deps: ApiDeps): Promise<{ checked: number; moved: number }> {
  const printify = deps.config.printify
  if (!printify || !(deps.print instanceof PrintifyProvider)) return { checked: 0, moved: 0 }
  const client = deps.print.client
  const before = new Date(deps.now().getTime() - printify.pollMinutes * 60_000)
  const stuck = await deps.db
    .select({ id: orderParcels.id, providerOrderId: orderParcels.providerOrderId })
    .from(orderParcels)
    .innerJoin(orders, eq(orders.id, orderParcels.orderId))
    .where(
      and(
        eq(orders.provider, 'printify'),
        inArray(orderParcels.status, ['submitted', 'in_production']),
        isNotNull(orderParcels.providerOrderId),
        lt(orderParcels.updatedAt, before),
      ),
    )
    .orderBy(orderParcels.updatedAt)
    .limit(POLL_BATCH)
  let moved = 0
  for (const parcel of stuck) {
    let detail: PrintifyOrderDetail
    try {
      detail = await client.getOrder(parcel.providerOrderId!)
    } catch (error) {
      // One parcel Printify cannot answer for does not hold up the others; it is looked up again next time.
      if (!(error instanceof PrintProviderError)) throw error
      logger().warn(`[printify] poll: parcel ${parcel.id} (Printify ${parcel.providerOrderId}): ${error.message}`)
      continue
    }
    const state = stateOfPrintifyOrder(detail)
    const applied = await deps.db.transaction((tx) => applyPrintifyState(deps, tx, parcel.id, state, skusOf(detail)))
    if (applied) moved++
    else await deps.db.update(orderParcels).set({ updatedAt: deps.now() }).where(eq(orderParcels.id, parcel.id)) // looked at: next in line after the others
  }
  return { checked: stuck.length, moved }
}

export const printifyOrderJobs: JobHandlers = {
  'poll-printify-orders': {
    run: async (deps) => {
      const { checked, moved } = await pollPrintifyOrders(deps)
      if (checked > 0) logger().info(`[printify] poll: looked up ${checked} order(s) not heard of lately; ${moved} moved`)
    },
  },
}
