/**
 * Shipping priced from the print provider's own quote (issue 42, item 1; docs/decisions/072-printify-shipping-quotes.md).
 * With Printify, a parcel's shipping by a method is what Printify charges for its variants to its country by that
 * method; a method Printify does not list for a variant and country is not offered. The quotes are fetched here,
 * before the money is decided, and handed to planTotals as data: the one function that decides what a shopper is
 * charged stays synchronous and stays the only one. When Printify cannot answer, the store's table prices the parcel.
 */
import type { PricedLine, TaxDestination } from '../../catalogue/pricing'
import { ornamentProduct } from '../../catalogue/ornaments'
import { shippingMethodIds, type ShippingMethodId } from '../../catalogue/shipping'
import type { PrintProvider, ShippingCost } from '../providers/print/provider'

/** A quote is kept this long: Printify changes its shipping prices rarely, and 600 requests a minute are shared. */
export const QUOTE_TTL_MS = 6 * 60 * 60 * 1000
/** After Printify failed to answer, it is asked again after this long; the table prices parcels meanwhile. */
export const QUOTE_RETRY_AFTER_MS = 60_000
/** At most this many quotes are kept (variant × country × state × method); the oldest go first. */
export const QUOTE_CACHE_ENTRIES = 5000
/** The store ships to the United States only (contract/cart.ts addresses). */
const COUNTRY = 'US'
/** Printify's row for every country it does not name. */
const REST_OF_THE_WORLD = 'REST_OF_THE_WORLD'

/** A variant's rate by one method: the first item and each further one, in cents; null: not shipped that way. */
type Rate = { firstItemCents: number; additionalItemsCents: number } | null

/**
 * A parcel's quote by each method, in cents before the free-shipping rule: null where the provider does not ship it
 * that way, absent where it could not say (the table's price then).
 */
export type ParcelQuote = Partial<Record<ShippingMethodId, number | null>>
/** The quotes of a plan, by parcel key. */
export type ShippingQuotes = Map<string, ParcelQuote>

/** What a parcel holds and where it goes, as the quotes need it. */
export type QuotedParcel = { key: string; lines: Pick<PricedLine, 'variantId' | 'quantity'>[]; destination: TaxDestination | null }

export class ShippingQuoter {
  private readonly cache = new Map<string, { expiresAt: number; rate: Rate }>()
  private readonly pending = new Map<string, Promise<ShippingCost[]>>()
  /** Printify's last answer for each method (one product, so at most one entry per method). */
  private readonly answers = new Map<string, { expiresAt: number; rows: ShippingCost[] }>()
  /** Until when a method that failed is not asked again. */
  private readonly failedUntil = new Map<string, number>()

  constructor(
    private readonly provider: PrintProvider & Required<Pick<PrintProvider, 'shippingCosts'>>,
    private readonly now: () => number = Date.now,
  ) {}

  /** One variant's rate to a country and state by a method; undefined when the provider cannot answer. */
  async rate(variantId: number, state: string, method: ShippingMethodId): Promise<Rate | undefined> {
    const key = `${variantId}:${COUNTRY}:${state}:${method}`
    const kept = this.cache.get(key)
    if (kept && kept.expiresAt > this.now()) return kept.rate
    let rows: ShippingCost[]
    try {
      rows = await this.costs(method)
    } catch {
      return undefined
    }
    // One answer holds every variant: each one asked for this address and method is kept from it.
    const variants = new Set([variantId, ...rows.map((r) => r.variantId)])
    for (const v of variants) this.keep(`${v}:${COUNTRY}:${state}:${method}`, rateOf(rows, v))
    return rateOf(rows, variantId)
  }

