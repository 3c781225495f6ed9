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
 * Bundle savings come off the goods first; free shipping and the store-credit cap then look at the
 * goods after them. Store credit pays for ornaments, not shipping (Stripe's coupons cannot discount
 * shipping, and one rule for every checkout keeps the totals the shopper sees equal to what they are
 * charged), and it leaves at least MIN_CHARGE_CENTS to pay.
 */
/**
 * Where the goods go, for sales tax: the state, and whether the tax is an estimate (the cart, a checkout not yet
 * paid: the address may still change) or what was charged. Null: no address known yet, no tax shown.
 */
export type TaxDestination = { state: string; estimated: boolean }

/** The sales tax part of a set of totals (the contract's taxSchema). */
export type TotalsTax = { state: string; estimated: boolean; source: 'table' | 'stripe' }

export function cartTotals(
  lines: PricedLine[],
  availableCreditCents = 0,
  bundles: readonly BundleRule[] = [],
  shippingMethod: ShippingMethodId = DEFAULT_SHIPPING_METHOD,
  destination: TaxDestination | null = null,
) {
  const subtotalCents = lines.reduce((sum, l) => sum + l.priceCents * l.quantity, 0)
  const saleSubtotal = lines.reduce((sum, l) => sum + Math.min(l.salePriceCents, l.priceCents) * l.quantity, 0)
  const itemCount = lines.reduce((sum, l) => sum + l.quantity, 0)
  const applied = applyBundles(lines, bundles)
  const bundleSavingsCents = applied.reduce((sum, b) => sum + b.savingsCents, 0)
  const goodsCents = saleSubtotal - bundleSavingsCents
  const shippingCents = shippingPriceCents(shippingMethod, goodsCents, itemCount)
  const beforeCredit = goodsCents + shippingCents
  const creditable = Math.min(goodsCents, beforeCredit - MIN_CHARGE_CENTS)
  const creditsCents = Math.max(0, Math.min(availableCreditCents, creditable))
  return withSalesTax(
    {
      currency: 'usd' as const,
      itemCount,
      subtotalCents,
      saleSavingsCents: subtotalCents - saleSubtotal,
      bundleSavingsCents,
      bundles: applied,
      shippingMethod,
      shippingCents,
      creditsCents,
      totalCents: beforeCredit - creditsCents,
      freeShippingRemainingCents: itemCount === 0 ? FREE_SHIPPING_THRESHOLD_CENTS : Math.max(0, FREE_SHIPPING_THRESHOLD_CENTS - goodsCents),
      taxCents: 0,
      tax: null as TotalsTax | null,
    },
    destination,
  )
}

/** The money fields withSalesTax reads and writes. */
type Taxable = {
  subtotalCents: number
  saleSavingsCents: number
  bundleSavingsCents: number
  shippingCents: number
  creditsCents: number
  totalCents: number
  taxCents: number
  tax: TotalsTax | null
}

/**
 * The same totals with the sales tax of `destination` (the state table), replacing any tax they held. The tax is
 * on the goods after sale prices, bundle savings and store credit (all discounts the store funds), plus shipping
 * where the state taxes it (decision 052). The total is what is charged: goods − credit + shipping + tax.
 */
export function withSalesTax<T extends Taxable>(totals: T, destination: TaxDestination | null): T {
  const untaxedTotal = totals.totalCents - totals.taxCents
  if (!destination) return { ...totals, taxCents: 0, tax: null, totalCents: untaxedTotal }
  const taxableGoods = totals.subtotalCents - totals.saleSavingsCents - totals.bundleSavingsCents - totals.creditsCents
  const taxCents = salesTaxCents(destination.state, taxableGoods, totals.shippingCents)
  return { ...totals, taxCents, tax: { state: destination.state, estimated: destination.estimated, source: 'table' }, totalCents: untaxedTotal + taxCents }
}

/** The totals with the tax a payment provider computed and charged (Stripe Tax) in place of the table's. */
export function withProviderTax<T extends Taxable>(totals: T, state: string, taxCents: number): T {
  return { ...totals, taxCents, tax: { state, estimated: false, source: 'stripe' }, totalCents: totals.totalCents - totals.taxCents + taxCents }
}
