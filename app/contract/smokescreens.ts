/**
 * Smokescreens (issue 7; SPEC.md §3, §7): "notify me" and "deliver to me" forms for products Keepsake
 * does not sell yet, to measure demand. One sign-up per shopper (or e-mail) per product and kind.
 */
import { shippingAddressSchema } from './cart'
import { FIELD_LIMITS } from '../catalogue/field-limits'
import { emailAddress, optionalText, personName } from './field-messages'
import { z } from './zod'

import { smokescreenProducts } from '../catalogue/smokescreen-products'

export { smokescreenProducts, type SmokescreenProduct } from '../catalogue/smokescreen-products'

const product = z.enum(smokescreenProducts, {
  error: (issue) => (issue.input === undefined ? 'Required' : `product must be one of ${smokescreenProducts.join(', ')}`),
})

/** SPEC.md §3: "Waitlist payload: the form fields plus product and sourcePage". */
export const waitlistRequestSchema = z.object({
  product,
  sourcePage: z
    .string()
    .max(200, { error: 'sourcePage must be at most 200 characters' })
    .regex(/^\/(?![/\\])[\w\-./]*$/, { error: 'sourcePage must be a path on this site, such as /loop/store/' }),
  name: personName(),
  email: emailAddress(),
  note: optionalText('your note', FIELD_LIMITS.note),
})
export type WaitlistRequest = z.infer<typeof waitlistRequestSchema>

/** SPEC.md §3: "Smokescreen delivery payload: the form fields plus product" — where they would want it delivered. */
export const deliveryRequestSchema = shippingAddressSchema.safeExtend({ product })
export type DeliveryRequest = z.infer<typeof deliveryRequestSchema>

export const smokescreenSignupSchema = z.object({
  kind: z.enum(['waitlist', 'delivery']),
  product: z.string(),
  /** false when this shopper (or e-mail) had already signed up for this product: nothing new was stored. */
  created: z.boolean(),
  /** How many have signed up for this product and kind so far. */
  count: z.number().int(),
})

/** One line of the team's report (demo mode): a product's sign-ups by kind, and when the last came in. */
export const smokescreenTallySchema = z.object({
  product: z.string(),
  waitlist: z.number().int(),
  delivery: z.number().int(),
  total: z.number().int(),
  lastAt: z.iso.datetime().nullable(),
})
export type SmokescreenTally = z.infer<typeof smokescreenTallySchema>

/** Sign-ups per product, most wanted first; products nobody asked for come last with zeros. */
export const smokescreenReportSchema = z.object({ products: z.array(smokescreenTallySchema), readAt: z.iso.datetime() })
export type SmokescreenReport = z.infer<typeof smokescreenReportSchema>
