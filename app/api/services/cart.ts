/**
 * The photo-products cart (SPEC.md §3–§5, §7): one open cart per shopper, lines made only from the
 * previews the server rendered for that shopper, prices only from the catalogue, totals on the server.
 */
import { and, asc, desc, eq, isNotNull, ne, sql } from 'drizzle-orm'
import {
  MAX_LINES_PER_CART,
  MAX_QUANTITY_PER_LINE,
  type AddCartItemRequest,
  type Cart,
  type CartItem,
  type CartItemMetadata,
  type CartParcel,
  type CartParcelChoice,
  type CartStatus,
} from '../../contract/cart'
import { canMove, cartTransitions } from './cart-states'
import { findOrnamentVariant, ornamentProduct, variantTitle } from '../../catalogue/ornaments'
import { samePersonalText, textWithYear } from '../../catalogue/personal-line'
import type { GeneratedPreview, GeneratePreviewRequest } from '../../contract/designs'
import { toCents, type TaxDestination } from '../../catalogue/pricing'
import { shippingMethodIds, shippingPriceCents, type ShippingMethodId } from '../../catalogue/shipping'
import { GIFT_MESSAGE_NEEDS_EMAIL, giftMessageUnread, type GiftMessageVia } from '../../catalogue/gift-messages'
import type { Database } from '../db/client'
import { cartItems, carts, checkoutSessions, orderParcels, orders, previews, savedAddresses, users } from '../db/schema'
import { clampChoices, ownEntries, parcelPlan, planQuotes, planTotals, type PlannedParcel } from './parcel-plans'
import type { ParcelQuote, ShippingQuoter } from './shipping-quotes'
import { creditForCart } from './credit'
import type { SessionUser } from '../env'
import { AppError, notFound } from '../errors'
import { queuePrintFiles } from './print-files'
import { CART_PAID_MESSAGE } from '../../catalogue/cart-terms'

type Tx = Parameters<Parameters<Database['transaction']>[0]>[0]
type Db = Database | Tx
export type CartRow = typeof carts.$inferSelect
type CartItemRow = typeof cartItems.$inferSelect

