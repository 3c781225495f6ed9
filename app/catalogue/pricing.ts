/**
 * Money rules of the cart, in whole cents. The server computes every total with these; the client
 * only shows what the server answered.
 */
import { salesTaxCents } from './sales-tax'
import { DEFAULT_SHIPPING_METHOD, FREE_SHIPPING_THRESHOLD_CENTS, shippingPriceCents, type ShippingMethodId } from './shipping'

export const toCents = (dollars: number) => Math.round(dollars * 100)

/** Store credit never takes a payment below this (Stripe's smallest US charge), so every checkout has a payment to take. */
export const MIN_CHARGE_CENTS = 50

/** `variantId` lets a line count towards bundles; a line without one never does. */
export type PricedLine = { priceCents: number; salePriceCents: number; quantity: number; variantId?: number }

/** A bundle a cart's totals applied: how many complete sets it holds and what they save together (the contract's appliedBundleSchema). */
export type AppliedBundle = { id: string; title: string; sets: number; savingsCents: number }

/** A bundle as the money rules see it: these items together cost `savingsCents` less than their sale prices. */
export type BundleRule = {
  id: string
  title: string
  items: readonly { variantId: number; quantity: number }[]
  savingsCents: number
}

/**
 * Complete sets of each bundle the lines hold, counted greedily: the bundle saving most per set takes
 * its sets first, then the next from what is left. A set never saves more than its items cost here.
 */
export function applyBundles(lines: readonly PricedLine[], bundles: readonly BundleRule[]): AppliedBundle[] {
  const left = new Map<number, number>()
  const unitCents = new Map<number, number>()
  for (const line of lines) {
    if (line.variantId === undefined || line.quantity <= 0) continue
    left.set(line.variantId, (left.get(line.variantId) ?? 0) + line.quantity)
    const unit = Math.min(line.salePriceCents, line.priceCents)
    unitCents.set(line.variantId, Math.min(unitCents.get(line.variantId) ?? unit, unit))
  }
  const bestFirst = [...bundles].sort((a, b) => b.savingsCents - a.savingsCents || a.id.localeCompare(b.id))
  const applied: AppliedBundle[] = []
  for (const bundle of bestFirst) {
    const needs = new Map<number, number>()
    for (const item of bundle.items) needs.set(item.variantId, (needs.get(item.variantId) ?? 0) + item.quantity)
    if (needs.size === 0 || bundle.savingsCents <= 0 || [...needs.values()].some((n) => !Number.isInteger(n) || n <= 0)) continue
    const sets = Math.min(...[...needs].map(([variantId, n]) => Math.floor((left.get(variantId) ?? 0) / n)))
    if (sets <= 0) continue
    const setCents = [...needs].reduce((sum, [variantId, n]) => sum + unitCents.get(variantId)! * n, 0)
    for (const [variantId, n] of needs) left.set(variantId, left.get(variantId)! - sets * n)
    applied.push({ id: bundle.id, title: bundle.title, sets, savingsCents: sets * Math.min(bundle.savingsCents, setCents) })
  }
  return applied
}

/**
 * Where the goods go, for sales tax: the state, and whether the tax is an estimate (the cart, a checkout not yet
 * paid: the address may still change) or what was charged. Null: no address known yet, no tax shown.
 */
export type TaxDestination = { state: string; estimated: boolean }

/** The sales tax part of a set of totals (the contract's taxSchema). */
export type TotalsTax = { state: string; estimated: boolean; source: 'table' | 'stripe' }

/** The key of the parcel that goes to the address the checkout asks for (the shopper's own); others are keyed by their address book entry. */
export const OWN_PARCEL = 'own'

/** One parcel of a cart as the money rules see it: its lines (the quantities it holds), its shipping, where it goes. */
export type ParcelPlan = {
  key: string
  lines: PricedLine[]
  shippingMethod: ShippingMethodId
  destination: TaxDestination | null
  /** The print provider's quote for this parcel by its method (services/shipping-quotes.ts); absent: the table's price. */
  shippingQuoteCents?: number
}

/** A parcel's share of the totals (the contract's parcelTotalsSchema); the totals' figures are the sums of these. */
export type ParcelTotals = {
  key: string
  shippingMethod: ShippingMethodId
  itemCount: number
  /** The parcel's goods at sale prices, less its share of the bundle savings: what its shipping and free shipping look at. */
  goodsCents: number
  bundleSavingsCents: number
  shippingCents: number
  /** Its share of the store credit (what its tax is reduced by). */
  creditsCents: number
  taxCents: number
  tax: TotalsTax | null
}

