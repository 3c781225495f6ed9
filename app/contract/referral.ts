/**
 * The referral programme and store credit on the wire (SPEC.md §2, §6, §7; issue 6). Amounts are
 * whole cents. Reward states and their moves live in app/api/services/referral-states.ts.
 */
import { isValidTimeZone } from './headers'
import { z } from './zod'

export {
  ADVOCATE_REWARD_CENTS,
  REDEMPTION_VALID_DAYS,
  REFERRAL_COOKIE,
  REFERRAL_COOKIE_DAYS,
  REFERRED_CREDIT_CENTS,
  REWARD_HOLD_DAYS,
} from '../catalogue/referral-terms'

export const rewardStatuses = ['pending', 'approved', 'credited', 'voided', 'expired'] as const
export type RewardStatus = (typeof rewardStatuses)[number]

/** Human-friendly and unguessable: the advocate's name and 8 Crockford base-32 characters, e.g. MAYA-7KQ3-XP9D. */
export const REFERRAL_CODE_PATTERN = /^[A-Z]{1,8}-[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{4}$/
export const referralCodeParamSchema = z
  .string()
  .trim()
  .min(1, { error: 'code is required' })
  .max(32, { error: 'code must be at most 32 characters' })
  .regex(/^[A-Za-z0-9-]+$/, { error: 'code may hold letters, digits and - only' })
  .transform((code) => code.toUpperCase())

/** GET /v1/growth/referral-codes/{code}: what a landing page shows (first name only). Unknown or disabled → 404. */
export const referralInviteSchema = z.object({
  code: z.string(),
  advocateFirstName: z.string(),
  referredCreditCents: z.number().int(),
  advocateRewardCents: z.number().int(),
  rememberedDays: z.number().int(),
  /** True when the signed-in shopper is this invite's advocate: the landing offers sharing it, not claiming it (issue 32). */
  yours: z.boolean().optional(),
})
export type ReferralInvite = z.infer<typeof referralInviteSchema>

/** One friend's redemption as their advocate sees it. */
export const advocateRedemptionSchema = z.object({
  id: z.uuid(),
  status: z.enum(rewardStatuses),
  friendFirstName: z.string(),
  rewardCents: z.number().int(),
  redeemedAt: z.iso.datetime(),
  expiresAt: z.iso.datetime(),
  approvedAt: z.iso.datetime().nullable(),
  /** When an approved reward becomes spendable credit (approvedAt + REWARD_HOLD_DAYS). */
  creditsAt: z.iso.datetime().nullable(),
  creditedAt: z.iso.datetime().nullable(),
  endedAt: z.iso.datetime().nullable(),
})
export type AdvocateRedemption = z.infer<typeof advocateRedemptionSchema>

/** GET /v1/growth/advocate/redemptions (and SPEC.md §7's spelling with a trailing slash, answered the same): the signed-in advocate's code, link and every redemption. */
export const advocateStateSchema = z.object({
  code: z.string(),
  link: z.url(),
  advocateFirstName: z.string(),
  referredCreditCents: z.number().int(),
  advocateRewardCents: z.number().int(),
  /** Rewards already in the store-credit balance. */
  earnedCents: z.number().int(),
  /** Rewards on their way: friends who redeemed (pending) or whose first order is paid (approved). */
  pendingCents: z.number().int(),
  balanceCents: z.number().int(),
  redemptions: z.array(advocateRedemptionSchema),
})
export type AdvocateState = z.infer<typeof advocateStateSchema>

export const advocateRedemptionResponseSchema = z.object({ code: z.string(), redemption: advocateRedemptionSchema })

/** The referred friend's own redemption. */
export const referredRedemptionSchema = z.object({
  id: z.uuid(),
  status: z.enum(rewardStatuses),
  code: z.string(),
  advocateFirstName: z.string(),
  creditCents: z.number().int(),
  redeemedAt: z.iso.datetime(),
  expiresAt: z.iso.datetime(),
  timezone: z.string(),
})
export type ReferredRedemption = z.infer<typeof referredRedemptionSchema>

/** GET /v1/growth/referred/redemptions (and the answer of POST). */
export const referredStateSchema = z.object({
  redemption: referredRedemptionSchema.nullable(),
  /** The invite remembered from a landing page, while no redemption exists yet. */
  invite: referralInviteSchema.nullable(),
  balanceCents: z.number().int(),
})
export type ReferredState = z.infer<typeof referredStateSchema>

export const createRedemptionRequestSchema = z.object({
  timezone: z.string().refine(isValidTimeZone, { error: 'timezone must be an IANA time zone such as America/New_York' }),
})

/** User-action logs (SPEC.md §6, §7): actions from typed lists, metadata a small flat object. */
export const advocateActions = ['viewed_dashboard', 'copied_link', 'copied_code', 'shared_link', 'share_dismissed', 'viewed_redemption', 'viewed_past'] as const
export const referredActions = ['viewed_landing', 'clicked_get_app', 'clicked_sign_in', 'viewed_redeem', 'redeemed', 'redeem_refused'] as const
export const generalActions = ['viewed_referral_home', 'opened_app_link', 'clicked_refer'] as const
export const USER_ACTION_METADATA_MAX_KEYS = 10
export const USER_ACTION_METADATA_MAX_BYTES = 1024

const metadataValue = z.union([z.string().max(200, { error: 'metadata values must be at most 200 characters' }), z.number(), z.boolean(), z.null()], {
  error: 'metadata values must be text, numbers, true/false or null',
})
export const userActionMetadataSchema = z
  .record(z.string().regex(/^[A-Za-z][A-Za-z0-9_]{0,39}$/, { error: 'metadata keys must be letters, digits and _ (at most 40)' }), metadataValue)
  .refine((m) => Object.keys(m).length <= USER_ACTION_METADATA_MAX_KEYS, { error: `metadata may hold at most ${USER_ACTION_METADATA_MAX_KEYS} keys` })
  .refine((m) => JSON.stringify(m).length <= USER_ACTION_METADATA_MAX_BYTES, { error: `metadata must be at most ${USER_ACTION_METADATA_MAX_BYTES} bytes` })

const userActionRequest = <A extends readonly [string, ...string[]]>(actions: A) =>
  z.object({
    action: z.enum(actions, { error: `action must be one of ${actions.join(', ')}` }),
    metadata: userActionMetadataSchema.default({}),
  })
export const advocateUserActionSchema = userActionRequest(advocateActions)
export const referredUserActionSchema = userActionRequest(referredActions)
export const generalUserActionSchema = userActionRequest(generalActions)
export const userActionRecordedSchema = z.object({ recorded: z.literal(true), id: z.number().int() })

/** The store-credit ledger: append-only entries whose sum is the balance. */
export const creditReasons = [
  'referral_welcome',
  'referral_welcome_lapsed',
  'referral_reward',
  'checkout_reserved',
  'checkout_released',
  'checkout_settled_late',
  'refund_restored',
  'egift_redeemed',
] as const
export type CreditReason = (typeof creditReasons)[number]

export const creditEntrySchema = z.object({
  id: z.number().int(),
  amountCents: z.number().int(),
  reason: z.enum(creditReasons),
  reference: z.string(),
  createdAt: z.iso.datetime(),
})
export const storeCreditSchema = z.object({ balanceCents: z.number().int(), entries: z.array(creditEntrySchema) })
export type StoreCredit = z.infer<typeof storeCreditSchema>
