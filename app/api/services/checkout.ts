/**
 * Checkout sessions and fulfilment (SPEC.md §4, §7). A session freezes the cart's lines and totals;
 * `fulfilCheckout` turns a paid session into exactly one order, whoever calls it first (the webhook,
 * the return page, the local checkout page) and however often.
 *
 * What paying does depends on the session's purpose: a cart session becomes an order (`cartCheckout`,
 * below), an e-gift session issues the gift (egifts.ts). Each purpose's handler is registered at
 * start-up (services/handlers.ts, from createApi), so this module imports none of the things a
 * session can pay for (docs/decisions/025-purpose-handlers.md).
 */
import { logger } from '../../observability/log'
import { metrics } from '../../observability/metrics'
import { formatCents } from '../../catalogue/currency'
import { randomBytes, randomUUID } from 'node:crypto'
import { and, asc, desc, eq, inArray } from 'drizzle-orm'
import {
  LOCAL_TEST_CARDS,
  type CartTotals,
  type CheckoutLine,
  type CheckoutSession,
  type CheckoutSessionStatus,
  type Order,
  type OrderParcel,
  type SessionParcel,
  type ShippingAddress,
} from '../../contract/cart'
import { canMove, checkoutSessionTransitions } from './cart-states'
import { OWN_PARCEL, toCents, withProviderTax, withSalesTax } from '../../catalogue/pricing'
import { arrivesBy, businessDaysOf, DEFAULT_SHIPPING_METHOD, shippingMethods } from '../../catalogue/shipping'
import type { Database } from '../db/client'
import { cartItems, carts, checkoutSessions, orderParcels, orders, previews, savedAddresses } from '../db/schema'
import type { ApiDeps, SessionUser } from '../env'
import { AppError, notFound } from '../errors'
import { PaymentProviderError, type PaymentLine, type PaymentState } from '../providers/payments/provider'
import { STRIPE_NONTAXABLE_TAX_CODE as NONTAXABLE_TAX_CODE } from '../providers/payments/stripe'
import { cartItemsOf, cartPlan, estimatedTaxDestination, moveCart, openCart } from './cart'
import { entryAddress, planQuotes, planSignature, planTotals, refuseUnshippable, sessionParcelsOf, type PlannedParcel } from './parcel-plans'
import { shippingQuoterFor } from './shipping-quotes'
import { creditForCart, creditGranted, lockAccount, lockSession, releaseCredit, reserveCredit, restoreCreditForRefund, spendCredit, type Db } from './credit'
import { parcelShipping, parcelsOf, queueParcelSubmission, queueProviderCancel, shipmentsOf, type ShipmentRow } from './fulfilment'
import { queueOrderConfirmation } from './order-emails'
import { approveReferralFor, voidRewardForOrder } from './referral'
import { crashPoint } from '../crash-points'
import { enforceRateLimits, type RateLimitRule } from '../rate-limit'
import { ADDRESS_CHANGED_MESSAGE, CART_CHANGED_MESSAGE, CREDIT_CHANGED_MESSAGE } from '../../catalogue/cart-terms'

type SessionRow = typeof checkoutSessions.$inferSelect
type OrderRow = typeof orders.$inferSelect
export type CheckoutPurpose = SessionRow['purpose']

/** What a session of one purpose does when it is paid for, and when it ends unpaid. */
export type CheckoutPurposeHandler = {
  /**
   * The session was paid: called once, in fulfilCheckout's transaction with the session row locked
   * and no order made for it yet. Answers the order it made, or null when the purpose makes none.
   */
  fulfil(tx: Db, deps: ApiDeps, session: SessionRow, now: Date): Promise<OrderRow | null>
  /** The session expired or failed unpaid (its reserved credit is released already). */
  ended?(db: Database, session: SessionRow, at: Date): Promise<void>
}

let purposeHandlers: Partial<Record<CheckoutPurpose, CheckoutPurposeHandler>> = {}

/** Start-up (services/handlers.ts): one handler for every purpose; a second call replaces the first. */
export function registerCheckoutPurposes(handlers: Record<CheckoutPurpose, CheckoutPurposeHandler>) {
  purposeHandlers = { ...handlers }
}

function purposeHandler(purpose: CheckoutPurpose): CheckoutPurposeHandler {
  const handler = purposeHandlers[purpose]
  if (!handler) throw new Error(`No handler for checkout sessions of purpose '${purpose}': createApi registers them (services/handlers.ts)`)
  return handler
}

/** Why a new checkout ended at once: the shopper had just paid the one it would have replaced. */
const EARLIER_CHECKOUT_PAID = 'An earlier checkout of this cart was paid meanwhile, so this one was closed; your order is in Orders'

/** A checkout session can be paid for this long (Stripe allows 30 minutes to 24 hours). */
export const CHECKOUT_SESSION_MINUTES = 60

export function sessionView(row: SessionRow, orderId: string | null): CheckoutSession {
  return {
    id: row.id,
    purpose: row.purpose,
    cartId: row.cartId,
    provider: row.provider,
    status: row.status,
    url: row.url,
    lines: row.lines,
    totals: row.totals,
    arrivesBy: row.arrivesBy,
    parcels: (row.parcels ?? []).map((p) => ({
      key: p.key,
      label: p.label,
      city: p.shippingAddress?.city ?? null,
      state: p.shippingAddress?.state ?? null,
      shippingMethod: p.shippingMethod,
      arrivesBy: p.arrivesBy,
      itemCount: p.items.reduce((n, i) => n + i.quantity, 0),
    })),
    orderId,
    lastError: row.lastError,
    expiresAt: row.expiresAt.toISOString(),
    createdAt: row.createdAt.toISOString(),
  }
}

