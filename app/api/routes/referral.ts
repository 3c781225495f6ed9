import type { Context } from 'hono'
import { Hono } from 'hono'
import { getCookie, setCookie } from 'hono/cookie'
import {
  REFERRAL_COOKIE,
  REFERRAL_COOKIE_DAYS,
  REFERRAL_CODE_PATTERN,
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
} from '../../contract/referral'
import { z } from '../../contract/zod'
import { currentClientAddress } from '../client-address'
import { endpoint } from '../endpoint'
import type { ApiEnv } from '../env'
import { storeCredit } from '../services/credit'
import { advocateCode, advocateRedemption, advocateState, lookupInvite, recordUserAction, redeemInvite, referredState } from '../services/referral'

export const referralRoutes = new Hono<ApiEnv>()
const tag = 'growth'

/** The invite a landing page remembered (only a well-formed code is read back). */
function rememberedCode(c: Context<ApiEnv>): string | null {
  const value = getCookie(c, REFERRAL_COOKIE)?.toUpperCase() ?? ''
  return REFERRAL_CODE_PATTERN.test(value) ? value : null
}

endpoint(
  referralRoutes,
  {
    method: 'get',
    path: '/growth/referral-codes/:code',
    tag,
    summary: `An invite for a landing page (advocate's first name, the offer); remembers the code for ${REFERRAL_COOKIE_DAYS} days in an HttpOnly cookie`,
    auth: 'none',
    params: z.object({ code: referralCodeParamSchema }),
    response: referralInviteSchema,
  },
  async ({ params }, c) => {
    const invite = await lookupInvite(c.get('deps'), params.code, currentClientAddress())
    setCookie(c, REFERRAL_COOKIE, invite.code, {
      path: '/',
      httpOnly: true,
      sameSite: 'Lax',
      secure: new URL(c.get('deps').config.publicUrl).protocol === 'https:',
      maxAge: REFERRAL_COOKIE_DAYS * 24 * 3600,
    })
    return invite
  },
)

const advocateRedemptions = {
  method: 'get',
  tag,
  summary: 'The signed-in advocate: code, share link, credit earned and pending, every redemption',
  auth: 'user',
  response: advocateStateSchema,
} as const
// SPEC.md §7 spells the path with a trailing slash; the same answer without it.
for (const path of ['/growth/advocate/redemptions/', '/growth/advocate/redemptions']) {
  endpoint(referralRoutes, { ...advocateRedemptions, path }, ({ user }, c) => advocateState(c.get('deps'), user))
}

endpoint(
  referralRoutes,
  {
    method: 'get',
    path: '/growth/advocate/redemptions/:id',
    tag,
    summary: 'One of the advocate’s redemptions (another advocate’s is not found)',
    auth: 'user',
    params: z.object({ id: z.uuid({ error: 'id must be a redemption id' }) }),
    response: advocateRedemptionResponseSchema,
  },
  ({ user, params }, c) => advocateRedemption(c.get('deps'), user, params.id),
)

endpoint(
  referralRoutes,
  {
    method: 'post',
    path: '/growth/referred/redemptions',
    tag,
    summary: 'The signed-in friend redeems the remembered invite: welcome credit on their ledger',
    auth: 'user',
    body: createRedemptionRequestSchema,
    response: referredStateSchema,
    status: 201,
  },
  ({ user, body }, c) =>
    redeemInvite(c.get('deps'), user, { timezone: body.timezone, rememberedCode: rememberedCode(c), clientAddress: currentClientAddress() }),
)

endpoint(
  referralRoutes,
  {
    method: 'get',
    path: '/growth/referred/redemptions',
    tag,
    summary: 'The signed-in friend’s redemption (credit, status, expiry), or the invite they could redeem',
    auth: 'user',
    response: referredStateSchema,
  },
  ({ user }, c) => referredState(c.get('deps'), user, rememberedCode(c)),
)

const logSummary = (who: string) => `Log a ${who} user action ({ action, metadata }: an action from the typed list, metadata a small flat object)`

endpoint(
  referralRoutes,
  { method: 'post', path: '/growth/advocate/user-actions', tag, summary: logSummary('advocate'), auth: 'user', body: advocateUserActionSchema, response: userActionRecordedSchema, status: 201 },
  async ({ user, body }, c) => {
    const deps = c.get('deps')
    return recordUserAction(deps, { role: 'advocate', ...body, user, code: await advocateCode(deps.db, user), clientAddress: currentClientAddress() })
  },
)

endpoint(
  referralRoutes,
  { method: 'post', path: '/growth/referred/user-actions', tag, summary: logSummary('referred'), auth: 'none', body: referredUserActionSchema, response: userActionRecordedSchema, status: 201 },
  ({ user, body }, c) => recordUserAction(c.get('deps'), { role: 'referred', ...body, user, code: rememberedCode(c), clientAddress: currentClientAddress() }),
)

endpoint(
  referralRoutes,
  { method: 'post', path: '/growth/user-actions', tag, summary: logSummary('general'), auth: 'none', body: generalUserActionSchema, response: userActionRecordedSchema, status: 201 },
  ({ user, body }, c) => recordUserAction(c.get('deps'), { role: 'general', ...body, user, code: null, clientAddress: currentClientAddress() }),
)

endpoint(
  referralRoutes,
  { method: 'get', path: '/store-credit', tag: 'store-credit', summary: 'The signed-in user’s store-credit balance and latest ledger entries', auth: 'user', response: storeCreditSchema },
  ({ user }, c) => storeCredit(c.get('deps').db, user.id),
)
