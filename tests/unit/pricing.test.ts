import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { storeBundles } from '../../app/api/services/bundles'
import { variantOfShape, type OrnamentShape } from '../../app/catalogue/ornaments'
import {
  allocateCents,
  applyBundles,
  cartTotals,
  OWN_PARCEL,
  parcelledTotals,
  MIN_CHARGE_CENTS,
  toCents,
  withProviderTax,
  withSalesTax,
  type BundleRule,
  type PricedLine,
} from '../../app/catalogue/pricing'
import { stateTaxRules } from '../../app/catalogue/sales-tax'
import { stateNames } from '../../app/catalogue/zip-states'
import { FREE_SHIPPING_THRESHOLD_CENTS, SHIPPING_CENTS } from '../../app/catalogue/shipping'

/** A cart line of one shape at the catalogue's prices, as cart.ts builds it. */
const line = (shape: OrnamentShape, quantity = 1): PricedLine => {
  const v = variantOfShape(shape)
  return { priceCents: toCents(v.price), salePriceCents: toCents(v.salePrice), quantity, variantId: v.id }
}
const totals = (lines: PricedLine[], credit = 0) => cartTotals(lines, credit, storeBundles)
/** The store's bundles and a smaller one that overlaps them, to see which sets are counted first. */
const twoStars: BundleRule = { id: 'two-stars', title: 'Two stars', items: [{ variantId: variantOfShape('star').id, quantity: 2 }], savingsCents: 600 }
const withTwoStars = (lines: PricedLine[], credit = 0) => cartTotals(lines, credit, [...storeBundles, twoStars])

describe('cart totals', () => {
  it('one star pair: list 29.99, sale 24.99, plus shipping', () => {
    expect(cartTotals([{ priceCents: 2999, salePriceCents: 2499, quantity: 1 }])).toMatchObject({
      subtotalCents: 2999,
      saleSavingsCents: 500,
      shippingCents: SHIPPING_CENTS,
      totalCents: 2499 + SHIPPING_CENTS,
    })
  })

  it('credit pays for the ornaments, not shipping, and never takes the total below the minimum charge', () => {
    const one = [{ priceCents: 2999, salePriceCents: 2499, quantity: 1 }]
    expect(cartTotals(one, 100_000)).toMatchObject({ creditsCents: 2499, totalCents: SHIPPING_CENTS })
    expect(cartTotals(one, 1000)).toMatchObject({ creditsCents: 1000, totalCents: 1499 + SHIPPING_CENTS })
    // Free shipping: the credit leaves the minimum charge to pay.
    const two = [{ priceCents: 2999, salePriceCents: 2499, quantity: 3 }]
    expect(cartTotals(two, 100_000)).toMatchObject({ shippingCents: 0, creditsCents: 3 * 2499 - MIN_CHARGE_CENTS, totalCents: MIN_CHARGE_CENTS })
    expect(cartTotals([], 1000)).toMatchObject({ creditsCents: 0, totalCents: 0 })
  })

  it('for any cart: total = subtotal − savings + shipping − credits, never negative; free shipping from the threshold', () => {
    const line = fc.record({
      priceCents: fc.integer({ min: 0, max: 10_000 }),
      salePriceCents: fc.integer({ min: 0, max: 10_000 }),
      quantity: fc.integer({ min: 1, max: 10 }),
    })
    fc.assert(
      fc.property(fc.array(line, { maxLength: 20 }), fc.integer({ min: 0, max: 50_000 }), (lines, credit) => {
        const t = cartTotals(lines, credit)
        expect(t.totalCents).toBe(t.subtotalCents - t.saleSavingsCents + t.shippingCents - t.creditsCents)
        expect(t.totalCents).toBeGreaterThanOrEqual(0)
        expect(t.creditsCents).toBeLessThanOrEqual(Math.min(credit, t.subtotalCents - t.saleSavingsCents))
        if (t.creditsCents > 0) expect(t.totalCents).toBeGreaterThanOrEqual(MIN_CHARGE_CENTS)
        expect(t.saleSavingsCents).toBeGreaterThanOrEqual(0)
        const sale = t.subtotalCents - t.saleSavingsCents
        expect(t.shippingCents).toBe(lines.length === 0 || sale >= FREE_SHIPPING_THRESHOLD_CENTS ? 0 : SHIPPING_CENTS)
      }),
    )
  })
})

