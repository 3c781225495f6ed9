import { createServerFn } from '@tanstack/react-start'
import { smokescreenSignupSchema } from '~/contract/smokescreens'
import { z } from '~/contract/zod'
import { outcomeOf } from '~/lib/api-outcome.server'
import { apiForRequest } from '~/lib/api-call.server'

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

/** POST /v1/smokescreens/waitlist: "notify me"; created is false when this shopper had already signed up. */
export const joinSmokescreenWaitlist = createServerFn({ method: 'POST' })
  .validator(waitlistInputSchema)
  .handler(({ data }) => outcomeOf(() => apiForRequest().call('/smokescreens/waitlist', { method: 'POST', body: data, schema: smokescreenSignupSchema })))

/** POST /v1/smokescreens/delivery: "deliver to me" interest, with where they would want it. */
export const registerSmokescreenDelivery = createServerFn({ method: 'POST' })
  .validator(deliveryInputSchema)
  .handler(({ data }) => outcomeOf(() => apiForRequest().call('/smokescreens/delivery', { method: 'POST', body: data, schema: smokescreenSignupSchema })))
