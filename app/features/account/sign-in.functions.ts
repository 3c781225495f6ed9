import { createServerFn } from '@tanstack/react-start'
import { growthApi } from '~/contract/endpoints/growth'
import { z } from '~/contract/zod'
import { outcomeOf } from '~/lib/api-outcome.server'
import { apiMiddleware } from '~/lib/api.middleware'

// Loose on purpose: the API validates, and its field message comes back in the outcome for the form.
const linkRequestInput = z.object({ email: z.string().max(2000), redirect: z.string().max(2000).optional() })

/** "E-mail me a sign-in link"; the same answer for any address. */
export const requestSignInLink = createServerFn({ method: 'POST' })
  .middleware([apiMiddleware])
  .validator(linkRequestInput)
  .handler(({ data, context: { api } }) => outcomeOf(() => api.call(growthApi.createSignInLink, { body: data })))

/** The e-mailed link's token becomes this browser's session cookie. */
export const redeemSignInLink = createServerFn({ method: 'POST' })
  .middleware([apiMiddleware])
  .validator(z.object({ token: z.string().max(2000) }))
  .handler(({ data, context: { api } }) => outcomeOf(() => api.call(growthApi.redeemSignInLink, { body: data })))

/** Sign out of this browser. */
export const signOut = createServerFn({ method: 'POST' })
  .middleware([apiMiddleware])
  .handler(({ context: { api } }) => api.call(growthApi.signOut))

/** Sign out on every browser and device. */
export const signOutEverywhere = createServerFn({ method: 'POST' })
  .middleware([apiMiddleware])
  .handler(({ context: { api } }) => outcomeOf(() => api.call(growthApi.signOutEverywhere)))
