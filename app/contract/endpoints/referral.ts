import type { Endpoint } from '../endpoint'
import {
  REFERRAL_COOKIE_DAYS,
  advocateRedemptionResponseSchema,
  advocateStateSchema,
  advocateUserActionSchema,
  createRedemptionRequestSchema,
  generalUserActionSchema,
  referralCodeParamSchema,
  referralInviteSchema,
  referredStateSchema,
  referredUserActionSchema,
  storeCreditSchema,
  userActionRecordedSchema,
} from '../referral'
import { z } from '../zod'

const tag = 'growth'

const logSummary = (who: string) => `Log a ${who} user action ({ action, metadata }: an action from the typed list, metadata a small flat object)`

export const referralApi = {
  lookupReferralCode: {
    method: 'get',
    path: '/growth/referral-codes/:code',
    tag,
    summary: `An invite for a landing page (advocate's first name, the offer); remembers the code for ${REFERRAL_COOKIE_DAYS} days in an HttpOnly cookie`,
    auth: 'none',
    params: z.object({ code: referralCodeParamSchema }),
    response: referralInviteSchema,
  },
  getAdvocateState: {
    method: 'get',
    path: '/growth/advocate/redemptions/',
    tag,
    summary: 'The signed-in advocate: code, share link, credit earned and pending, every redemption',
    auth: 'user',
    response: advocateStateSchema,
  },
  getAdvocateRedemption: {
    method: 'get',
    path: '/growth/advocate/redemptions/:id',
    tag,
    summary: 'One of the advocate’s redemptions (another advocate’s is not found)',
    auth: 'user',
    params: z.object({ id: z.uuid({ error: 'id must be a redemption id' }) }),
    response: advocateRedemptionResponseSchema,
  },
  redeemReferral: {
    method: 'post',
    path: '/growth/referred/redemptions',
    tag,
    summary: 'The signed-in friend redeems the remembered invite: welcome credit on their ledger',
    auth: 'user',
    body: createRedemptionRequestSchema,
    response: referredStateSchema,
    status: 201,
  },
  getReferredState: {
    method: 'get',
    path: '/growth/referred/redemptions',
    tag,
    summary: 'The signed-in friend’s redemption (credit, status, expiry), or the invite they could redeem',
    auth: 'user',
    response: referredStateSchema,
  },
  logAdvocateAction: {
    method: 'post',
    path: '/growth/advocate/user-actions',
    tag,
    summary: logSummary('advocate'),
    auth: 'user',
    body: advocateUserActionSchema,
    response: userActionRecordedSchema,
    status: 201,
  },
  logReferredAction: {
    method: 'post',
    path: '/growth/referred/user-actions',
    tag,
    summary: logSummary('referred'),
    auth: 'none',
    body: referredUserActionSchema,
    response: userActionRecordedSchema,
    status: 201,
  },
  logGeneralAction: {
    method: 'post',
    path: '/growth/user-actions',
    tag,
    summary: logSummary('general'),
    auth: 'none',
    body: generalUserActionSchema,
    response: userActionRecordedSchema,
    status: 201,
  },
  getStoreCredit: {
    method: 'get',
    path: '/store-credit',
    tag: 'store-credit',
    summary: 'The signed-in user’s store-credit balance and latest ledger entries',
    auth: 'user',
    response: storeCreditSchema,
  },
} as const satisfies Record<string, Endpoint>

/** SPEC.md §7 spells the advocate's path with a trailing slash; the API gives the same answer without it. */
export const ADVOCATE_STATE_WITHOUT_SLASH = { ...referralApi.getAdvocateState, path: '/growth/advocate/redemptions' } as const satisfies Endpoint