type ParcelRow = typeof orderParcels.$inferSelect

function parcelView(row: ParcelRow, shipments: ShipmentRow[]): OrderParcel {
  return {
    id: row.id,
    position: row.position,
    addressId: row.addressId,
    label: row.label,
    shippingAddress: row.shippingAddress ?? null,
    shippingMethod: row.shippingMethod,
    arrivesBy: row.arrivesBy,
    items: row.items,
    giftMessage: row.giftMessage,
    recipientEmail: row.recipientEmail,
    status: row.status,
    trackingNumber: row.trackingNumber,
    trackingUrl: row.trackingUrl,
    sentToProductionAt: row.sentToProductionAt?.toISOString() ?? null,
    ...parcelShipping(
      row,
      shipments.filter((s) => s.parcelId === row.id),
    ),
  }
}

export function orderView(row: OrderRow, parcels: ParcelRow[], shipments: ShipmentRow[]): Order {
  return {
    id: row.id,
    reference: row.reference,
    status: row.status,
    checkoutSessionId: row.checkoutSessionId,
    lines: row.lines,
    totals: row.totals,
    shippingAddress: row.shippingAddress ?? null,
    arrivesBy: row.arrivesBy,
    provider: row.provider,
    providerOrderId: row.providerOrderId,
    trackingNumber: row.trackingNumber,
    trackingUrl: row.trackingUrl,
    parcels: parcels.map((p) => parcelView(p, shipments)),
    chargedCents: row.chargedCents ?? null,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  }
}

async function orderIdOf(db: Database, sessionId: string) {
  const [order] = await db.select({ id: orders.id }).from(orders).where(eq(orders.checkoutSessionId, sessionId))
  return order?.id ?? null
}

const providerFailed = (error: unknown): never => {
  if (error instanceof PaymentProviderError) throw new AppError('provider_failed', `The payment provider could not be reached: ${error.message}`)
  throw error
}

/** The cart's open sessions (read under the shopper's account lock, so none is being inserted meanwhile). */
function openSessionsOf(db: Database, cartId: string) {
  return db
    .select()
    .from(checkoutSessions)
    .where(and(eq(checkoutSessions.cartId, cartId), eq(checkoutSessions.status, 'open')))
}

/**
 * Ends an open session at the provider. Answers null when it ended there, or the provider's state when
 * the shopper completed it meanwhile (paid, webhook not yet arrived): that payment is the caller's to keep.
 */
async function expireAtProvider(deps: ApiDeps, row: SessionRow): Promise<PaymentState | null> {
  if (!row.providerSessionId) return null
  try {
    await deps.payments.expireSession(row.providerSessionId)
    return null
  } catch (error) {
    if (!(error instanceof PaymentProviderError && error.status === 409)) return providerFailed(error)
    return deps.payments.retrieveSession(row.providerSessionId).catch(providerFailed)
  }
}

/**
 * Ends an open session at the provider and here. A session the provider says was completed meanwhile
 * is not ended: its state is applied instead, so the payment is kept.
 */
async function endSession(deps: ApiDeps, row: SessionRow, reason: string | null = null): Promise<SessionRow> {
  const completed = await expireAtProvider(deps, row)
  if (completed) return applyPaymentState(deps, row, completed)
  return moveSession(deps.db, row, 'expired', { at: deps.now(), ...(reason ? { lastError: reason } : {}) })
}

/**
 * The cart changed (a line added, removed or its quantity changed): a checkout opened before no longer
 * pays for what the cart holds, so it is closed and its credit released (issue 15, bug 9). Its page
 * then says why and offers the new total. A session paid meanwhile keeps its payment (endSession), and is answered
 * (`paidMeanwhile`): the change is not in that order (issue 43, item 8).
 */
export async function closeCheckoutsOfChangedCart(deps: ApiDeps, cartId: string): Promise<{ paidMeanwhile: boolean }> {
  let paidMeanwhile = false
  for (const row of await openSessionsOf(deps.db, cartId)) {
    if ((await endSession(deps, row, CART_CHANGED_MESSAGE)).status === 'paid') paidMeanwhile = true
  }
  return { paidMeanwhile }
}

/**
 * The shopper's store credit grew (issue 29, bug 1): a cart checkout priced before it holds less credit
 * than the cart may now use, so it would charge more than the cart shows. It is closed like a changed
 * cart's, and its page says why and offers the new total.
 */
export async function closeCheckoutsOfChangedCredit(deps: ApiDeps, userId: string) {
  const open = await deps.db
    .select()
    .from(checkoutSessions)
    .where(and(eq(checkoutSessions.userId, userId), eq(checkoutSessions.purpose, 'cart'), eq(checkoutSessions.status, 'open')))
  for (const row of open) {
    const [[cart], credit] = await Promise.all([deps.db.select().from(carts).where(eq(carts.id, row.cartId!)), creditForCart(deps.db, userId, row.cartId!)])
    if (!cart) continue
    const { rows, plan } = await cartPlan(deps.db, cart)
    const quotes = await planQuotes(shippingQuoterFor(deps), plan, rows, null)
    if (planTotals(plan, rows, credit, null, true, quotes).creditsCents !== row.totals.creditsCents) await endSession(deps, row, CREDIT_CHANGED_MESSAGE)
  }
}