const UUID = /\/previews\/([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\//

/** The shopper's open cart (active or abandoned), made on first use; `lock` holds its row for the transaction. */
export async function openCart(db: Db, userId: string, { lock = false } = {}): Promise<CartRow> {
  const find = () => {
    const query = db
      .select()
      .from(carts)
      .where(and(eq(carts.userId, userId), ne(carts.status, 'checked_out')))
    return lock ? query.for('update') : query
  }
  const [found] = await find()
  if (found) return found
  await db.execute(sql`insert into carts (user_id) values (${userId}) on conflict (user_id) where status <> 'checked_out' do nothing`)
  const [made] = await find()
  return made!
}

/** Moves a cart, refusing a move cart-states.ts does not allow with 409. */
export async function moveCart(db: Db, cart: CartRow, to: CartStatus, now: Date): Promise<CartRow> {
  if (!canMove(cartTransitions, cart.status, to)) {
    throw new AppError('conflict', `The cart is ${cart.status.replace('_', ' ')} and cannot become ${to.replace('_', ' ')}`)
  }
  const [moved] = await db
    .update(carts)
    .set({ status: to, updatedAt: now })
    .where(and(eq(carts.id, cart.id), eq(carts.status, cart.status)))
    .returning()
  if (!moved) throw new AppError('conflict', 'The cart changed while this request ran; try again')
  return moved
}

function itemView(row: CartItemRow): CartItem {
  return {
    id: row.id,
    itemIdentifier: row.itemIdentifier,
    provider: row.provider,
    quantity: row.quantity,
    metadata: row.metadata,
    previewId: row.previewId,
    backSideId: (row.metadata as CartItemMetadata & { backSideId?: string }).backSideId ?? '',
    lineTotalCents: toCents(row.metadata.price) * row.quantity,
    lineSaleTotalCents: toCents(row.metadata.salePrice) * row.quantity,
    addedAt: row.createdAt.toISOString(),
  }
}

export async function cartItemsOf(db: Db, cartId: string) {
  return db.select().from(cartItems).where(eq(cartItems.cartId, cartId)).orderBy(asc(cartItems.createdAt), asc(cartItems.id))
}

/**
 * Where the cart's sales tax is estimated for, before checkout asks for the address: the state the shopper's
 * latest order went to, else their most recently saved address book entry; null (no estimate) for neither.
 */
export async function estimatedTaxDestination(db: Db, userId: string): Promise<TaxDestination | null> {
  // One round trip (the cart is read often): both candidates as scalar subqueries, the order's first.
  const lastOrder = db
    .select({ state: sql`${orders.shippingAddress}->>'state'` })
    .from(orders)
    .where(and(eq(orders.userId, userId), isNotNull(orders.shippingAddress)))
    .orderBy(desc(orders.createdAt))
    .limit(1)
  const newestSaved = db
    .select({ state: savedAddresses.state })
    .from(savedAddresses)
    .where(eq(savedAddresses.userId, userId))
    .orderBy(desc(savedAddresses.updatedAt))
    .limit(1)
  const [row] = await db
    .select({ state: sql<string | null>`coalesce((${lastOrder}), (${newestSaved}))` })
    .from(users)
    .where(eq(users.id, userId))
  const state = row?.state
  return state ? { state, estimated: true } : null
}

/** The cart's parcels as they stand (parcel-plans.ts), with its lines. */
export async function cartPlan(db: Db, cart: CartRow) {
  const rows = await cartItemsOf(db, cart.id)
  return { rows, plan: await parcelPlan(db, cart.userId, cart.shippingMethod, cart.parcels, rows) }
}

/** The methods a parcel may ship by and their prices: the provider's quote where it gave one, never a method it does not offer. */
const shippingOptionsOf = (goodsCents: number, itemCount: number, quote: ParcelQuote = {}) =>
  shippingMethodIds
    .filter((method) => quote[method] !== null)
    .map((method) => ({ method, priceCents: shippingPriceCents(method, goodsCents, itemCount, quote[method] ?? undefined) }))

function parcelView(parcel: PlannedParcel, money: { goodsCents: number; itemCount: number }, quote?: ParcelQuote): CartParcel {
  const e = parcel.entry
  return {
    key: parcel.key,
    addressId: e?.id ?? null,
    label: e?.label ?? null,
    address: e ? { name: e.name, line1: e.line1, line2: e.line2, city: e.city, state: e.state, postalCode: e.postalCode } : null,
    shippingMethod: parcel.shippingMethod,
    giftMessage: parcel.giftMessage,
    recipientEmail: parcel.recipientEmail,
    items: parcel.items,
    shippingOptions: shippingOptionsOf(money.goodsCents, money.itemCount, quote),
  }
}

/**
 * The cart as the shopper sees it. With a `quoter` (Printify), shipping is priced from its quotes; callers ask for
 * those outside a transaction (getCart), so no request to the provider holds the database.
 */
export async function cartView(db: Db, cart: CartRow, quoter: ShippingQuoter | null = null): Promise<Cart> {
  const [{ rows, plan }, credit, destination] = await Promise.all([
    cartPlan(db, cart),
    creditForCart(db, cart.userId, cart.id),
    estimatedTaxDestination(db, cart.userId),
  ])
  const quotes = await planQuotes(quoter, plan, rows, destination)
  const totals = planTotals(plan, rows, credit, destination, true, quotes)
  const own = totals.parcels[0]!
  return {
    id: cart.id,
    status: cart.status,
    items: rows.map(itemView),
    totals,
    availableCreditCents: credit,
    // The shopper's own parcel's: the cart's shipping method is its method.
    shippingOptions: shippingOptionsOf(own.goodsCents, own.itemCount, quotes?.get(plan[0]!.key)),
    parcels: plan.map((p, i) => parcelView(p, totals.parcels[i]!, quotes?.get(p.key))),
    updatedAt: cart.updatedAt.toISOString(),
  }
}

export async function getCart(db: Database, user: SessionUser, quoter: ShippingQuoter | null = null): Promise<Cart> {
  return cartView(db, await openCart(db, user.id), quoter)
}

const sameList = <T>(a: T[], b: T[], key: (x: T) => string) => {
  const left = a.map(key).sort()
  const right = b.map(key).sort()
  return left.length === right.length && left.every((k, i) => k === right[i])
}

/**
 * Checks a cart item against the preview this user generated and against the catalogue, and answers
 * the metadata as the server records it. Any difference is refused (422) and nothing is stored.
 */
async function verifiedItem(db: Db, user: SessionUser, input: AddCartItemRequest) {
  const m = input.metadata
  const previewId = m.printAreas[0]!.imageUrl.match(UUID)?.[1]
  const [preview] = previewId
    ? await db
        .select()
        .from(previews)
        .where(and(eq(previews.id, previewId), eq(previews.userId, user.id)))
    : []
  const printFilesRefused = () => new AppError('rule_broken', 'The print files must be the ones Keepsake made for your design; make a preview and add it again')
  if (!preview) throw printFilesRefused()
  if (!sameList(m.printAreas, preview.printAreas, (a) => `${a.position} ${a.imageUrl}`)) throw printFilesRefused()
  if (!sameList(m.sourceImages, preview.sourceImages, (s) => `${s.cropped} ${s.original}`)) throw printFilesRefused()
  if (![m.previewCdnUrl, ...m.previewCdnUrls].every((u) => preview.images.includes(u))) {
    throw new AppError('rule_broken', 'The preview images must be the ones Keepsake made for your design')
  }

  const variant = findOrnamentVariant(m.variantId)
  if (!variant || m.variantId !== preview.variantId) throw new AppError('rule_broken', `variantId ${m.variantId} is not the variant of this design`)
  if (m.providerProductId !== ornamentProduct.providerProductId || m.printProviderId !== ornamentProduct.printProviderId) {
    throw new AppError('rule_broken', 'providerProductId and printProviderId must be those of the photo ornament')
  }
  if (m.price !== variant.price || m.salePrice !== variant.salePrice) {
    throw new AppError(
      'rule_broken',
      `The ${variant.name} ornament costs $${variant.price} (on sale for $${variant.salePrice}); refresh to see the current price`,
    )
  }
  if (m.pseudoTemplateId !== undefined && m.pseudoTemplateId !== preview.pseudoTemplateId) {
    throw new AppError('rule_broken', 'pseudoTemplateId is not the template of this design')
  }
  if (m.text !== undefined && !samePersonalText(m.text, preview.text)) {
    throw new AppError('rule_broken', 'The text must be the one Keepsake printed in this design; make a preview and add it again')
  }
  // SPEC §3's optional designTemplateId and selectedColor are the client's to send: validated by the contract and kept with the line (issue 15, bug 8).

  const metadata: CartItemMetadata & { backSideId: string } = {
    providerProductId: ornamentProduct.providerProductId,
    variantId: variant.id,
    printProviderId: ornamentProduct.printProviderId,
    title: variantTitle(variant),
    price: variant.price,
    salePrice: variant.salePrice,
    previewCdnUrl: m.previewCdnUrl,
    previewCdnUrls: m.previewCdnUrls.length > 0 ? m.previewCdnUrls : preview.images,
    sourceImages: preview.sourceImages,
    printAreas: preview.printAreas as CartItemMetadata['printAreas'],
    pseudoTemplateId: preview.pseudoTemplateId,
    ...(m.designTemplateId !== undefined ? { designTemplateId: m.designTemplateId } : {}),
    ...(m.selectedColor !== undefined ? { selectedColor: m.selectedColor } : {}),
    ...(preview.text ? { text: preview.text } : {}),
    backSideId: preview.backSideId,
  }
  return { preview, metadata }
}

/** Resumes an abandoned cart when the shopper changes it: they are clearly back. */
async function activate(db: Db, cart: CartRow, now: Date) {
  return cart.status === 'abandoned' ? moveCart(db, cart, 'active', now) : cart
}

export async function addCartItem(db: Database, user: SessionUser, input: AddCartItemRequest, now: Date) {
  const { preview, metadata } = await verifiedItem(db, user, input)
  return db.transaction(async (tx) => {
    let cart = await openCart(tx, user.id, { lock: true })
    const rows = await cartItemsOf(tx, cart.id)
    const same = rows.find((r) => r.itemIdentifier === input.itemIdentifier)
    if (same) {
      // A double tap or a retried request: the line is already there.
      if (same.previewId !== preview.id) throw new AppError('conflict', `itemIdentifier ${input.itemIdentifier} already names another design in your cart`)
      return { item: itemView(same), cart: await cartView(tx, cart), created: false }
    }
    if (rows.some((r) => r.previewId === preview.id)) {
      throw new AppError('conflict', 'This design is already in your cart; change its quantity there')
    }
    if (rows.length >= MAX_LINES_PER_CART) throw new AppError('rule_broken', `A cart holds at most ${MAX_LINES_PER_CART} designs`)
    cart = await activate(tx, cart, now)
    const [row] = await tx
      .insert(cartItems)
      .values({
        cartId: cart.id,
        itemIdentifier: input.itemIdentifier,
        provider: input.provider,
        previewId: preview.id,
        metadata,
        quantity: input.quantity ?? 1,
        createdAt: now,
      })
      .returning()
    // The design is likely to be bought now: its print files are rendered in the background, once per design (issue 50).
    await queuePrintFiles(tx, preview, now)
    cart = await touch(tx, cart, now)
    return { item: itemView(row!), cart: await cartView(tx, cart), created: true }
  })
}

async function touch(db: Db, cart: CartRow, now: Date) {
  const [row] = await db.update(carts).set({ updatedAt: now }).where(eq(carts.id, cart.id)).returning()
  return row!
}

/**
 * The open cart a shopper's change applies to, locked for the change's transaction. `editing` is the cart their page
 * shows (CART_ID_HEADER). When that cart was paid meanwhile in another tab — checked out, or its checkout paid and the
 * order being made — the change is refused with 409 instead of saved to a cart no order will see (issue 43, item 8).
 * The local Pay locks the cart too (payLocalCheckout), so a change and a payment are one before the other.
 */
export async function cartToChange(tx: Tx, user: SessionUser, editing: string | null): Promise<CartRow> {
  const cart = await openCart(tx, user.id, { lock: true })
  if (editing && editing !== cart.id) {
    const [shown] = await tx
      .select({ status: carts.status })
      .from(carts)
      .where(and(eq(carts.id, editing), eq(carts.userId, user.id)))
    if (shown?.status === 'checked_out') throw new AppError('conflict', CART_PAID_MESSAGE)
  }
  const [paid] = await tx
    .select({ id: checkoutSessions.id })
    .from(checkoutSessions)
    .where(and(eq(checkoutSessions.cartId, cart.id), eq(checkoutSessions.status, 'paid')))
    .limit(1)
  if (paid) throw new AppError('conflict', CART_PAID_MESSAGE)
  return cart
}

/** The item in the user's open cart, or 404 (someone else's item is not found either). */
async function ownItem(tx: Tx, user: SessionUser, itemId: string, editing: string | null) {
  const cart = await cartToChange(tx, user, editing)
  const [item] = await tx
    .select()
    .from(cartItems)
    .where(and(eq(cartItems.id, itemId), eq(cartItems.cartId, cart.id)))
  if (!item) throw notFound('Cart item')
  return { cart, item }
}

/**
 * After a line changed, the parcels keep only what the lines now hold (clampChoices): a parcel hidden by a smaller
 * line does not come back when another is removed later.
 */
async function keepParcelsWithin(tx: Tx, cart: CartRow, now: Date) {
  const rows = await cartItemsOf(tx, cart.id)
  const parcels = clampChoices(cart.parcels, new Map(rows.map((r) => [r.id, r.quantity])))
  const [row] = await tx.update(carts).set({ parcels, updatedAt: now }).where(eq(carts.id, cart.id)).returning()
  return row!
}

export async function updateCartItemQuantity(db: Database, user: SessionUser, itemId: string, quantity: number, now: Date, editing: string | null = null) {
  return db.transaction(async (tx) => {
    let { cart } = await ownItem(tx, user, itemId, editing)
    cart = await activate(tx, cart, now)
    await tx.update(cartItems).set({ quantity }).where(eq(cartItems.id, itemId))
    return cartView(tx, await keepParcelsWithin(tx, cart, now))
  })
}

export async function removeCartItem(db: Database, user: SessionUser, itemId: string, now: Date, editing: string | null = null) {
  return db.transaction(async (tx) => {
    let { cart } = await ownItem(tx, user, itemId, editing)
    cart = await activate(tx, cart, now)
    await tx.delete(cartItems).where(eq(cartItems.id, itemId))
    return cartView(tx, await keepParcelsWithin(tx, cart, now))
  })
}

/**
 * PUT shipping: the shopper's choice of shipping method, charged by the cart's totals from now on.
 * Answers whether it changed (a checkout opened before then charges the old method and is closed).
 */
export async function setCartShipping(db: Database, user: SessionUser, method: ShippingMethodId, now: Date, editing: string | null = null) {
  return db.transaction(async (tx) => {
    let cart = await cartToChange(tx, user, editing)
    if (cart.shippingMethod === method) return { cart: await cartView(tx, cart), changed: false }
    cart = await activate(tx, cart, now)
    const [row] = await tx.update(carts).set({ shippingMethod: method, updatedAt: now }).where(eq(carts.id, cart.id)).returning()
    return { cart: await cartView(tx, row!), changed: true }
  })
}

/**
 * PUT parcels: the parcels to address book entries, replacing those the cart had (what they do not hold ships to
 * the shopper's own address). Each address must be the shopper's own entry and each line one of their cart's (404
 * otherwise), and no line may send more than it holds (422). A gift message that only an e-mail would carry (`via`,
 * the print provider's way) needs the recipient's e-mail (400, nothing changed). Answers whether anything changed.
 */
export async function setCartParcels(
  db: Database,
  user: SessionUser,
  parcels: CartParcelChoice[],
  now: Date,
  via: GiftMessageVia,
  editing: string | null = null,
) {
  const unread = parcels.flatMap((p, i) => (giftMessageUnread(via, p) ? [{ path: `body.parcels.${i}.recipientEmail`, message: GIFT_MESSAGE_NEEDS_EMAIL }] : []))
  if (unread.length > 0) throw new AppError('validation_failed', GIFT_MESSAGE_NEEDS_EMAIL, unread)
  return db.transaction(async (tx) => {
    let cart = await cartToChange(tx, user, editing)
    const rows = await cartItemsOf(tx, cart.id)
    const entries = await ownEntries(
      tx,
      user.id,
      parcels.map((p) => p.addressId),
    )
    const sent = new Map<string, number>()
    for (const parcel of parcels) {
      if (!entries.some((e) => e.id === parcel.addressId)) throw notFound('Address')
      for (const item of parcel.items) {
        if (!rows.some((r) => r.id === item.cartItemId)) throw notFound('Cart item')
        sent.set(item.cartItemId, (sent.get(item.cartItemId) ?? 0) + item.quantity)
      }
    }
    for (const row of rows) {
      const n = sent.get(row.id) ?? 0
      if (n > row.quantity) {
        throw new AppError(
          'rule_broken',
          `Your cart holds ${row.quantity} of the ${row.metadata.title}, so no more than ${row.quantity} can ship to other addresses (you chose ${n})`,
        )
      }
    }
    if (JSON.stringify(cart.parcels) === JSON.stringify(parcels)) return { cart: await cartView(tx, cart), changed: false }
    cart = await activate(tx, cart, now)
    const [row] = await tx.update(carts).set({ parcels, updatedAt: now }).where(eq(carts.id, cart.id)).returning()
    return { cart: await cartView(tx, row!), changed: true }
  })
}

/** PATCH resume / abandon: the cart must be in a state that allows the move (409 otherwise). */
export async function moveOpenCart(db: Database, user: SessionUser, to: 'active' | 'abandoned', now: Date) {
  return db.transaction(async (tx) => {
    const cart = await openCart(tx, user.id, { lock: true })
    return cartView(tx, await moveCart(tx, cart, to, now))
  })
}

/**
 * Order again: each design of one of the shopper's orders goes back in the open cart with the order's
 * quantity, at today's catalogue prices (verified like any new line). A design already in the cart is
 * left as it is. The line's identifier is derived from the order, so asking twice adds nothing twice.
 */
export async function orderAgain(
  db: Database,
  user: SessionUser,
  orderId: string,
  now: Date,
  options: { year?: number; render?: (request: GeneratePreviewRequest) => Promise<GeneratedPreview> } = {},
) {
  const [order] = await db
    .select()
    .from(orders)
    .where(and(eq(orders.id, orderId), eq(orders.userId, user.id)))
  if (!order) throw notFound('Order')
  const [session] = await db.select({ cartId: checkoutSessions.cartId }).from(checkoutSessions).where(eq(checkoutSessions.id, order.checkoutSessionId))
  const ordered = session?.cartId ? await cartItemsOf(db, session.cartId) : []
  const lines = order.lines.flatMap((line) => {
    const item = ordered.find((i) => i.id === line.cartItemId)
    const variant = item && findOrnamentVariant(item.metadata.variantId)
    return item && variant ? [{ item, variant, quantity: line.quantity }] : []
  })
  if (lines.length === 0) throw new AppError('rule_broken', 'The designs of this order can no longer be ordered again')
  const open = await cartItemsOf(db, (await openCart(db, user.id)).id)
  let added = 0
  let alreadyInCart = 0
  for (const { item, variant, quantity } of lines) {
    // A new year in the text (issue 19, part 4): the design is rendered again with it, then added like any new preview.
    const text = item.metadata.text
    const renewed = text && options.year !== undefined && options.render ? textWithYear(text, options.year) : null
    if (renewed && !samePersonalText(renewed, text)) {
      const itemIdentifier = `again:${item.id}:${options.year}`
      if (open.some((r) => r.itemIdentifier === itemIdentifier)) {
        alreadyInCart++
        continue
      }
      const [preview] = await db.select().from(previews).where(eq(previews.id, item.previewId))
      if (!preview) throw new AppError('rule_broken', 'The designs of this order can no longer be ordered again')
      const made = await options.render!({
        variantId: preview.variantId,
        pseudoTemplateId: preview.pseudoTemplateId,
        backSideId: preview.backSideId,
        cells: preview.design,
        text: renewed,
      })
      const result = await addCartItem(
        db,
        user,
        {
          itemIdentifier,
          provider: item.provider,
          metadata: {
            ...item.metadata,
            price: variant.price,
            salePrice: variant.salePrice,
            previewCdnUrl: made.images[0]!,
            previewCdnUrls: made.images,
            sourceImages: made.sourceImages,
            printAreas: made.printAreas as CartItemMetadata['printAreas'],
            text: renewed,
          },
          quantity: Math.min(quantity, MAX_QUANTITY_PER_LINE),
        },
        now,
      )
      if (result.created) added++
      else alreadyInCart++
      continue
    }
    if (open.some((r) => r.previewId === item.previewId)) {
      alreadyInCart++
      continue
    }
    const result = await addCartItem(
      db,
      user,
      {
        itemIdentifier: `again:${item.id}`,
        provider: item.provider,
        metadata: { ...item.metadata, price: variant.price, salePrice: variant.salePrice },
        quantity: Math.min(quantity, MAX_QUANTITY_PER_LINE),
      },
      now,
    )
    if (result.created) added++
    else alreadyInCart++
  }
  await restoreParcels(db, user, orderId, lines, now)
  return { cart: await getCart(db, user), added, alreadyInCart }
}

/**
 * Order again knows where the order went: its parcels to address book entries still in the book are set up again
 * in the cart, with their method, message and recipient, for the same lines. A cart that already ships somewhere
 * else keeps the shopper's own choice.
 */
async function restoreParcels(db: Database, user: SessionUser, orderId: string, lines: { item: CartItemRow }[], now: Date) {
  const parcels = await db.select().from(orderParcels).where(eq(orderParcels.orderId, orderId)).orderBy(asc(orderParcels.position))
  if (!parcels.some((p) => p.addressId)) return
  await db.transaction(async (tx) => {
    const cart = await openCart(tx, user.id, { lock: true })
    if (cart.parcels.length > 0) return
    const rows = await cartItemsOf(tx, cart.id)
    // Each ordered line's place in this cart: the line Order again added for it, or the same design already there.
    const lineFor = new Map(
      lines.flatMap(({ item }) => {
        const row =
          rows.find((r) => r.itemIdentifier === `again:${item.id}` || r.itemIdentifier.startsWith(`again:${item.id}:`)) ??
          rows.find((r) => r.previewId === item.previewId)
        return row ? [[item.id, row.id] as const] : []
      }),
    )
    const choices = parcels.flatMap((p): CartParcelChoice[] => {
      const items = p.items.flatMap((i) => (lineFor.has(i.cartItemId) ? [{ cartItemId: lineFor.get(i.cartItemId)!, quantity: i.quantity }] : []))
      if (!p.addressId || items.length === 0) return []
      return [{ addressId: p.addressId, shippingMethod: p.shippingMethod, giftMessage: p.giftMessage ?? '', recipientEmail: p.recipientEmail ?? '', items }]
    })
    const entries = await ownEntries(
      tx,
      user.id,
      choices.map((c) => c.addressId),
    )
    const kept = clampChoices(
      choices.filter((c) => entries.some((e) => e.id === c.addressId)),
      new Map(rows.map((r) => [r.id, r.quantity])),
    )
    if (kept.length > 0) await tx.update(carts).set({ parcels: kept, updatedAt: now }).where(eq(carts.id, cart.id))
  })
}
