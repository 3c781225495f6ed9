/**
 * A referral reward's states and the only moves between them (issue 6). The referral service asks
 * `canMove` before every change; a move not listed here never happens.
 *
 * pending   the friend redeemed the invite (their welcome credit is on their ledger)
 * approved  the friend's first order was paid (checkout fulfilment)
 * credited  the hold period passed and the advocate's reward is on their ledger
 * voided    the approving order was refunded or cancelled before the reward was credited
 * expired   the friend placed no paid order before the redemption expired (the welcome credit lapses)
 */
import type { RewardStatus } from '../../contract/referral'
import { canMove } from './cart-states'

export const rewardTransitions: Record<RewardStatus, readonly RewardStatus[]> = {
  pending: ['approved', 'expired'],
  approved: ['credited', 'voided'],
  credited: [],
  voided: [],
  expired: [],
}

export const canMoveReward = (from: RewardStatus, to: RewardStatus) => canMove(rewardTransitions, from, to)

/** States whose reward is still on its way to the advocate. */
export const openRewardStatuses: readonly RewardStatus[] = ['pending', 'approved']
