import { canMoveReward, rewardTransitions } from '../../app/api/services/referral-states'
import { describe, expect, it } from 'vitest'
import { canMove, cartTransitions, checkoutSessionTransitions, orderTransitions } from '../../app/api/services/cart-states'

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
