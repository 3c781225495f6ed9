import { referralApi } from '../../contract/endpoints/referral'
import type { Context } from 'hono'
import { Hono } from 'hono'
import { getCookie, setCookie } from 'hono/cookie'
import { REFERRAL_COOKIE, REFERRAL_COOKIE_DAYS, REFERRAL_CODE_PATTERN } from '../../contract/referral'
import { currentClientAddress } from '../client-address'
import { endpoint } from '../endpoint'
import type { ApiEnv } from '../env'
import { storeCredit } from '../services/credit'
import { advocateCode, advocateRedemption, advocateState, lookupInvite, recordUserAction, redeemInvite, referredState } from '../services/referral'

export const referralRoutes = new Hono<ApiEnv>()

/** The invite a landing page remembered (only a well-formed code is read back). */
function rememberedCode(c: Context<ApiEnv>): string | null {
  const value = getCookie(c, REFERRAL_COOKIE)?.toUpperCase() ?? ''
  return REFERRAL_CODE_PATTERN.test(value) ? value : null
}

endpoint(referralRoutes, referralApi.lookupReferralCode, async ({ params, user }, c) => {
  const invite = await lookupInvite(c.get('deps'), params.code, currentClientAddress(), user ?? null)
  setCookie(c, REFERRAL_COOKIE, invite.code, {
    path: '/',
    httpOnly: true,
    sameSite: 'Lax',
    secure: new URL(c.get('deps').config.publicUrl).protocol === 'https:',
    maxAge: REFERRAL_COOKIE_DAYS * 24 * 3600,
  })
  return invite
})

endpoint(referralRoutes, referralApi.getAdvocateState, ({ user }, c) => advocateState(c.get('deps'), user))

endpoint(referralRoutes, referralApi.getAdvocateRedemption, ({ user, params }, c) => advocateRedemption(c.get('deps'), user, params.id))

endpoint(referralRoutes, referralApi.redeemReferral, ({ user, body }, c) =>
  redeemInvite(c.get('deps'), user, { timezone: body.timezone, rememberedCode: rememberedCode(c), clientAddress: currentClientAddress() }),
)

endpoint(referralRoutes, referralApi.getReferredState, ({ user }, c) => referredState(c.get('deps'), user, rememberedCode(c)))

endpoint(referralRoutes, referralApi.logAdvocateAction, async ({ user, body }, c) => {
  const deps = c.get('deps')
  return recordUserAction(deps, { role: 'advocate', ...body, user, code: await advocateCode(deps.db, user), clientAddress: currentClientAddress() })
})

endpoint(referralRoutes, referralApi.logReferredAction, ({ user, body }, c) =>
  recordUserAction(c.get('deps'), { role: 'referred', ...body, user, code: rememberedCode(c), clientAddress: currentClientAddress() }),
)

endpoint(referralRoutes, referralApi.logGeneralAction, ({ user, body }, c) =>
  recordUserAction(c.get('deps'), { role: 'general', ...body, user, code: null, clientAddress: currentClientAddress() }),
)

endpoint(referralRoutes, referralApi.getStoreCredit, ({ user }, c) => storeCredit(c.get('deps').db, user.id))
