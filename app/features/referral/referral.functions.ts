import { queryOptions } from '@tanstack/react-query'
import { createServerFn } from '@tanstack/react-start'
import { transitionTokenSchema } from '~/contract/growth'
import {
  advocateRedemptionResponseSchema,
  advocateStateSchema,
  advocateUserActionSchema,
  createRedemptionRequestSchema,
  generalUserActionSchema,
  referralCodeParamSchema,
  referralInviteSchema,
  referredStateSchema,
  referredUserActionSchema,
  userActionRecordedSchema,
  type ReferralInvite,
} from '~/contract/referral'
import { z } from '~/contract/zod'
import type { ApiOutcome } from '~/lib/api-outcome'
import { orSignedOut, outcomeOf } from '~/lib/api-outcome.server'
import { apiForRequest } from '~/lib/api-call.server'
import { timezoneMiddleware } from '~/lib/timezone.middleware'

/** SPEC.md §7: the referral area talks to the celebrate API client, whose photo proxy is disabled. */
const celebrate = (timezone: string) => apiForRequest({ celebrate: true, timezone })

/**
 * GET /v1/growth/referral-codes/{code}: the invite a landing page shows. Its Set-Cookie (the
 * remembered code) reaches the browser through apiForRequest, so a landing's loader calls this.
 */
export const lookupReferralInvite = createServerFn({ method: 'GET' })
  .middleware([timezoneMiddleware])
  // Any text a URL carries reaches the handler, which answers what cannot be a code as unknown (issue 15, bug 4).
  .validator(z.object({ code: z.string() }))
  .handler(async ({ data, context }): Promise<ApiOutcome<ReferralInvite>> => {
    const code = referralCodeParamSchema.safeParse(data.code)
    // A path that cannot be a code is answered as the API answers an unknown one.
    if (!code.success) return { ok: false, error: { status: 404, code: 'not_found', message: 'This invite code is not valid.', issues: [] } }
    return outcomeOf(() => celebrate(context.timezone).call(`/growth/referral-codes/${encodeURIComponent(code.data)}`, { schema: referralInviteSchema }))
  })

/** GET /v1/growth/advocate/redemptions/: the signed-in advocate's code, link, credit and redemptions; null when signed out. */
export const getAdvocateState = createServerFn({ method: 'GET' })
  .middleware([timezoneMiddleware])
  .handler(({ context }) => orSignedOut(() => celebrate(context.timezone).call('/growth/advocate/redemptions/', { schema: advocateStateSchema })))

/** GET /v1/growth/advocate/redemptions/{id}: 404 for an id that is not this advocate's, 401 when signed out. */
export const getAdvocateRedemption = createServerFn({ method: 'GET' })
  .middleware([timezoneMiddleware])
  .validator(z.object({ id: z.uuid() }))
  .handler(({ data, context }) =>
    outcomeOf(() => celebrate(context.timezone).call(`/growth/advocate/redemptions/${data.id}`, { schema: advocateRedemptionResponseSchema })),
  )

/** GET /v1/growth/referred/redemptions: the friend's redemption, or the invite they could redeem; null when signed out. */
export const getReferredState = createServerFn({ method: 'GET' })
  .middleware([timezoneMiddleware])
  .handler(({ context }) => orSignedOut(() => celebrate(context.timezone).call('/growth/referred/redemptions', { schema: referredStateSchema })))

/** POST /v1/growth/referred/redemptions: refusals (own invite, already redeemed, no invite…) come back as an outcome. */
export const redeemReferralInvite = createServerFn({ method: 'POST' })
  .middleware([timezoneMiddleware])
  .validator(createRedemptionRequestSchema)
  .handler(({ data, context }) =>
    outcomeOf(() => celebrate(context.timezone).call('/growth/referred/redemptions', { method: 'POST', body: data, schema: referredStateSchema })),
  )

/** GET /v1/growth/transition-token: a short-lived token that signs the app in (fetched fresh for every tap). */
export const getTransitionToken = createServerFn({ method: 'GET' })
  .middleware([timezoneMiddleware])
  .handler(({ context }) => celebrate(context.timezone).call('/growth/transition-token', { schema: transitionTokenSchema }))

const userActionLogs = {
  advocate: '/growth/advocate/user-actions',
  referred: '/growth/referred/user-actions',
  general: '/growth/user-actions',
} as const

const logUserActionRequestSchema = z.discriminatedUnion('log', [
  advocateUserActionSchema.extend({ log: z.literal('advocate') }),
  referredUserActionSchema.extend({ log: z.literal('referred') }),
  generalUserActionSchema.extend({ log: z.literal('general') }),
])

/** POST one of the three user-action logs (SPEC.md §6, §7). */
export const logUserAction = createServerFn({ method: 'POST' })
  .middleware([timezoneMiddleware])
  .validator(logUserActionRequestSchema)
  .handler(({ data, context }) =>
    outcomeOf(() =>
      celebrate(context.timezone).call(userActionLogs[data.log], {
        method: 'POST',
        body: { action: data.action, metadata: data.metadata },
        schema: userActionRecordedSchema,
      }),
    ),
  )

export const advocateStateQuery = () => queryOptions({ queryKey: ['referral', 'advocate'], queryFn: () => getAdvocateState(), staleTime: 10_000 })

export const referredStateQuery = () => queryOptions({ queryKey: ['referral', 'referred'], queryFn: () => getReferredState(), staleTime: 5_000 })

/** One redemption as an outcome: its page tells "not yours / not found" (404) from a load that failed. */
export const advocateRedemptionQuery = (id: string) =>
  queryOptions({ queryKey: ['referral', 'advocate', 'redemption', id], queryFn: () => getAdvocateRedemption({ data: { id } }), staleTime: 10_000 })
