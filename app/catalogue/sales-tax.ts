/**
 * Sales tax with the local checkout (the embedded default): a table of US state rates kept here in the
 * catalogue. With Stripe, Stripe Tax computes the tax instead and the order records what Stripe charged
 * (docs/decisions/052-sales-tax.md).
 *
 * The table holds each state's own base rate only (no county, city or district rates) and whether the state
 * taxes a delivery charge stated separately on the invoice, as ours always is. It is a stand-in for a tax
 * service, labelled as such in the README, not tax advice: a store that collects for real uses Stripe Tax.
 *
 * Rates are in thousandths of a percent (7.25 % is 7250), so every rate in the table is a whole number.
 */
export type StateTaxRule = {
  /** Thousandths of a percent: 7.25 % is 7250. */
  rate: number
  /** Whether a separately stated delivery charge is taxed too. */
  taxesShipping: boolean
}

const rule = (percent: number, taxesShipping: boolean): StateTaxRule => ({ rate: Math.round(percent * 1000), taxesShipping })

/** State base rates (2026), and the states that tax separately stated shipping. */
export const stateTaxRules: Record<string, StateTaxRule> = {
  AL: rule(4, false),
  AK: rule(0, false),
  AZ: rule(5.6, false),
  AR: rule(6.5, true),
  CA: rule(7.25, false),
  CO: rule(2.9, false),
  CT: rule(6.35, true),
  DE: rule(0, false),
  DC: rule(6, true),
  FL: rule(6, false),
  GA: rule(4, true),
  HI: rule(4, true),
  ID: rule(6, false),
  IL: rule(6.25, false),
  IN: rule(7, true),
  IA: rule(6, false),
  KS: rule(6.5, true),
  KY: rule(6, true),
  LA: rule(5, false),
  ME: rule(5.5, false),
  MD: rule(6, false),
  MA: rule(6.25, false),
  MI: rule(6, true),
  MN: rule(6.875, true),
  MS: rule(7, true),
  MO: rule(4.225, false),
  MT: rule(0, false),
  NE: rule(5.5, true),
  NV: rule(6.85, false),
  NH: rule(0, false),
  NJ: rule(6.625, true),
  NM: rule(4.875, true),
  NY: rule(4, true),
  NC: rule(4.75, true),
  ND: rule(5, true),
  OH: rule(5.75, true),
  OK: rule(4.5, false),
  OR: rule(0, false),
  PA: rule(6, true),
  RI: rule(7, true),
  SC: rule(6, true),
  SD: rule(4.2, true),
  TN: rule(7, true),
  TX: rule(6.25, true),
  UT: rule(4.85, false),
  VT: rule(6, true),
  VA: rule(4.3, false),
  WA: rule(6.5, true),
  WV: rule(6, true),
  WI: rule(5, true),
  WY: rule(4, false),
}

/** A state's rule; a code the table does not hold (a territory, a typo) is taxed at nothing. */
export const taxRuleOf = (state: string): StateTaxRule => stateTaxRules[state.trim().toUpperCase()] ?? { rate: 0, taxesShipping: false }

/**
 * The tax on one parcel, whole cents: the state's rate on the goods after every discount (sale prices, bundle
 * savings, store credit), plus shipping where the state taxes it, rounded half up once for the parcel.
 */
export function salesTaxCents(state: string, taxableGoodsCents: number, shippingCents: number): number {
  const { rate, taxesShipping } = taxRuleOf(state)
  const taxable = Math.max(0, taxableGoodsCents) + (taxesShipping ? Math.max(0, shippingCents) : 0)
  return Math.floor((taxable * rate + 50_000) / 100_000)
}

/** What the tax fields of a set of totals say (the contract's totals.tax and taxCents). */
type TaxOfTotals = { taxCents: number; tax: { state: string; estimated: boolean } | null }

/**
 * The label of the tax line wherever totals are listed (pages and e-mails): "Estimated tax (CA)" while the
 * address may change, "Sales tax (CA)" once charged; null when the totals hold no tax (no address known yet,
 * or an order from before sales tax).
 */
export function taxLineLabel(totals: TaxOfTotals): string | null {
  if (!totals.tax) return null
  return `${totals.tax.estimated ? 'Estimated tax' : 'Sales tax'} (${totals.tax.state})`
}