describe('cart totals by shipping method', () => {
  const star = { priceCents: 2999, salePriceCents: 2499, quantity: 1, variantId: variantOfShape('star').id }
  it('express costs its own price and is never free; standard is free from the threshold', () => {
    expect(cartTotals([star], 0, [], 'express')).toMatchObject({ shippingMethod: 'express', shippingCents: 1499, totalCents: 2499 + 1499 })
    const three = [{ ...star, quantity: 3 }]
    expect(cartTotals(three, 0, [], 'standard')).toMatchObject({ shippingMethod: 'standard', shippingCents: 0 })
    expect(cartTotals(three, 0, [], 'express')).toMatchObject({ shippingMethod: 'express', shippingCents: 1499, totalCents: 3 * 2499 + 1499 })
    expect(cartTotals([], 0, [], 'express')).toMatchObject({ shippingCents: 0, totalCents: 0 })
  })

  it('credit never pays for express shipping either', () => {
    expect(cartTotals([star], 100_000, [], 'express')).toMatchObject({ creditsCents: 2499, totalCents: 1499 })
  })
})

describe('the bundles on sale', () => {
  it('price the whole set from the catalogue’s sale prices', () => {
    expect(storeBundles.map((b) => [b.id, b.regularPriceCents, b.bundlePriceCents, b.savingsCents])).toEqual([['whole-set', 2499 + 2499 + 2799, 6997, 800]])
    expect(storeBundles[0]!.items.map((i) => [i.variantId, i.quantity, i.title])).toEqual([
      [72963, 1, 'Tree Photo Ornament'],
      [72965, 1, 'Star Photo Ornament'],
      [72960, 1, 'Stocking Photo Ornament'],
    ])
    expect(storeBundles.map((b) => b.shapes)).toEqual([['tree', 'star', 'stocking']])
  })

  it('each saves at least the shipping fee and costs more than nothing', () => {
    for (const b of storeBundles) {
      expect(b.savingsCents).toBe(b.regularPriceCents - b.bundlePriceCents)
      expect(b.savingsCents).toBeGreaterThanOrEqual(SHIPPING_CENTS)
      expect(b.bundlePriceCents).toBeGreaterThan(0)
    }
  })
})