  /** Each parcel's quote by every store method. */
  async quotePlan(parcels: readonly QuotedParcel[]): Promise<ShippingQuotes> {
    const quotes: ShippingQuotes = new Map()
    await Promise.all(
      parcels.map(async (p) => {
        const state = p.destination?.state ?? ''
        const quote: ParcelQuote = {}
        for (const method of shippingMethodIds) {
          const rates = await Promise.all(p.lines.map((l) => (l.variantId === undefined ? undefined : this.rate(l.variantId, state, method))))
          const price = parcelPrice(p.lines, rates)
          if (price !== undefined) quote[method] = price
        }
        quotes.set(p.key, quote)
      }),
    )
    return quotes
  }

  /**
   * A method's answer: it lists every variant and country at once and does not depend on the state, so it is kept
   * (as long as a quote) for the next address too; simultaneous misses share one request. After a failure the table
   * prices parcels for QUOTE_RETRY_AFTER_MS before Printify is asked again, so an outage is not asked on every view.
   */
  private costs(method: ShippingMethodId): Promise<ShippingCost[]> {
    const kept = this.answers.get(method)
    if (kept && kept.expiresAt > this.now()) return Promise.resolve(kept.rows)
    if ((this.failedUntil.get(method) ?? 0) > this.now()) return Promise.reject(new Error('Printify could not quote shipping a moment ago'))
    let call = this.pending.get(method)
    if (!call) {
      call = this.provider
        .shippingCosts({ blueprintId: ornamentProduct.providerProductId, printProviderId: ornamentProduct.printProviderId, method })
        .then((rows) => {
          this.answers.set(method, { expiresAt: this.now() + QUOTE_TTL_MS, rows })
          return rows
        })
        .catch((error: unknown) => {
          this.failedUntil.set(method, this.now() + QUOTE_RETRY_AFTER_MS)
          throw error
        })
        .finally(() => this.pending.delete(method))
      this.pending.set(method, call)
    }
    return call
  }

  private keep(key: string, rate: Rate) {
    this.cache.delete(key)
    this.cache.set(key, { expiresAt: this.now() + QUOTE_TTL_MS, rate })
    while (this.cache.size > QUOTE_CACHE_ENTRIES) this.cache.delete(this.cache.keys().next().value!)
  }
}

/** The variant's row for the country, else Printify's rest-of-the-world row; null when neither is listed. */
function rateOf(rows: readonly ShippingCost[], variantId: number): Rate {
  const row =
    rows.find((r) => r.variantId === variantId && r.country === COUNTRY) ?? rows.find((r) => r.variantId === variantId && r.country === REST_OF_THE_WORLD)
  return row ? { firstItemCents: row.firstItemCents, additionalItemsCents: row.additionalItemsCents } : null
}

/**
 * Printify's price for a parcel of one product: one item at its first-item rate, every other at its additional-item
 * rate; the first is the item whose first-item rate adds the most, as Printify charges. Null when a line is not
 * shipped that way; undefined when a rate is unknown (the table then) or the parcel is empty.
 */
export function parcelPrice(lines: readonly Pick<PricedLine, 'quantity'>[], rates: readonly (Rate | undefined)[]): number | null | undefined {
  if (lines.length === 0 || rates.some((r) => r === undefined)) return undefined
  if (rates.some((r) => r === null)) return null
  const known = rates as { firstItemCents: number; additionalItemsCents: number }[]
  const additional = known.reduce((sum, r, i) => sum + r.additionalItemsCents * lines[i]!.quantity, 0)
  return additional + Math.max(...known.map((r) => r.firstItemCents - r.additionalItemsCents))
}

const quoters = new WeakMap<PrintProvider, ShippingQuoter>()

/**
 * The print provider's quoter (one cache per provider, so per Printify account: printProviderFor shares one per
 * token), on the app's clock; null for a provider without quotes (local).
 */
export function shippingQuoterFor(deps: { print: PrintProvider; now: () => Date }): ShippingQuoter | null {
  const provider = deps.print
  if (!provider.shippingCosts) return null
  let quoter = quoters.get(provider)
  if (!quoter) {
    quoter = new ShippingQuoter(provider as PrintProvider & Required<Pick<PrintProvider, 'shippingCosts'>>, () => deps.now().getTime())
    quoters.set(provider, quoter)
  }
  return quoter
}
