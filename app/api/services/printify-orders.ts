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
import { moveParcel, syncOrderFromParcels } from './fulfilment'
import type { JobHandlers } from './jobs'
import { enqueueJob } from './jobs'
import { queueOrderShipped } from './order-emails'

/** A webhook body larger than this is refused (413) before it is read further: Printify's order events are a few KB. */
export const MAX_PRINTIFY_WEBHOOK_BYTES = 64 * 1024
export const PRINTIFY_SIGNATURE_HEADER = 'x-pf-signature'

/** What became of one webhook delivery: the one value a counter of webhook events by outcome needs. */
export type PrintifyWebhookOutcome = 'applied' | 'duplicate' | 'ignored' | 'refused'

/** Where Printify says an order is, in our words: a target state (or none) and the shipment's tracking. */
export type PrintifyState = {
  to: 'in_production' | 'shipped' | 'canceled' | null
  tracking: { number: string | null; url: string | null } | null
}

type Tx = Parameters<Parameters<Database['transaction']>[0]>[0]

// ---------------------------------------------------------------------------------------------
// From Printify's words to ours

/** Printify's order statuses (pending, on-hold, sending-to-production, in-production, has-issues, fulfilled, …). */
function targetOfStatus(status: unknown): PrintifyState['to'] {
  switch (status) {
    case 'in-production':
      return 'in_production'
    case 'fulfilled':
    case 'partially-fulfilled':
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

function targetOfTopic(type: string): PrintifyState['to'] {
  if (type === 'order:sent-to-production') return 'in_production'
  if (type === 'order:shipment:created' || type === 'order:shipment:delivered') return 'shipped'
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

/**
 * The tracking of an order's latest shipment. Printify sends it two ways: an order's `shipments` list
 * (`{ carrier, number, url }`, on the order and on order events) and a shipment event's `carrier`
 * (`{ code, tracking_number, tracking_url }`).
 */
function trackingOf(data: Record<string, unknown>): PrintifyState['tracking'] {
  const carrier = data.carrier
  if (isRecord(carrier)) {
    const number = text(carrier.tracking_number) ?? text(carrier.number)
    const url = text(carrier.tracking_url) ?? text(carrier.url)
    if (number || url) return { number, url }
  }
  const shipments = Array.isArray(data.shipments) ? data.shipments.filter(isRecord) : []
  for (const shipment of shipments.reverse()) {
    const number = text(shipment.number) ?? text(shipment.tracking_number)
    const url = text(shipment.url) ?? text(shipment.tracking_url)
    if (number || url) return { number, url: url && /^https?:\/\//i.test(url) ? url : null }
  }
  return null
}

/** An order as Printify answers it (the poll). */
export function stateOfPrintifyOrder(order: PrintifyOrderDetail): PrintifyState {
  const data = order as unknown as Record<string, unknown>
  const tracking = trackingOf(data)
  return { to: further(targetOfStatus(order.status), tracking ? 'shipped' : null), tracking }
}

/** An order event as Printify sends it: its topic, the order's status and any shipment. */
export function stateOfPrintifyEvent(type: string, data: Record<string, unknown>): PrintifyState {
  const tracking = trackingOf(data)
  return { to: further(further(targetOfTopic(type), targetOfStatus(data.status)), tracking ? 'shipped' : null), tracking }
}

// ---------------------------------------------------------------------------------------------
// The one place a Printify order changes

/**
 * Moves one of our Printify orders toward `state`, forward only: submitted → in production → shipped, and to
 * canceled only before it shipped. Shipping records the tracking and queues the shipping e-mail in the same
 * transaction (once: the e-mail's reference is unique). An order already shipped without tracking learns it.
 * Answers whether anything changed.
 */
export async function applyPrintifyState(deps: ApiDeps, tx: Tx, parcelId: string, state: PrintifyState): Promise<boolean> {
  const [parcel] = await tx.select().from(orderParcels).where(eq(orderParcels.id, parcelId)).for('update')
  if (!parcel) return false
  const [order] = await tx.select({ provider: orders.provider }).from(orders).where(eq(orders.id, parcel.orderId))
  if (order?.provider !== 'printify') return false
  const now = deps.now()
  const tracking = state.tracking
  if (state.to === null) return false
  if (parcel.status === state.to) {
    // Already there; a later event may still bring the tracking the first one lacked.
    if (state.to !== 'shipped' || !tracking || parcel.trackingNumber || parcel.trackingUrl) return false
    await tx.update(orderParcels).set({ trackingNumber: tracking.number, trackingUrl: tracking.url, updatedAt: now }).where(eq(orderParcels.id, parcel.id))
    await syncOrderFromParcels(deps, tx, parcel.orderId)
    return true
  }
  const set: Partial<typeof orderParcels.$inferInsert> = {}
  if (state.to === 'shipped' && tracking) Object.assign(set, { trackingNumber: tracking.number, trackingUrl: tracking.url })
  if (!(await moveParcel(deps, tx, parcel, parcel.status, state.to as OrderStatus, set))) return false
  if (state.to === 'shipped') await queueOrderShipped(tx, deps, parcel.id, now)
  return true
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
    const applied = await applyPrintifyState(deps, tx, parcel.id, state)
    if (applied) await tx.update(printifyWebhookEvents).set({ outcome: 'applied' }).where(eq(printifyWebhookEvents.eventId, eventId))
    return { outcome: applied ? ('applied' as const) : ('ignored' as const), eventId, type, orderId: parcel.orderId }
  })
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
    const applied = await deps.db.transaction((tx) => applyPrintifyState(deps, tx, parcel.id, state))
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