describe('cart totals with bundles', () => {
  it('no complete set: no bundle savings', () => {
    expect(totals([line('tree'), line('star')])).toMatchObject({
      bundleSavingsCents: 0,
      bundles: [],
      shippingCents: SHIPPING_CENTS,
      totalCents: 2499 + 2499 + SHIPPING_CENTS,
    })
    expect(totals([])).toMatchObject({ bundleSavingsCents: 0, bundles: [], totalCents: 0 })
    // Stars alone are no set: the common cart of a few of one shape keeps its price.
    expect(totals([line('star', 3)])).toMatchObject({ bundleSavingsCents: 0, totalCents: 3 * 2499 })
  })

  it('one of each shape is the whole set at its bundle price, shipped free', () => {
    expect(totals([line('tree'), line('star'), line('stocking')])).toMatchObject({
      subtotalCents: 2999 + 2999 + 3299,
      saleSavingsCents: 1500,
      bundleSavingsCents: 800,
      bundles: [{ id: 'whole-set', title: 'The whole set', sets: 1, savingsCents: 800 }],
      shippingCents: 0,
      totalCents: 6997,
      freeShippingRemainingCents: 0,
    })
  })

  it('two of each shape are two whole sets, and leave no stars for a star bundle', () => {
    expect(withTwoStars([line('tree', 2), line('star', 2), line('stocking', 2)])).toMatchObject({
      bundleSavingsCents: 1600,
      bundles: [{ id: 'whole-set', sets: 2, savingsCents: 1600 }],
      totalCents: 2 * 6997,
    })
  })

  it('counts sets across lines of the same shape, best saving first', () => {
    // Three stars over two lines, a tree and a stocking: the whole set takes a star, the other two make two stars.
    const mixed = withTwoStars([line('star', 2), line('tree'), line('star'), line('stocking')])
    expect(mixed.bundles).toEqual([
      { id: 'whole-set', title: 'The whole set', sets: 1, savingsCents: 800 },
      { id: 'two-stars', title: 'Two stars', sets: 1, savingsCents: 600 },
    ])
    expect(mixed.bundleSavingsCents).toBe(1400)
    expect(mixed.totalCents).toBe(3 * 2499 + 2499 + 2799 - 1400)
    // Two stars with a tree and a stocking: the whole set saves more than two stars, so it wins.
    expect(withTwoStars([line('star', 2), line('tree'), line('stocking')]).bundles).toEqual([
      { id: 'whole-set', title: 'The whole set', sets: 1, savingsCents: 800 },
    ])
    // Five stars and a tree: two sets of two stars; the odd star and the tree pay their sale prices.
    expect(withTwoStars([line('star', 5), line('tree')])).toMatchObject({
      bundles: [{ id: 'two-stars', sets: 2, savingsCents: 1200 }],
      totalCents: 6 * 2499 - 1200,
    })
  })

  it('the order the bundles are listed in does not change the count', () => {
    const lines = [line('star', 3), line('tree'), line('stocking')]
    expect(cartTotals(lines, 0, [twoStars, ...storeBundles])).toEqual(withTwoStars(lines))
  })

  it('lines without a variant never make a set', () => {
    const anonymous = [line('tree'), line('star'), line('stocking')].map(({ variantId: _, ...rest }) => rest)
    expect(totals(anonymous)).toMatchObject({ bundleSavingsCents: 0, totalCents: 7797 })
  })

  it('store credit is capped at the goods after bundle savings and leaves the minimum charge', () => {
    const set = [line('tree'), line('star'), line('stocking')]
    expect(totals(set, 100_000)).toMatchObject({
      bundleSavingsCents: 800,
      shippingCents: 0,
      creditsCents: 6997 - MIN_CHARGE_CENTS,
      totalCents: MIN_CHARGE_CENTS,
    })
    expect(totals(set, 1000)).toMatchObject({ creditsCents: 1000, totalCents: 5997 })
    // Shipping is charged under two stars' bundle price: credit covers the goods only, never shipping.
    expect(withTwoStars([line('star', 2)], 100_000)).toMatchObject({
      bundleSavingsCents: 600,
      shippingCents: SHIPPING_CENTS,
      creditsCents: 4398,
      totalCents: SHIPPING_CENTS,
    })
  })

  it('free shipping is decided on the goods after bundle savings', () => {
    // Two stars: 49.98 at sale, 43.98 as a bundle, so $6.02 short of free shipping.
    expect(withTwoStars([line('star', 2)])).toMatchObject({
      shippingCents: SHIPPING_CENTS,
      freeShippingRemainingCents: FREE_SHIPPING_THRESHOLD_CENTS - 4398,
      totalCents: 4398 + SHIPPING_CENTS,
    })
    // A cart at the threshold before its bundle saving falls below it after.
    const pair: BundleRule[] = [{ id: 'pair', title: 'A pair', items: [{ variantId: 1, quantity: 2 }], savingsCents: 600 }]
    const lines = [{ priceCents: 2600, salePriceCents: 2600, quantity: 2, variantId: 1 }]
    expect(cartTotals(lines, 0, [])).toMatchObject({ shippingCents: 0, totalCents: 5200 })
    expect(cartTotals(lines, 0, pair)).toMatchObject({
      bundleSavingsCents: 600,
      shippingCents: SHIPPING_CENTS,
      freeShippingRemainingCents: 400,
      totalCents: 4600 + SHIPPING_CENTS,
    })
  })

  it('a set never saves more than its items cost', () => {
    const generous: BundleRule[] = [{ id: 'too-generous', title: 'Too generous', items: [{ variantId: 1, quantity: 1 }], savingsCents: 10_000 }]
    expect(applyBundles([{ priceCents: 2999, salePriceCents: 2499, quantity: 2, variantId: 1 }], generous)).toEqual([
      { id: 'too-generous', title: 'Too generous', sets: 2, savingsCents: 2 * 2499 },
    ])
  })

  it('for any cart and bundles: total = subtotal − sale savings − bundle savings + shipping − credits, in whole cents', () => {
    const variant = fc.integer({ min: 1, max: 4 })
    const pricedLine = fc.record({
      priceCents: fc.integer({ min: 0, max: 10_000 }),
      salePriceCents: fc.integer({ min: 0, max: 10_000 }),
      quantity: fc.integer({ min: 1, max: 10 }),
      variantId: variant,
    })
    const rule = fc.record({
      id: fc.string({ minLength: 1, maxLength: 6 }),
      title: fc.constant('A bundle'),
      items: fc.array(fc.record({ variantId: variant, quantity: fc.integer({ min: 1, max: 3 }) }), { minLength: 1, maxLength: 3 }),
      savingsCents: fc.integer({ min: 1, max: 5_000 }),
    })
    fc.assert(
      fc.property(
        fc.array(pricedLine, { maxLength: 12 }),
        fc.uniqueArray(rule, { selector: (r) => r.id, maxLength: 4 }),
        fc.integer({ min: 0, max: 50_000 }),
        (lines, rules, credit) => {
          const t = cartTotals(lines, credit, rules)
          expect(t.totalCents).toBe(t.subtotalCents - t.saleSavingsCents - t.bundleSavingsCents + t.shippingCents - t.creditsCents)
          expect(t.bundleSavingsCents).toBe(t.bundles.reduce((sum, b) => sum + b.savingsCents, 0))
          for (const n of [t.totalCents, t.bundleSavingsCents, t.creditsCents]) expect(Number.isInteger(n) && n >= 0).toBe(true)
          const goods = t.subtotalCents - t.saleSavingsCents - t.bundleSavingsCents
          expect(goods).toBeGreaterThanOrEqual(0)
          expect(t.creditsCents).toBeLessThanOrEqual(Math.min(credit, goods))
          if (t.creditsCents > 0) expect(t.totalCents).toBeGreaterThanOrEqual(MIN_CHARGE_CENTS)
          expect(t.shippingCents).toBe(lines.length === 0 || goods >= FREE_SHIPPING_THRESHOLD_CENTS ? 0 : SHIPPING_CENTS)
          // The sets counted never use more ornaments of a variant than the cart holds.
          const used = new Map<number, number>()
          for (const applied of t.bundles) {
            const r = rules.find((x) => x.id === applied.id)!
            for (const item of r.items) used.set(item.variantId, (used.get(item.variantId) ?? 0) + item.quantity * applied.sets)
          }
          for (const [variantId, n] of used) expect(n).toBeLessThanOrEqual(lines.filter((l) => l.variantId === variantId).reduce((s, l) => s + l.quantity, 0))
        },
      ),
    )
  })
})

