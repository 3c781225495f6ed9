import { renderToStaticMarkup } from 'react-dom/server'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { cartTotals, MIN_CHARGE_CENTS } from '../../app/catalogue/pricing'
import { FREE_SHIPPING_THRESHOLD_CENTS } from '../../app/catalogue/shipping'
import { TotalsList } from '../../app/features/cart/Totals'

/** Issue 32: credit that leaves something to pay says why, in the totals the cart, checkout, receipt and orders show. */
const render = (totals: ReturnType<typeof cartTotals>) => renderToStaticMarkup(<TotalsList totals={totals} />)
const star = (quantity = 1) => ({ priceCents: 2999, salePriceCents: 2499, quantity })

describe('the credits line', () => {
  it('says credit does not pay shipping when a $25 gift meets a $24.99 ornament and $5.99 shipping', () => {
    const totals = cartTotals([star()], 2500)
    expect(totals.creditsCents).toBe(2499)
    expect(totals.shippingCents).toBeGreaterThan(0)
    expect(render(totals)).toContain('Store credit pays for ornaments, not shipping or tax')
  })

  it('says a card pays the smallest charge when shipping is free and the credit would cover everything', () => {
    const lines = [star(Math.ceil(FREE_SHIPPING_THRESHOLD_CENTS / 2499))]
    const totals = cartTotals(lines, 1_000_000)
    expect(totals.shippingCents).toBe(0)
    expect(totals.totalCents).toBe(MIN_CHARGE_CENTS)
    expect(render(totals)).toContain(`At least $0.50 is paid by card`)
  })

  it('says nothing without credit, and names a reason whenever credit leaves more than the goods it could not cover', () => {
    expect(render(cartTotals([star()], 0))).not.toContain('Store credit pays')
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 6 }), fc.integer({ min: 1, max: 30_000 }), (quantity, credit) => {
        const totals = cartTotals([star(quantity)], credit)
        const html = render(totals)
        const goods = 2499 * quantity
        // Credit less than the goods explains itself (it ran out); otherwise what is left to pay has a stated reason.
        if (totals.creditsCents > 0 && totals.creditsCents < credit && totals.totalCents > 0) {
          expect(html.includes('not shipping or tax') || html.includes('is paid by card'), `${quantity} × star, ${credit} credit`).toBe(true)
        }
        expect(totals.creditsCents).toBeLessThanOrEqual(goods)
      }),
    )
  })
})