/**
 * `total` split into whole cents in proportion to `weights` (largest remainder, ties to the earlier): the parts add
 * up to `total` exactly, and no part exceeds its weight while `total` does not exceed the weights' sum.
 */
export function allocateCents(total: number, weights: readonly number[]): number[] {
  const sum = weights.reduce((a, b) => a + b, 0)
  if (sum <= 0 || total <= 0) return weights.map(() => 0)
  const exact = weights.map((w) => (total * w) / sum)
  const parts = exact.map(Math.floor)
  let left = total - parts.reduce((a, b) => a + b, 0)
  const byRemainder = exact.map((e, i) => [e - Math.floor(e), i] as const).sort((a, b) => b[0] - a[0] || a[1] - b[1])
  for (const [, i] of byRemainder) {
    if (left <= 0) break
    parts[i]!++
    left--
  }
  return parts
}

/**
 * The cart's money when it ships to one address (the shopper's own): cartTotals of one parcel.
 */
export function cartTotals(
  lines: PricedLine[],
  availableCreditCents = 0,
  bundles: readonly BundleRule[] = [],
  shippingMethod: ShippingMethodId = DEFAULT_SHIPPING_METHOD,
  destination: TaxDestination | null = null,
) {
  return parcelledTotals([{ key: OWN_PARCEL, lines, shippingMethod, destination }], availableCreditCents, bundles)
}

/**
 * The one function that decides what a shopper is charged, for a cart shipping in one or more parcels.
 *
 * Bundle sets are counted over the whole cart (a set may ship in two parcels) and their savings come off the goods
 * first, shared between the parcels in proportion to their goods. Each parcel pays its own shipping, by its own
 * method (the print provider's quote when it gave one, decision 072), free when its own goods reach the threshold. Store credit pays for ornaments, not shipping (Stripe's
 * coupons cannot discount shipping, and one rule for every checkout keeps the totals the shopper sees equal to what
 * they are charged), leaves at least MIN_CHARGE_CENTS to pay, and is shared between the parcels like the bundle
 * savings. Each parcel is taxed where it goes (withSalesTax; decision 052, decision 055).
 */
export function parcelledTotals(parcels: readonly ParcelPlan[], availableCreditCents = 0, bundles: readonly BundleRule[] = []) {
  const lines = parcels.flatMap((p) => p.lines)
  const subtotalCents = lines.reduce((sum, l) => sum + l.priceCents * l.quantity, 0)
  const saleOf = (ls: readonly PricedLine[]) => ls.reduce((sum, l) => sum + Math.min(l.salePriceCents, l.priceCents) * l.quantity, 0)
  const saleSubtotal = saleOf(lines)
  const itemCount = lines.reduce((sum, l) => sum + l.quantity, 0)
  const applied = applyBundles(lines, bundles)
  const bundleSavingsCents = applied.reduce((sum, b) => sum + b.savingsCents, 0)
  const goodsCents = saleSubtotal - bundleSavingsCents
  const bundleShares = allocateCents(
    bundleSavingsCents,
    parcels.map((p) => saleOf(p.lines)),
  )
  const shaped = parcels.map((p, i) => {
    const count = p.lines.reduce((sum, l) => sum + l.quantity, 0)
    const goods = saleOf(p.lines) - bundleShares[i]!
    return { p, count, goods, bundle: bundleShares[i]!, shipping: shippingPriceCents(p.shippingMethod, goods, count, p.shippingQuoteCents) }
  })
  const shippingCents = shaped.reduce((sum, s) => sum + s.shipping, 0)
  const beforeCredit = goodsCents + shippingCents
  const creditable = Math.min(goodsCents, beforeCredit - MIN_CHARGE_CENTS)
  const creditsCents = Math.max(0, Math.min(availableCreditCents, creditable))
  const creditShares = allocateCents(
    creditsCents,
    shaped.map((s) => s.goods),
  )
  const first = shaped[0]
  let totals = {
    currency: 'usd' as const,
    itemCount,
    subtotalCents,
    saleSavingsCents: subtotalCents - saleSubtotal,
    bundleSavingsCents,
    bundles: applied,
    shippingMethod: first?.p.shippingMethod ?? DEFAULT_SHIPPING_METHOD,
    shippingCents,
    creditsCents,
    totalCents: beforeCredit - creditsCents,
    freeShippingRemainingCents: !first || first.count === 0 ? FREE_SHIPPING_THRESHOLD_CENTS : Math.max(0, FREE_SHIPPING_THRESHOLD_CENTS - first.goods),
    taxCents: 0,
    tax: null as TotalsTax | null,
    parcels: shaped.map((s, i): ParcelTotals => ({
      key: s.p.key,
      shippingMethod: s.p.shippingMethod,
      itemCount: s.count,
      goodsCents: s.goods,
      bundleSavingsCents: s.bundle,
      shippingCents: s.shipping,
      creditsCents: creditShares[i]!,
      taxCents: 0,
      tax: null,
    })),
  }
  for (const s of shaped) totals = withSalesTax(totals, s.p.destination, s.p.key)
  return totals
}