describe('sales tax (decision 052)', () => {
  const anyLines = fc.array(fc.constantFrom<OrnamentShape>('tree', 'star', 'stocking'), { maxLength: 8 }).map((shapes) => shapes.map((s) => line(s)))
  const anyState = fc.constantFrom(...Object.keys(stateTaxRules))

  it('has a rule for every state and DC we ship to, and only for those', () => {
    expect(Object.keys(stateTaxRules).sort()).toEqual([...stateNames.keys()].sort())
    for (const rule of Object.values(stateTaxRules)) expect(Number.isInteger(rule.rate) && rule.rate >= 0 && rule.rate < 10_000).toBe(true)
  })

  it('New York: 4 % on the ornaments and on shipping; California: 7.25 % on the ornaments only; Oregon: none', () => {
    const one = [line('star')]
    expect(cartTotals(one, 0, [], 'standard', { state: 'NY', estimated: false })).toMatchObject({
      taxCents: Math.round((2499 + 599) * 0.04),
      totalCents: 2499 + 599 + 124,
    })
    expect(cartTotals(one, 0, [], 'standard', { state: 'CA', estimated: false })).toMatchObject({ taxCents: 181, totalCents: 2499 + 599 + 181 })
    expect(cartTotals(one, 0, [], 'standard', { state: 'OR', estimated: true })).toMatchObject({ taxCents: 0, tax: { state: 'OR', estimated: true } })
    expect(cartTotals(one)).toMatchObject({ taxCents: 0, tax: null, totalCents: 2499 + 599 })
  })

  it('for any cart, credit and state: total = goods − credit + shipping + tax, the tax on what is left after every discount', () => {
    fc.assert(
      fc.property(
        anyLines,
        fc.integer({ min: 0, max: 20_000 }),
        fc.constantFrom('standard' as const, 'express' as const),
        anyState,
        (lines, credit, method, state) => {
          const untaxed = cartTotals(lines, credit, storeBundles, method)
          const taxed = cartTotals(lines, credit, storeBundles, method, { state, estimated: false })
          const { rate, taxesShipping } = stateTaxRules[state]!
          const goods = taxed.subtotalCents - taxed.saleSavingsCents - taxed.bundleSavingsCents
          const taxable = goods - taxed.creditsCents + (taxesShipping ? taxed.shippingCents : 0)
          expect(taxed.taxCents).toBe(Math.round((taxable * rate) / 100_000))
          expect(taxed.totalCents).toBe(goods - taxed.creditsCents + taxed.shippingCents + taxed.taxCents)
          // Tax changes nothing else: the credit, the shipping and the savings are the untaxed cart's.
          expect({
            ...taxed,
            taxCents: 0,
            tax: null,
            totalCents: untaxed.totalCents,
            parcels: taxed.parcels.map((p) => ({ ...p, taxCents: 0, tax: null })),
          }).toEqual(untaxed)
          // Applying it again, or for the same state from the taxed totals, is the same; removing it gives the untaxed total back.
          expect(withSalesTax(taxed, { state, estimated: false })).toEqual(taxed)
          expect(withSalesTax(taxed, null).totalCents).toBe(untaxed.totalCents)
          // A provider's tax replaces the table's and nothing else.
          expect(withProviderTax(taxed, state, 321).totalCents).toBe(untaxed.totalCents + 321)
        },
      ),
    )
  })

  it('allocateCents: parts add up exactly and none exceeds its weight', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 50_000 }), { minLength: 1, maxLength: 6 }), fc.nat(), (weights, seed) => {
        const sum = weights.reduce((a, b) => a + b, 0)
        const total = sum === 0 ? 0 : seed % (sum + 1)
        const parts = allocateCents(total, weights)
        expect(parts.reduce((a, b) => a + b, 0)).toBe(total)
        parts.forEach((part, i) => expect(part >= 0 && part <= weights[i]!).toBe(true))
      }),
    )
    expect(allocateCents(100, [1, 1, 1])).toEqual([34, 33, 33])
  })
})