/** The fields of a parcel's address the checkout ships to (and, with Stripe, taxed for); the entry's name in the book is not one. */
const shippedFields = ['name', 'email', 'phone', 'line1', 'line2', 'city', 'state', 'postalCode', 'country'] as const

/**
 * An address book entry was changed or removed (issue 42, item 4): a checkout opened before, with a parcel to it, keeps
 * the address as it was, so it would ship there and (with Stripe) be taxed for its state. It is closed as a changed
 * cart's is (endSession, at the provider and here), and its page says why and offers the cart again. Checkouts whose
 * parcels do not go to the entry, or only to a new name for it, stay open.
 */
export async function closeCheckoutsOfChangedAddress(deps: ApiDeps, user: SessionUser, addressId: string) {
  const [open, [entry]] = await Promise.all([
    deps.db
      .select()
      .from(checkoutSessions)
      .where(and(eq(checkoutSessions.userId, user.id), eq(checkoutSessions.purpose, 'cart'), eq(checkoutSessions.status, 'open'))),
    deps.db
      .select()
      .from(savedAddresses)
      .where(and(eq(savedAddresses.id, addressId), eq(savedAddresses.userId, user.id))),
  ])
  for (const row of open) {
    const parcel = row.parcels?.find((p) => p.addressId === addressId)
    if (!parcel) continue
    const now = entry ? entryAddress(entry, user.email) : null
    const was = parcel.shippingAddress
    if (now && was && shippedFields.every((field) => now[field] === was[field])) continue
    await endSession(deps, row, ADDRESS_CHANGED_MESSAGE)
  }
}

/**
 * True when the session's lines are no longer the cart's: another line, another quantity, or one gone; or, for a
 * session that keeps parcels, any parcel different (its lines, method, message, recipient or address).
 */
async function cartDiffersFrom(db: Database, row: SessionRow) {
  if (row.purpose !== 'cart' || !row.cartId) return false
  if (row.parcels) {
    const [cart] = await db.select().from(carts).where(eq(carts.id, row.cartId))
    if (!cart) return true
    const { plan } = await cartPlan(db, cart)
    return planSignature(sessionParcelsOf(plan, '', () => '')) !== planSignature(row.parcels)
  }
  const [items, [cart]] = await Promise.all([
    cartItemsOf(db, row.cartId),
    db.select({ shippingMethod: carts.shippingMethod }).from(carts).where(eq(carts.id, row.cartId)),
  ])
  const now = new Map(items.map((i) => [i.id, i.quantity]))
  if (cart && cart.shippingMethod !== (row.totals.shippingMethod ?? DEFAULT_SHIPPING_METHOD)) return true
  return now.size !== row.lines.length || row.lines.some((l) => now.get(l.cartItemId) !== l.quantity)
}

/**
 * Starting a checkout is a costly write (issue 42, item 15): with Stripe and ten parcels it makes about 13 Stripe calls
 * (the session, a tax calculation per parcel, the expiry of the one it replaces). Limited per shopper, as e-gift purchases are.
 */
export const checkoutRateLimits = {
  sessionsPerUser: { name: 'checkout-session-user', limit: 30, windowMs: 3600_000, whenStoreDown: 'open' },
} satisfies Record<string, RateLimitRule>

