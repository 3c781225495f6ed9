/**
 * Where a cart ships (issue 33, item 2; docs/decisions/055-cart-parcels.md). The shopper may send lines, or part
 * of a line's quantity, to entries of their address book; what no such parcel holds is the shopper's own parcel,
 * shipped to the address the checkout asks for. The cart keeps the shopper's choices as asked (carts.parcels);
 * the plan is those choices against the cart as it is now: a line removed or made smaller is taken from the
 * parcels in their order, and an entry removed from the book takes its parcel with it (its ornaments come home).
 */
import { and, eq, inArray } from 'drizzle-orm'
import type { CartItemMetadata, CartParcelChoice, ParcelItem, SessionParcel, ShippingAddress } from '../../contract/cart'
import { OWN_PARCEL, parcelledTotals, toCents, type PricedLine, type TaxDestination } from '../../catalogue/pricing'
import { shippingMethods, type ShippingMethodId } from '../../catalogue/shipping'
import type { Database } from '../db/client'
import { AppError } from '../errors'
import { savedAddresses } from '../db/schema'
import { storeBundles } from './bundles'
import type { ShippingQuoter, ShippingQuotes } from './shipping-quotes'

type Tx = Parameters<Parameters<Database['transaction']>[0]>[0]
type Db = Database | Tx
type EntryRow = typeof savedAddresses.$inferSelect
type Line = { id: string; metadata: CartItemMetadata; quantity: number }

/** One parcel of the plan: the shopper's own (no entry) or one to an address book entry. */
export type PlannedParcel = {
  key: string
  entry: EntryRow | null
  shippingMethod: ShippingMethodId
  giftMessage: string
  recipientEmail: string
  items: ParcelItem[]
}

/**
 * The choices as far as the lines hold: a line made smaller is taken from the parcels in their order, from the
 * last first, and a parcel left with nothing goes. What `left` starts with is each line's quantity; it ends with
 * what ships to the shopper's own address.
 */
export function clampChoices(choices: CartParcelChoice[], left: Map<string, number>): CartParcelChoice[] {
  const asked = choices.map((c) => c.items.map((i) => ({ ...i })))
  for (const [cartItemId, quantity] of left) {
    let over = asked.flat().reduce((sum, i) => sum + (i.cartItemId === cartItemId ? i.quantity : 0), 0) - quantity
    for (let p = asked.length - 1; p >= 0 && over > 0; p--) {
      for (const item of asked[p]!.filter((i) => i.cartItemId === cartItemId)) {
        const cut = Math.min(over, item.quantity)
        item.quantity -= cut
        over -= cut
      }
    }
  }
  const kept = choices.flatMap((c, p) => {
    const items = asked[p]!.filter((i) => i.quantity > 0 && left.has(i.cartItemId))
    return items.length > 0 ? [{ ...c, items }] : []
  })
  for (const item of kept.flatMap((c) => c.items)) left.set(item.cartItemId, left.get(item.cartItemId)! - item.quantity)
  return kept
}

/** The shopper's own address book entries among `ids` (another shopper's, or none, are simply not there). */
export async function ownEntries(db: Db, userId: string, ids: string[]): Promise<EntryRow[]> {
  if (ids.length === 0) return []
  return db
    .select()
    .from(savedAddresses)
    .where(and(eq(savedAddresses.userId, userId), inArray(savedAddresses.id, ids)))
}

/** The plan of a cart whose stored choices are `choices`, its own parcel shipping by `ownMethod`. */
export async function parcelPlan(db: Db, userId: string, ownMethod: ShippingMethodId, choices: CartParcelChoice[], lines: Line[]): Promise<PlannedParcel[]> {
  const entries = await ownEntries(
    db,
    userId,
    choices.map((c) => c.addressId),
  )
  const left = new Map(lines.map((l) => [l.id, l.quantity]))
  const booked = clampChoices(
    choices.filter((c) => entries.some((e) => e.id === c.addressId)),
    left,
  ).map((choice): PlannedParcel => ({
    key: choice.addressId,
    entry: entries.find((e) => e.id === choice.addressId)!,
    shippingMethod: choice.shippingMethod,
    giftMessage: choice.giftMessage,
    recipientEmail: choice.recipientEmail,
    items: choice.items,
  }))
  const ownItems = lines.filter((l) => left.get(l.id)! > 0).map((l) => ({ cartItemId: l.id, quantity: left.get(l.id)! }))
  const own: PlannedParcel = { key: OWN_PARCEL, entry: null, shippingMethod: ownMethod, giftMessage: '', recipientEmail: '', items: ownItems }
  // The shopper's own parcel is listed when it holds anything, or when nothing ships elsewhere (an empty cart).
  return ownItems.length > 0 || booked.length === 0 ? [own, ...booked] : booked
}

const pricedLine = (line: Line, quantity: number): PricedLine => ({
  priceCents: toCents(line.metadata.price),
  salePriceCents: toCents(line.metadata.salePrice),
  quantity,
  variantId: line.metadata.variantId,
})