/** The money fields the tax functions read and write. Totals made before parcels have none: one parcel, the whole. */
type Taxable = {
  subtotalCents: number
  saleSavingsCents: number
  bundleSavingsCents: number
  shippingCents: number
  creditsCents: number
  totalCents: number
  taxCents: number
  tax: TotalsTax | null
  parcels?: ParcelTotals[] | undefined
}

/** The totals' tax fields from their parcels': the sum, and the states in parcel order ("NY, CA"). */
function withTaxOfParcels<T extends Taxable>(totals: T, parcels: ParcelTotals[]): T {
  const taxCents = parcels.reduce((sum, p) => sum + p.taxCents, 0)
  const taxed = parcels.filter((p) => p.tax)
  const states = [...new Set(taxed.map((p) => p.tax!.state))]
  const tax: TotalsTax | null =
    taxed.length === 0
      ? null
      : { state: states.join(', '), estimated: taxed.some((p) => p.tax!.estimated), source: taxed.some((p) => p.tax!.source === 'stripe') ? 'stripe' : 'table' }
  return { ...totals, parcels, taxCents, tax, totalCents: totals.totalCents - totals.taxCents + taxCents }
}

/**
 * The same totals with one parcel's tax replaced (the shopper's own unless `key` says which): `taxCents` and who
 * computed it, or no tax for a null `tax`. Totals made before parcels are one parcel, the whole.
 */
export function withParcelTax<T extends Taxable>(totals: T, key: string, taxCents: number, tax: TotalsTax | null): T {
  if (!totals.parcels || totals.parcels.length === 0) {
    return { ...totals, taxCents: tax ? taxCents : 0, tax, totalCents: totals.totalCents - totals.taxCents + (tax ? taxCents : 0) }
  }
  const parcels = totals.parcels.map((p) => (p.key === key ? { ...p, taxCents: tax ? taxCents : 0, tax } : p))
  return withTaxOfParcels(totals, parcels)
}

/**
 * The same totals with the sales tax of `destination` (the state table) on one parcel (the shopper's own unless
 * `key` says which), replacing any tax it held. The tax is on the parcel's goods after sale prices, bundle savings
 * and store credit (all discounts the store funds), plus its shipping where the state taxes it (decision 052). The
 * total is what is charged: goods − credit + shipping + tax.
 */
export function withSalesTax<T extends Taxable>(totals: T, destination: TaxDestination | null, key: string = OWN_PARCEL): T {
  if (!destination) return withParcelTax(totals, key, 0, null)
  const parcel = totals.parcels?.find((p) => p.key === key)
  if (totals.parcels?.length && !parcel) return totals
  const taxableGoods = parcel
    ? parcel.goodsCents - parcel.creditsCents
    : totals.subtotalCents - totals.saleSavingsCents - totals.bundleSavingsCents - totals.creditsCents
  const taxCents = salesTaxCents(destination.state, taxableGoods, parcel ? parcel.shippingCents : totals.shippingCents)
  return withParcelTax(totals, key, taxCents, { state: destination.state, estimated: destination.estimated, source: 'table' })
}

/** The totals with the tax a payment provider computed and charged (Stripe Tax) on one parcel (the shopper's own unless `key` says which). */
export function withProviderTax<T extends Taxable>(totals: T, state: string, taxCents: number, key: string = OWN_PARCEL): T {
  return withParcelTax(totals, key, taxCents, { state, estimated: false, source: 'stripe' })
}