export async function createCheckoutSession(deps: ApiDeps, user: SessionUser, timeZone: string): Promise<CheckoutSession> {
  const now = deps.now()
  await enforceRateLimits(deps.rateLimiter, [{ rule: checkoutRateLimits.sessionsPerUser, key: user.id }], now, 'Too many checkouts started')
  const { cart, rows, plan } = await deps.db.transaction(async (tx) => {
    let cart = await openCart(tx, user.id, { lock: true })
    const { rows, plan } = await cartPlan(tx, cart)
    if (rows.length === 0) throw new AppError('rule_broken', 'Your cart is empty; add an ornament before checking out')
    if (cart.status === 'abandoned') cart = await moveCart(tx, cart, 'active', now)
    return { cart, rows, plan }
  })
  // Until the payment page has the address, the tax is the cart's estimate; paying replaces it (chargedTotals).
  const taxEstimate = await estimatedTaxDestination(deps.db, user.id)
  // The provider's shipping quotes, asked before anything is written (decision 072): a parcel whose method it no
  // longer ships is refused here, the cart and its checkouts as they were.
  const quotes = await planQuotes(shippingQuoterFor(deps), plan, rows, taxEstimate)
  refuseUnshippable(plan, quotes)

  const lines: CheckoutLine[] = rows.map((r) => ({
    cartItemId: r.id,
    title: r.metadata.title,
    variantId: r.metadata.variantId,
    quantity: r.quantity,
    unitAmountCents: Math.min(toCents(r.metadata.salePrice), toCents(r.metadata.price)),
    unitListAmountCents: toCents(r.metadata.price),
    previewCdnUrl: r.metadata.previewCdnUrl,
    ...(r.metadata.text ? { text: r.metadata.text } : {}),
  }))
  const id = randomUUID()
  const expiresAt = new Date(now.getTime() + CHECKOUT_SESSION_MINUTES * 60_000)
  const superseded = () => new AppError('conflict', 'A newer checkout of this cart was started at the same time; continue with that one')
  // One cart, one payable session (issue 15, bug 15): under the account lock, the sessions already
  // open for this cart are read and this one inserted, so of simultaneous requests each ends exactly
  // those made before it, and the last one made is the one left open.
  const { row: made, older } = await deps.db.transaction(async (tx) => {
    await lockAccount(tx, user.id)
    const older = await openSessionsOf(tx as unknown as Database, cart.id)
    const [inserted] = await tx
      .insert(checkoutSessions)
      .values({
        id,
        userId: user.id,
        cartId: cart.id,
        provider: deps.payments.name,
        lines,
        previewIds: Object.fromEntries(rows.map((r) => [r.id, r.previewId])),
        // Priced below, once the sessions it replaces have given their credit back. The parcels to address book
        // entries are taxed for their state already: their address is known and will not change.
        totals: planTotals(plan, rows, 0, taxEstimate, false, quotes),
        arrivesBy: arrivesBy(cart.shippingMethod, now, timeZone),
        parcels: sessionParcelsOf(plan, user.email, (method) => arrivesBy(method, now, timeZone)),
        expiresAt,
        createdAt: now,
        updatedAt: now,
      })
      .returning()
    return { row: inserted!, older }
  })
  let row = made
  const completed: [SessionRow, PaymentState][] = []
  try {
    for (const stale of older) {
      const state = await expireAtProvider(deps, stale)
      if (state) completed.push([stale, state])
      else await moveSession(deps.db, stale, 'expired', { at: deps.now() })
    }
  } catch (error) {
    await moveSession(deps.db, row, 'expired', { at: deps.now(), lastError: error instanceof Error ? error.message : String(error) })
    throw error
  }
  if (completed.length > 0) {
    // The shopper paid an earlier checkout of this cart meanwhile: that payment is kept, and this one is not needed.
    await moveSession(deps.db, row, 'expired', { at: deps.now(), lastError: EARLIER_CHECKOUT_PAID })
    for (const [stale, state] of completed) await applyPaymentState(deps, stale, state)
    throw new AppError('conflict', EARLIER_CHECKOUT_PAID)
  }

  // Priced now (issue 29, bug 1): the sessions it replaced have released their credit, so the shopper's
  // store credit is held for this one, as much as the cart may use. Session row, then account: the
  // order in which releasing and spending lock them too. A session a newer checkout ended meanwhile
  // holds nothing; that newer one holds the credit.
  row = await deps.db.transaction(async (tx) => {
    const current = await lockSession(tx, id)
    if (current?.status !== 'open') throw superseded()
    await lockAccount(tx, user.id)
    const totals = planTotals(plan, rows, await creditForCart(tx, user.id, cart.id), taxEstimate, false, quotes)
    const [priced] = await tx.update(checkoutSessions).set({ totals }).where(eq(checkoutSessions.id, id)).returning()
    await reserveCredit(tx, { id, userId: user.id, creditsCents: totals.creditsCents }, deps.now())
    return priced!
  })

  const base = deps.config.publicUrl
  let atProvider
  try {
    row = await taxParcelsAtProvider(deps, row, plan)
    const totals = row.totals
    atProvider = await deps.payments.createSession({
      checkoutSessionId: id,
      cartId: cart.id,
      customerEmail: user.email,
      lines: paymentLines(deps, lines, plan, totals),
      shippingCents: totals.parcels.find((p) => p.key === OWN_PARCEL)?.shippingCents ?? 0,
      shippingMethod: { label: shippingMethods[cart.shippingMethod].label, businessDays: businessDaysOf(cart.shippingMethod) },
      discountCents: totals.creditsCents + totals.bundleSavingsCents,
      automaticTax: true,
      successUrl: `${base}/photo-products/checkout/complete?checkout=${id}&session_id={CHECKOUT_SESSION_ID}`,
      cancelUrl: `${base}/photo-products/cart?cancelled=${id}`,
      expiresAt,
      idempotencyKey: `checkout-session:${id}`,
    })
  } catch (error) {
    await moveSession(deps.db, row, 'expired', { at: deps.now(), lastError: error instanceof Error ? error.message : String(error) })
    return providerFailed(error)
  }
  const [updated] = await deps.db
    .update(checkoutSessions)
    .set({ providerSessionId: atProvider.providerSessionId, url: atProvider.url })
    .where(and(eq(checkoutSessions.id, id), eq(checkoutSessions.status, 'open')))
    .returning()
  if (!updated) {
    // A newer checkout of this cart ended this one while the provider made it: nobody has its URL yet, so end it there too.
    await deps.payments.expireSession(atProvider.providerSessionId).catch(() => {})
    await deps.db.update(checkoutSessions).set({ providerSessionId: atProvider.providerSessionId }).where(eq(checkoutSessions.id, id))
    throw superseded()
  }
  return sessionView(updated, null)
}

/**
 * With a payment provider that computes tax (Stripe Tax), the parcels to address book entries are taxed by it for
 * their address (its tax calculations), in place of the state table: the payment page collects one address, the
 * shopper's own, and taxes only that parcel itself (decision 055).
 */
