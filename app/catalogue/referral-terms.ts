/**
 * The referral programme's terms (issue 6), without zod, so pages can show them without loading the
 * contract's schemas (decision 004).
 */
/** The friend's credit on their first order, and the advocate's reward when that order is paid. */
export const REFERRED_CREDIT_CENTS = 1000
export const ADVOCATE_REWARD_CENTS = 1000
/** The landing page remembers the code this long (an HttpOnly cookie), so signing in later still counts. */
export const REFERRAL_COOKIE = 'keepsake_referral'
export const REFERRAL_COOKIE_DAYS = 30
/** A redeemed friend has this long to place a first order; the welcome credit then lapses. */
export const REDEMPTION_VALID_DAYS = 60
/** An approved reward is credited after this many days, so a refunded first order never pays out. */
export const REWARD_HOLD_DAYS = 14