/**
 * The plan's money (catalogue/pricing.ts parcelledTotals): the shopper's own parcel taxed for `ownDestination`
 * (an estimate until the address is given), each other one for its entry's state, estimated while `estimated`.
 */
export function planTotals(
  plan: PlannedParcel[],
  lines: Line[],
  availableCreditCents: number,
  ownDestination: TaxDestination | null,
  estimated = true,
  quotes: ShippingQuotes | null = null,
) {
  const byId = new Map(lines.map((l) => [l.id, l]))
  return parcelledTotals(
    plan.map((p) => {
      const quoted = quotes?.get(p.key)?.[p.shippingMethod]
      return {
        key: p.key,
        lines: p.items.map((i) => pricedLine(byId.get(i.cartItemId)!, i.quantity)),
        shippingMethod: p.shippingMethod,
        destination: p.entry ? { state: p.entry.state, estimated } : ownDestination,
        ...(typeof quoted === 'number' ? { shippingQuoteCents: quoted } : {}),
      }
    }),
    availableCreditCents,
    storeBundles,
  )
}

/**
 * The print provider's shipping quotes for each parcel of the plan (services/shipping-quotes.ts), fetched before the
 * money is decided and handed to planTotals; null without a provider that quotes (the table prices every parcel).
 * The shopper's own parcel is quoted for `ownDestination` until its address is given.
 */
export async function planQuotes(quoter: ShippingQuoter | null, plan: PlannedParcel[], lines: Line[], ownDestination: TaxDestination | null) {
  if (!quoter) return null
  const byId = new Map(lines.map((l) => [l.id, l]))
  return quoter.quotePlan(
    plan.map((p) => ({
      key: p.key,
      lines: p.items.map((i) => ({ variantId: byId.get(i.cartItemId)!.metadata.variantId, quantity: i.quantity })),
      destination: p.entry ? { state: p.entry.state, estimated: false } : ownDestination,
    })),
  )
}

/**
 * Refuses (409) a plan with a parcel the provider does not ship by its method (a quote of null), naming each one;
 * `keys` limits the check to the parcels a change sets. Called before anything is written.
 */
export function refuseUnshippable(plan: PlannedParcel[], quotes: ShippingQuotes | null, keys?: readonly string[]) {
  if (!quotes) return
  const refused = plan.filter((p) => (!keys || keys.includes(p.key)) && p.items.length > 0 && quotes.get(p.key)?.[p.shippingMethod] === null)
  if (refused.length === 0) return
  const names = refused.map((p) => `${shippingMethods[p.shippingMethod].label} to ${p.entry?.label ?? 'you'}`).join(', ')
  throw new AppError('conflict', `${names} is no longer offered for what the parcel holds; choose another shipping method for it`)
}

/** The address a parcel to an entry ships to; an entry without an e-mail gets the shopper's, for the carrier's notices. */
export function entryAddress(entry: EntryRow, shopperEmail: string): ShippingAddress {
  return {
    name: entry.name,
    email: entry.email || shopperEmail,
    phone: entry.phone,
    line1: entry.line1,
    line2: entry.line2,
    city: entry.city,
    state: entry.state,
    postalCode: entry.postalCode,
    country: 'US',
  }
}

/** The plan as a checkout session keeps it; `arrivesBy` gives each method's promise for when the checkout began. */
export function sessionParcelsOf(plan: PlannedParcel[], shopperEmail: string, arrivesBy: (method: ShippingMethodId) => string): SessionParcel[] {
  return plan.map((p) => ({
    key: p.key,
    addressId: p.entry?.id ?? null,
    label: p.entry?.label ?? null,
    shippingAddress: p.entry ? entryAddress(p.entry, shopperEmail) : null,
    shippingMethod: p.shippingMethod,
    arrivesBy: arrivesBy(p.shippingMethod),
    items: p.items,
    giftMessage: p.giftMessage || null,
    recipientEmail: p.recipientEmail || null,
  }))
}

/**
 * What a checkout session must still match for its payment to be the cart's: each parcel's key, method, lines,
 * message, recipient and address. A session made before parcels compares by its lines only (null).
 */
export function planSignature(parcels: Pick<SessionParcel, 'key' | 'shippingMethod' | 'items' | 'giftMessage' | 'recipientEmail' | 'shippingAddress'>[]) {
  return JSON.stringify(
    parcels.map((p) => [
      p.key,
      p.shippingMethod,
      p.items.map((i) => [i.cartItemId, i.quantity]),
      p.giftMessage ?? '',
      p.recipientEmail ?? '',
      p.shippingAddress
        ? [
            p.shippingAddress.name,
            p.shippingAddress.line1,
            p.shippingAddress.line2,
            p.shippingAddress.city,
            p.shippingAddress.state,
            p.shippingAddress.postalCode,
          ]
        : null,
    ]),
  )
}
