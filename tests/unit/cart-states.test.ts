import { canMoveReward, rewardTransitions } from '../../app/api/services/referral-states'
import { describe, expect, it } from 'vitest'
import { canMove, cartTransitions, checkoutSessionTransitions, orderTransitions } from '../../app/api/services/cart-states'
import { cartTotals, FREE_SHIPPING_THRESHOLD_CENTS, MIN_CHARGE_CENTS, SHIPPING_CENTS } from '../../app/catalogue/pricing'
import fc from 'fast-check'

describe('state transitions', () => {
  it('a checked-out cart never moves again; abandoned and active swap', () => {
    expect(cartTransitions.checked_out).toEqual([])
    expect(canMove(cartTransitions, 'active', 'abandoned')).toBe(true)
    expect(canMove(cartTransitions, 'abandoned', 'active')).toBe(true)
    expect(canMove(cartTransitions, 'active', 'active')).toBe(false)
  })

  it('a paid session is final, and nothing moves a session back to open', () => {
    expect(checkoutSessionTransitions.paid).toEqual([])
    for (const from of Object.keys(checkoutSessionTransitions) as (keyof typeof checkoutSessionTransitions)[]) {
      expect(canMove(checkoutSessionTransitions, from, 'open')).toBe(false)
    }
    expect(canMove(checkoutSessionTransitions, 'processing', 'paid')).toBe(true)
    expect(canMove(checkoutSessionTransitions, 'expired', 'paid')).toBe(true)
    expect(canMove(checkoutSessionTransitions, 'failed', 'paid')).toBe(false)
  })

  it('an order only moves towards shipped, and any order can be refunded (then nothing more)', () => {
    expect(orderTransitions.shipped).toEqual(['refunded'])
    expect(orderTransitions.refunded).toEqual([])
    expect(canMove(orderTransitions, 'in_production', 'submitted')).toBe(false)
    for (const from of Object.keys(orderTransitions) as (keyof typeof orderTransitions)[]) {
      if (from !== 'refunded') expect(canMove(orderTransitions, from, 'refunded')).toBe(true)
    }
  })
})

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
    const line = fc.record({ priceCents: fc.integer({ min: 0, max: 10_000 }), salePriceCents: fc.integer({ min: 0, max: 10_000 }), quantity: fc.integer({ min: 1, max: 10 }) })
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

describe('referral reward states', () => {
  it('pending → approved → credited, or voided / expired; nothing leaves an ended state', () => {
    expect(canMoveReward('pending', 'approved')).toBe(true)
    expect(canMoveReward('approved', 'credited')).toBe(true)
    expect(canMoveReward('approved', 'voided')).toBe(true)
    expect(canMoveReward('pending', 'expired')).toBe(true)
    expect(canMoveReward('pending', 'credited')).toBe(false)
    expect(canMoveReward('credited', 'voided')).toBe(false)
    for (const end of ['credited', 'voided', 'expired'] as const) expect(rewardTransitions[end]).toEqual([])
  })
})