async function taxParcelsAtProvider(deps: ApiDeps, row: SessionRow, plan: PlannedParcel[]): Promise<SessionRow> {
  const calculate = deps.payments.calculateTax?.bind(deps.payments)
  if (!calculate || plan.every((p) => !p.entry)) return row
  let totals = row.totals
  for (const parcel of plan) {
    const money = totals.parcels.find((p) => p.key === parcel.key)
    if (!parcel.entry || !money) continue
    const e = parcel.entry
    const { taxCents } = await calculate({
      address: { line1: e.line1, ...(e.line2 ? { line2: e.line2 } : {}), city: e.city, state: e.state, postalCode: e.postalCode, country: 'US' },
      lines: [{ reference: `parcel:${parcel.key}`, amountCents: money.goodsCents - money.creditsCents, quantity: 1 }],
      shippingCents: money.shippingCents,
      idempotencyKey: `checkout-tax:${row.id}:${parcel.key}`,
    })
    totals = withProviderTax(totals, e.state, taxCents, parcel.key)
  }
  const [taxed] = await deps.db.update(checkoutSessions).set({ totals }).where(eq(checkoutSessions.id, row.id)).returning()
  return taxed!
}

/**
 * What the payment page lists: the shopper's own parcel's ornaments (taxed by the page for the address it
 * collects), then each other parcel's ornaments, shipping and tax, as lines the page must not tax again.
 */
function paymentLines(deps: ApiDeps, lines: CheckoutLine[], plan: PlannedParcel[], totals: CartTotals): PaymentLine[] {
  const lineOf = new Map(lines.map((l) => [l.cartItemId, l]))
  return plan.flatMap((parcel) => {
    const to = parcel.entry ? ` · to ${parcel.entry.label}` : ''
    const untaxed = parcel.entry ? { taxCode: NONTAXABLE_TAX_CODE } : {}
    const goods = parcel.items.map((item) => {
      const l = lineOf.get(item.cartItemId)!
      return {
        name: `${l.title} (pair)${to}`,
        unitAmountCents: l.unitAmountCents,
        quantity: item.quantity,
        imageUrl: l.previewCdnUrl && deps.media.absolute(l.previewCdnUrl),
        ...untaxed,
      }
    })
    const money = totals.parcels.find((p) => p.key === parcel.key)
    if (!parcel.entry || !money) return goods
    return [
      ...goods,
      ...(money.shippingCents > 0
        ? [{ name: `${shippingMethods[parcel.shippingMethod].label} shipping${to}`, unitAmountCents: money.shippingCents, quantity: 1, ...untaxed }]
        : []),
      ...(money.taxCents > 0 ? [{ name: `Sales tax (${parcel.entry.state})${to}`, unitAmountCents: money.taxCents, quantity: 1, ...untaxed }] : []),
    ]
  })
}

/** Moves a session forward only (cart-states.ts); answers the row as it is afterwards. */
async function moveSession(
  db: Database,
  row: SessionRow,
  to: CheckoutSessionStatus,
  {
    at,
    shippingAddress,
    lastError,
    totals,
    chargedCents,
  }: { at: Date; shippingAddress?: ShippingAddress | null; lastError?: string | null; totals?: CartTotals; chargedCents?: number | null },
): Promise<SessionRow> {
  const from = (Object.keys(checkoutSessionTransitions) as CheckoutSessionStatus[]).filter((s) => canMove(checkoutSessionTransitions, s, to))
  const [moved] = await db
    .update(checkoutSessions)
    .set({
      status: to,
      updatedAt: at,
      ...(shippingAddress ? { shippingAddress } : {}),
      ...(totals ? { totals } : {}),
      ...(typeof chargedCents === 'number' ? { chargedCents } : {}),
      ...(lastError !== undefined ? { lastError } : {}),
    })
    .where(and(eq(checkoutSessions.id, row.id), inArray(checkoutSessions.status, from)))
    .returning()
  if (moved) {
    // Each session ends once (the move is conditional), so each is counted once (decision 045).
    if (to === 'paid' || to === 'failed' || to === 'expired') metrics().payments.inc({ provider: moved.provider, outcome: to })
    if (to === 'expired' || to === 'failed') {
      await releaseCredit(db, moved.id, at)
      await purposeHandler(moved.purpose).ended?.(db, moved, at)
    }
    return moved
  }
  const [current] = await db.select().from(checkoutSessions).where(eq(checkoutSessions.id, row.id))
  return current!
}

/**
 * What a cart session charges once the payment page has the shipping address: its totals with the sales tax
 * where the goods go, the tax Stripe Tax charged when Stripe computed it, else the state table's (decision
 * 052). Undefined when nothing changes (an e-gift ships nowhere; no address known).
 */
function chargedTotals(row: Pick<SessionRow, 'purpose' | 'totals'>, address: ShippingAddress | null | undefined, providerTaxCents?: number | null) {
  if (row.purpose !== 'cart' || !address) return undefined
  if (typeof providerTaxCents === 'number') return withProviderTax(row.totals, address.state, providerTaxCents)
  return withSalesTax(row.totals, { state: address.state, estimated: false })
}

/**
 * Applies what the payment provider says about a session (webhook or a fresh retrieve): forward
 * moves only, then fulfil when paid; an expired session leaves its cart abandoned. What the provider says
 * it charged is kept beside the totals (never in place of them: chargedTotals decides those), for the order
 * to be held against (cartCheckout).
 */
export async function applyPaymentState(deps: ApiDeps, row: SessionRow, state: PaymentState) {
  let current = row
  if (state.status !== row.status && canMove(checkoutSessionTransitions, row.status, state.status)) {
    const paying = state.status === 'paid' || state.status === 'processing'
    current = await moveSession(deps.db, row, state.status, {
      at: deps.now(),
      shippingAddress: state.shippingAddress,
      totals: paying ? chargedTotals(row, state.shippingAddress, state.taxCents) : undefined,
      chargedCents: paying ? state.amountTotalCents : null,
    })
    if (current.status === 'expired') await abandonCartOf(deps, current)
  }
  if (current.status === 'paid') await fulfilCheckout(deps, current.id)
  return current
}