describe('totals of a cart shipping in parcels (decision 055)', () => {
  const shapes = fc.constantFrom<OrnamentShape>('tree', 'star', 'stocking')
  const anyParcel = fc.record({
    lines: fc.array(
      fc.record({ shape: shapes, quantity: fc.integer({ min: 1, max: 4 }) }).map(({ shape, quantity }) => line(shape, quantity)),
      { maxLength: 4 },
    ),
    method: fc.constantFrom('standard' as const, 'express' as const),
    state: fc.option(fc.constantFrom(...Object.keys(stateTaxRules)), { nil: null }),
  })

  it('one parcel is exactly the cart of one address', () => {
    const lines = [line('star', 2), line('tree')]
    const destination = { state: 'NY', estimated: true }
    expect(parcelledTotals([{ key: OWN_PARCEL, lines, shippingMethod: 'express', destination }], 700, storeBundles)).toEqual(
      cartTotals(lines, 700, storeBundles, 'express', destination),
    )
  })

  it('for any split, credit and states: the charge is the sum of each parcel’s goods − credit + shipping + tax', () => {
    fc.assert(
      fc.property(fc.array(anyParcel, { minLength: 1, maxLength: 4 }), fc.integer({ min: 0, max: 30_000 }), (plans, credit) => {
        const parcels = plans.map((p, i) => ({
          key: i === 0 ? OWN_PARCEL : `book-${i}`,
          lines: p.lines,
          shippingMethod: p.method,
          destination: p.state ? { state: p.state, estimated: false } : null,
        }))
        const t = parcelledTotals(parcels, credit, storeBundles)
        const sum = (pick: (p: (typeof t.parcels)[number]) => number) => t.parcels.reduce((a, p) => a + pick(p), 0)
        expect(t.parcels.map((p) => p.key)).toEqual(parcels.map((p) => p.key))
        expect(sum((p) => p.itemCount)).toBe(t.itemCount)
        expect(sum((p) => p.bundleSavingsCents)).toBe(t.bundleSavingsCents)
        expect(sum((p) => p.shippingCents)).toBe(t.shippingCents)
        expect(sum((p) => p.creditsCents)).toBe(t.creditsCents)
        expect(sum((p) => p.taxCents)).toBe(t.taxCents)
        expect(sum((p) => p.goodsCents)).toBe(t.subtotalCents - t.saleSavingsCents - t.bundleSavingsCents)
        expect(t.totalCents).toBe(sum((p) => p.goodsCents - p.creditsCents + p.shippingCents + p.taxCents))
        if (t.itemCount > 0) expect(t.totalCents).toBeGreaterThanOrEqual(Math.min(MIN_CHARGE_CENTS, t.totalCents + t.creditsCents))
        t.parcels.forEach((p, i) => {
          // Each parcel: its own shipping by its own method, its tax from its own state on what is left of its goods.
          const state = plans[i]!.state
          expect(p.creditsCents).toBeLessThanOrEqual(p.goodsCents)
          if (!state) expect(p.taxCents).toBe(0)
          else {
            const { rate, taxesShipping } = stateTaxRules[state]!
            expect(p.taxCents).toBe(Math.round(((p.goodsCents - p.creditsCents + (taxesShipping ? p.shippingCents : 0)) * rate) / 100_000))
          }
        })
        // Re-taxing the shopper's own parcel touches no other parcel, and taking it off gives the total without it.
        const own = t.parcels[0]!
        const untaxedOwn = withSalesTax(t, null)
        expect(untaxedOwn.parcels.slice(1)).toEqual(t.parcels.slice(1))
        expect(untaxedOwn.totalCents).toBe(t.totalCents - own.taxCents)
        expect(withProviderTax(t, 'TX', 77).totalCents).toBe(t.totalCents - own.taxCents + 77)
      }),
    )
  })

  it('two parcels to two states: each ships and is taxed on its own', () => {
    const t = parcelledTotals(
      [
        { key: OWN_PARCEL, lines: [line('star')], shippingMethod: 'standard', destination: { state: 'NY', estimated: false } },
        { key: 'grandma', lines: [line('star', 2)], shippingMethod: 'express', destination: { state: 'CA', estimated: false } },
      ],
      0,
      [],
    )
    expect(t.parcels).toMatchObject([
      { key: OWN_PARCEL, itemCount: 1, goodsCents: 2499, shippingCents: SHIPPING_CENTS, taxCents: Math.round(((2499 + SHIPPING_CENTS) * 4000) / 100_000) },
      { key: 'grandma', itemCount: 2, goodsCents: 4998, shippingCents: 1499, taxCents: Math.round((4998 * 7250) / 100_000) },
    ])
    expect(t.tax).toEqual({ state: 'NY, CA', estimated: false, source: 'table' })
    expect(t.shippingMethod).toBe('standard')
  })
})
