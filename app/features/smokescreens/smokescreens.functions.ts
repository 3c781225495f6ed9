import { createServerFn } from '@tanstack/react-start'
import { smokescreensApi } from '~/contract/endpoints/smokescreens'
import { z } from '~/contract/zod'
import { outcomeOf } from '~/lib/api-outcome.server'
import { apiMiddleware } from '~/lib/api.middleware'

// Loose on purpose: the API validates, and its field messages come back in the outcome for the form.
const text = z.string().max(2000)

const waitlistInputSchema = z.object({ product: text, sourcePage: text, name: text, email: text, note: text })

const deliveryInputSchema = z.object({
  product: text,
  name: text,
  email: text,
  phone: text,
  line1: text,
  line2: text,
  city: text,
  state: text,
  postalCode: text,
  country: text,
})

/** "Notify me"; created is false when this shopper had already signed up. */
export const joinSmokescreenWaitlist = createServerFn({ method: 'POST' })
  .middleware([apiMiddleware])
  .validator(waitlistInputSchema)
  .handler(({ data, context: { api } }) => outcomeOf(() => api.call(smokescreensApi.joinWaitlist, { body: data as never })))

/** "Deliver to me" interest, with where they would want it. */
export const registerSmokescreenDelivery = createServerFn({ method: 'POST' })
  .middleware([apiMiddleware])
  .validator(deliveryInputSchema)
  .handler(({ data, context: { api } }) => outcomeOf(() => api.call(smokescreensApi.requestDelivery, { body: data as never })))