async function abandonCartOf(deps: ApiDeps, row: SessionRow) {
  const cartId = row.cartId
  if (!cartId) return
  await deps.db.transaction(async (tx) => {
    const [cart] = await tx.select().from(carts).where(eq(carts.id, cartId)).for('update')
    if (cart?.status === 'active') await moveCart(tx, cart, 'abandoned', deps.now())
  })
}

async function ownSession(deps: ApiDeps, user: SessionUser, id: string) {
  const [row] = await deps.db
    .select()
    .from(checkoutSessions)
    .where(and(eq(checkoutSessions.id, id), eq(checkoutSessions.userId, user.id)))
  if (!row) throw notFound('Checkout session')
  return row
}

/** GET: the session as it is now, asking the provider while payment is pending and fulfilling when paid. */
export async function getCheckoutSession(deps: ApiDeps, user: SessionUser, id: string): Promise<CheckoutSession> {
  let row = await ownSession(deps, user, id)
  if ((row.status === 'open' || row.status === 'processing') && row.providerSessionId) {
    if (row.provider === 'local' && row.status === 'open' && row.expiresAt <= deps.now()) {
      row = await applyPaymentState(deps, row, { status: 'expired', shippingAddress: null, amountTotalCents: null })
    } else if (row.provider === 'stripe') {
      const state = await deps.payments.retrieveSession(row.providerSessionId).catch(providerFailed)
      row = await applyPaymentState(deps, row, state)
    }
  }
  if (row.status === 'paid') await fulfilCheckout(deps, row.id)
  return sessionView(row, await orderIdOf(deps.db, row.id))
}

/** The shopper cancelled (or came back from) checkout: the session ends and the cart is abandoned until they resume it. */
export async function cancelCheckoutSession(deps: ApiDeps, user: SessionUser, id: string): Promise<CheckoutSession> {
  let row = await ownSession(deps, user, id)
  if (row.status === 'open') {
    row = await endSession(deps, row)
    if (row.status === 'expired') await abandonCartOf(deps, row)
  }
  if (row.status === 'paid' || row.status === 'processing') throw new AppError('conflict', 'This checkout has been paid and cannot be cancelled')
  return sessionView(row, await orderIdOf(deps.db, row.id))
}

/** The local hosted checkout page's Pay button: test cards only. */
export async function payLocalCheckout(
  deps: ApiDeps,
  user: SessionUser,
  id: string,
  input: { cardNumber: string; shippingAddress?: ShippingAddress | undefined },
) {
  let row = await ownSession(deps, user, id)
  if (row.provider !== 'local') throw notFound('Checkout session')
  if (row.purpose === 'cart' && !input.shippingAddress) {
    throw new AppError('validation_failed', 'Enter the address to ship your ornaments to', [{ path: 'body.shippingAddress', message: 'Required' }])
  }
  if (row.status === 'paid') return sessionView(row, await fulfilCheckout(deps, row.id).then((o) => o?.id ?? null))
  if (row.status === 'open' && row.expiresAt <= deps.now()) {
    row = await applyPaymentState(deps, row, { status: 'expired', shippingAddress: null, amountTotalCents: null })
  }
  if (row.status !== 'open') throw new AppError('conflict', 'This checkout has ended; go back to your cart to start again')
  // A session made while the cart was being edited can hold the lines from before the edit.
  if (await cartDiffersFrom(deps.db, row)) {
    await endSession(deps, row, CART_CHANGED_MESSAGE)
    throw new AppError('conflict', CART_CHANGED_MESSAGE)
  }
  if (input.cardNumber === LOCAL_TEST_CARDS.declined) {
    const message = 'Your card was declined. Try another card; nothing was charged.'
    await deps.db.update(checkoutSessions).set({ lastError: message, updatedAt: deps.now() }).where(eq(checkoutSessions.id, id))
    metrics().payments.inc({ provider: row.provider, outcome: 'declined' })
    throw new AppError('payment_declined', message)
  }
  if (input.cardNumber !== LOCAL_TEST_CARDS.succeeds) {
    throw new AppError('validation_failed', 'This test checkout takes the test cards 4242 4242 4242 4242 (succeeds) and 4000 0000 0000 0002 (declined)', [
      { path: 'body.cardNumber', message: 'Use a test card' },
    ])
  }
  // Paid with the cart locked, after the session's row (the order fulfilCheckout locks them in): a change to the cart
  // (cartToChange locks it too) is before this payment, and ends it as changed, or after it, and is refused (issue 43, item 8).
  const payment = await deps.db.transaction(async (tx) => {
    const current = (await lockSession(tx, row.id)) ?? row
    if (current.cartId) await tx.select({ id: carts.id }).from(carts).where(eq(carts.id, current.cartId)).for('update')
    if (current.status !== 'open') return { row: current, cartChanged: false }
    if (await cartDiffersFrom(tx as unknown as Database, current)) return { row: current, cartChanged: true }
    const paid = await moveSession(tx as unknown as Database, current, 'paid', {
      at: deps.now(),
      shippingAddress: current.purpose === 'cart' ? input.shippingAddress : null,
      totals: chargedTotals(current, input.shippingAddress),
      lastError: null,
    })
    return { row: paid, cartChanged: false }
  })
  if (payment.cartChanged) {
    await endSession(deps, payment.row, CART_CHANGED_MESSAGE)
    throw new AppError('conflict', CART_CHANGED_MESSAGE)
  }
  row = payment.row
  const order = row.status === 'paid' ? await fulfilCheckout(deps, row.id) : null
  // Paid and the order made, the answer not yet sent: the shopper's page never hears back.
  await crashPoint('checkout:after-order')
  return sessionView(row, order?.id ?? null)
}

