import { createServerFn } from '@tanstack/react-start'
import { signedInSchema, signedOutSchema, signInLinkSentSchema } from '~/contract/growth'
import { z } from '~/contract/zod'
import { outcomeOf } from '~/lib/api-outcome.server'
import { apiForRequest } from '~/lib/api-call.server'

// Loose on purpose: the API validates, and its field message comes back in the outcome for the form.
const linkRequestInput = z.object({ email: z.string().max(2000), redirect: z.string().max(2000).optional() })

/** POST /v1/growth/sign-in-links: "E-mail me a sign-in link"; the same answer for any address. */
export const requestSignInLink = createServerFn({ method: 'POST' })
  .validator(linkRequestInput)
  .handler(({ data }) =>
    outcomeOf(() => apiForRequest().call('/growth/sign-in-links', { method: 'POST', body: data, schema: signInLinkSentSchema })),
  )

/** POST /v1/growth/sign-in-links/redeem: the e-mailed link's token becomes this browser's session cookie. */
export const redeemSignInLink = createServerFn({ method: 'POST' })
  .validator(z.object({ token: z.string().max(2000) }))
  .handler(({ data }) =>
    outcomeOf(() => apiForRequest().call('/growth/sign-in-links/redeem', { method: 'POST', body: data, schema: signedInSchema })),
  )

/** DELETE /v1/growth/sessions: sign out on every browser and device. */
export const signOutEverywhere = createServerFn({ method: 'POST' }).handler(() =>
  outcomeOf(() => apiForRequest().call('/growth/sessions', { method: 'DELETE', schema: signedOutSchema })),
)
