import { queryOptions } from '@tanstack/react-query'
import { createServerFn } from '@tanstack/react-start'
import { growthApi } from '~/contract/endpoints/growth'
import { referralApi } from '~/contract/endpoints/referral'
import {
  advocateUserActionSchema,
  createRedemptionRequestSchema,
  generalUserActionSchema,
  referralCodeParamSchema,
  referredUserActionSchema,
  type ReferralInvite,
} from '~/contract/referral'
import { z } from '~/contract/zod'
import type { ApiOutcome } from '~/lib/api-outcome'
import { orSignedOut, outcomeOf } from '~/lib/api-outcome.server'
import { celebrateApiMiddleware } from '~/lib/api.middleware'

/**
 * The invite a landing page shows. Its Set-Cookie (the remembered code) reaches the browser through
 * the request's API client, so a landing's loader calls this.
 */
export const lookupReferralInvite = createServerFn({ method: 'GET' })
  .middleware([celebrateApiMiddleware])
  // Any text a URL carries reaches the handler, which answers what cannot be a code as unknown (issue 15, bug 4).
  .validator(z.object({ code: z.string() }))
  .handler(async ({ data, context: { api } }): Promise<ApiOutcome<ReferralInvite>> => {
    const code = referralCodeParamSchema.safeParse(data.code)
    // A path that cannot be a code is answered as the API answers an unknown one.
    if (!code.success) return { ok: false, error: { status: 404, code: 'not_found', message: 'This invite code is not valid.', issues: [] } }
    return outcomeOf(() => api.call(referralApi.lookupReferralCode, { params: { code: code.data } }))
  })

/** The signed-in advocate's code, link, credit and redemptions; null when signed out. */
export const getAdvocateState = createServerFn({ method: 'GET' })
  .middleware([celebrateApiMiddleware])
  .handler(({ context: { api } }) => orSignedOut(() => api.call(referralApi.getAdvocateState)))

/** 404 for an id that is not this advocate's, 401 when signed out. */
export const getAdvocateRedemption = createServerFn({ method: 'GET' })
  .middleware([celebrateApiMiddleware])
  .validator(z.object({ id: z.uuid() }))
  .handler(({ data, context: { api } }) => outcomeOf(() => api.call(referralApi.getAdvocateRedemption, { params: data })))

/** The friend's redemption, or the invite they could redeem; null when signed out. */
export const getReferredState = createServerFn({ method: 'GET' })
  .middleware([celebrateApiMiddleware])
  .handler(({ context: { api } }) => orSignedOut(() => api.call(referralApi.getReferredState)))

/** Refusals (own invite, already redeemed, no invite…) come back as an outcome. */
export const redeemReferralInvite = createServerFn({ method: 'POST' })
  .middleware([celebrateApiMiddleware])
  .validator(createRedemptionRequestSchema)
  .handler(({ data, context: { api } }) => outcomeOf(() => api.call(referralApi.redeemReferral, { body: data })))

/** A short-lived token that signs the app in (fetched fresh for every tap). */
export const getTransitionToken = createServerFn({ method: 'GET' })
  .middleware([celebrateApiMiddleware])
  .handler(({ context: { api } }) => api.call(growthApi.getTransitionToken))

const logUserActionRequestSchema = z.discriminatedUnion('log', [
  advocateUserActionSchema.extend({ log: z.literal('advocate') }),
  referredUserActionSchema.extend({ log: z.literal('referred') }),
  generalUserActionSchema.extend({ log: z.literal('general') }),
])

/** One of the three user-action logs (SPEC.md §6, §7). */
export const logUserAction = createServerFn({ method: 'POST' })
  .middleware([celebrateApiMiddleware])
  .validator(logUserActionRequestSchema)
  .handler(({ data, context: { api } }) =>
    outcomeOf(() => {
      switch (data.log) {
        case 'advocate':
          return api.call(referralApi.logAdvocateAction, { body: { action: data.action, metadata: data.metadata } })
        case 'referred':
          return api.call(referralApi.logReferredAction, { body: { action: data.action, metadata: data.metadata } })
        case 'general':
          return api.call(referralApi.logGeneralAction, { body: { action: data.action, metadata: data.metadata } })
      }
    }),
  )

export const advocateStateQuery = () => queryOptions({ queryKey: ['referral', 'advocate'], queryFn: () => getAdvocateState(), staleTime: 10_000 })

export const referredStateQuery = () => queryOptions({ queryKey: ['referral', 'referred'], queryFn: () => getReferredState(), staleTime: 5_000 })

/** One redemption as an outcome: its page tells "not yours / not found" (404) from a load that failed. */
export const advocateRedemptionQuery = (id: string) =>
  queryOptions({ queryKey: ['referral', 'advocate', 'redemption', id], queryFn: () => getAdvocateRedemption({ data: { id } }), staleTime: 10_000 })