const referenceOf = () => `KS-${randomBytes(4).toString('hex').toUpperCase()}`

/**
 * Fulfils a paid session exactly once, by its purpose's handler (a cart's makes the order): the session
 * row is locked while the order is looked up and written, so concurrent callers wait and then find it.
 * Never fulfils an unpaid session.
 */
export async function fulfilCheckout(deps: ApiDeps, sessionId: string): Promise<OrderRow | null> {
  return deps.db.transaction(async (tx) => {
    const [session] = await tx.select().from(checkoutSessions).where(eq(checkoutSessions.id, sessionId)).for('update')
    if (!session) throw notFound('Checkout session')
    const [existing] = await tx.select().from(orders).where(eq(orders.checkoutSessionId, sessionId))
    if (existing) return existing
    if (session.status !== 'paid') return null
    return purposeHandler(session.purpose).fulfil(tx, deps, session, deps.now())
  })
}

/** A paid cart session becomes the order, with its confirmation, the cart checked out, credit spent and the print job queued. */
export const cartCheckout: CheckoutPurposeHandler = {
  async fulfil(tx, deps, session, now) {
    // The shopper's account, as a redemption takes it: a redemption and this first order cannot
    // pass each other unseen (one refuses a family that has ordered, the other approves the reward).
    await lockAccount(tx, session.userId)
    const previewIds = Object.values(session.previewIds)
    const previewRows = previewIds.length ? await tx.select().from(previews).where(inArray(previews.id, previewIds)) : []
    const previewById = new Map(previewRows.map((p) => [p.id, p]))
    const orderId = randomUUID()
    const chargedCents = chargeMismatchOf(session)
    const [order] = await tx
      .insert(orders)
      .values({
        id: orderId,
        reference: referenceOf(),
        userId: session.userId,
        checkoutSessionId: session.id,
        lines: session.lines,
        printItems: session.lines.map((line) => {
          const preview = previewById.get(session.previewIds[line.cartItemId]!)!
          return {
            cartItemId: line.cartItemId,
            previewId: preview.id,
            variantId: line.variantId,
            quantity: line.quantity,
            providerProductId: preview.providerProductId,
            printAreas: preview.printAreas,
          }
        }),
        totals: session.totals,
        shippingAddress: session.shippingAddress,
        arrivesBy: session.arrivesBy,
        provider: deps.print.name,
        chargedCents,
        createdAt: now,
        updatedAt: now,
      })
      .returning()
    if (chargedCents !== null) reportChargeMismatch(session, order!)
    // A parcel per address, as the checkout kept them; the first has the order's id (fulfilment.ts). A session
    // from before parcels ships in one, to the address the checkout collected.
    const planned: SessionParcel[] = session.parcels ?? [
      {
        key: OWN_PARCEL,
        addressId: null,
        label: null,
        shippingAddress: null,
        shippingMethod: session.totals.shippingMethod,
        arrivesBy: session.arrivesBy,
        items: session.lines.map((l) => ({ cartItemId: l.cartItemId, quantity: l.quantity })),
        giftMessage: null,
        recipientEmail: null,
      },
    ]
    const parcels = await tx
      .insert(orderParcels)
      .values(
        planned.map((p, i) => ({
          id: i === 0 ? orderId : randomUUID(),
          orderId,
          position: i + 1,
          addressId: p.addressId,
          label: p.label,
          shippingAddress: p.key === OWN_PARCEL ? session.shippingAddress : p.shippingAddress,
          shippingMethod: p.shippingMethod,
          arrivesBy: p.arrivesBy,
          items: p.items,
          giftMessage: p.giftMessage,
          recipientEmail: p.recipientEmail,
          createdAt: now,
          updatedAt: now,
        })),
      )
      .returning()
    // In the order's transaction: no order without its confirmation, and a replay finds the order above and queues none.
    await queueOrderConfirmation(tx, deps, order!, now)

    await checkOutCart(tx as unknown as Database, session, now)
    await spendCredit(tx, session, now)
    await approveReferralFor(tx, session.userId, { id: orderId, checkoutStartedAt: session.createdAt }, now)
    for (const parcel of parcels) await queueParcelSubmission(tx, parcel, now)
    await crashPoint('checkout:before-commit')
    return order!
  },
}

/**
 * What the payment provider charged, when it is not the total the store decided (chargedTotals, the one decider of
 * what a shopper is charged); null when it charged the total or said nothing (issue 42, item 6).
 */
function chargeMismatchOf(session: SessionRow): number | null {
  return session.chargedCents !== null && session.chargedCents !== session.totals.totalCents ? session.chargedCents : null
}

/** An order whose charge is not its total: an error line with both figures, and the mismatch counted, once (the order is made once). */
function reportChargeMismatch(session: SessionRow, order: OrderRow) {
  const differenceCents = order.chargedCents! - order.totals.totalCents
  logger().error(
    {
      orderId: order.id,
      reference: order.reference,
      checkoutSessionId: session.id,
      provider: session.provider,
      chargedCents: order.chargedCents,
      orderTotalCents: order.totals.totalCents,
      differenceCents,
    },
    `[checkout] order ${order.reference}: ${session.provider} charged ${formatCents(order.chargedCents!)} but the order's total is ${formatCents(order.totals.totalCents)}; the order is flagged (orders.charged_cents)`,
  )
  metrics().chargeMismatches.inc({ provider: session.provider })
}

/**
 * The cart is checked out; anything the shopper added after the session was made (or more of a line)
 * moves to a fresh cart, so nothing in the cart is lost to a checkout that did not include it.
 */
async function checkOutCart(tx: Database, session: SessionRow, now: Date) {
  if (!session.cartId) return
  const [cart] = await tx.select().from(carts).where(eq(carts.id, session.cartId)).for('update')
  if (!cart || cart.status === 'checked_out') return
  await moveCart(tx, cart, 'checked_out', now)
  const paid = new Map(session.lines.map((l) => [l.cartItemId, l.quantity]))
  const leftovers = (await cartItemsOf(tx, cart.id)).map((item) => ({ item, quantity: item.quantity - (paid.get(item.id) ?? 0) })).filter((l) => l.quantity > 0)
  if (leftovers.length === 0) return
  const fresh = await openCart(tx, session.userId, { lock: true })
  for (const { item, quantity } of leftovers) {
    await tx
      .insert(cartItems)
      .values({
        cartId: fresh.id,
        itemIdentifier: item.itemIdentifier,
        provider: item.provider,
        previewId: item.previewId,
        metadata: item.metadata,
        quantity,
        createdAt: item.createdAt,
      })
      .onConflictDoNothing()
  }
}

/**
 * An order was refunded (by the operator; see scripts/refund-order.ts): it stops wherever it is, the
 * store credit it spent goes back, and a referral reward it approved is voided. Safe to repeat.
 */
export async function refundOrder(deps: ApiDeps, orderId: string) {
  const refunded = await deps.db.transaction(async (tx) => {
    const [order] = await tx.select().from(orders).where(eq(orders.id, orderId)).for('update')
    if (!order) throw notFound('Order')
    if (order.status === 'refunded') return order
    const now = deps.now()
    const parcelsBefore = await tx.select({ id: orderParcels.id, status: orderParcels.status }).from(orderParcels).where(eq(orderParcels.orderId, orderId))
    const [refunded] = await tx.update(orders).set({ status: 'refunded', updatedAt: now }).where(eq(orders.id, orderId)).returning()
    // Its parcels stop wherever they are (a job that runs for one later finds it refunded and does nothing); one the
    // provider holds and has not shipped is canceled there (too late once production has begun: the provider says).
    const stopped = await tx
      .update(orderParcels)
      .set({ status: 'refunded', updatedAt: now })
      .where(eq(orderParcels.orderId, orderId))
      .returning({ id: orderParcels.id, orderId: orderParcels.orderId, providerOrderId: orderParcels.providerOrderId })
    const before = new Map(parcelsBefore.map((p) => [p.id, p.status]))
    for (const parcel of stopped)
      if (parcel.providerOrderId && (before.get(parcel.id) === 'submitted' || before.get(parcel.id) === 'in_production'))
        await queueProviderCancel(tx, parcel, now)
    const [session] = await tx.select().from(checkoutSessions).where(eq(checkoutSessions.id, order.checkoutSessionId))
    if (session) await restoreCreditForRefund(tx, session, order.id, now)
    await voidRewardForOrder(tx, order.id, now)
    return refunded!
  })
  await creditGranted(deps, refunded.userId)
  return refunded
}

export async function listOrders(db: Database, user: SessionUser) {
  const rows = await db.select().from(orders).where(eq(orders.userId, user.id)).orderBy(desc(orders.createdAt))
  const parcels = rows.length
    ? await db
        .select()
        .from(orderParcels)
        .where(
          inArray(
            orderParcels.orderId,
            rows.map((r) => r.id),
          ),
        )
        .orderBy(asc(orderParcels.position))
    : []
  const shipments = await shipmentsOf(
    db,
    parcels.map((p) => p.id),
  )
  return {
    orders: rows.map((row) =>
      orderView(
        row,
        parcels.filter((p) => p.orderId === row.id),
        shipments,
      ),
    ),
  }
}

export async function getOrder(db: Database, user: SessionUser, id: string) {
  const [row] = await db
    .select()
    .from(orders)
    .where(and(eq(orders.id, id), eq(orders.userId, user.id)))
  if (!row) throw notFound('Order')
  const parcels = await parcelsOf(db, row.id)
  return orderView(
    row,
    parcels,
    await shipmentsOf(
      db,
      parcels.map((p) => p.id),
    ),
  )
}

/** A Stripe webhook's session, by Stripe's id or, failing that, our own id from its metadata. */
export async function findSessionForWebhook(db: Database, providerSessionId: string | null, checkoutSessionId: string | null) {
  if (providerSessionId) {
    const [row] = await db.select().from(checkoutSessions).where(eq(checkoutSessions.providerSessionId, providerSessionId))
    if (row) return row
  }
  if (checkoutSessionId && /^[0-9a-f-]{36}$/.test(checkoutSessionId)) {
    const [row] = await db.select().from(checkoutSessions).where(eq(checkoutSessions.id, checkoutSessionId))
    if (row) return row
  }
  return null
}
