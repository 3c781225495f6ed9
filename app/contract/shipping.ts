import { giftMessageRoutes } from '../catalogue/gift-messages'
import { shippingMethodIds } from '../catalogue/shipping'
import { z } from './zod'

/** A calendar day, YYYY-MM-DD (an arrival date has no time of day). */
export const isoDaySchema = z.string().regex(/^\d{4}-\d{2}-\d{2}$/)

export const shippingOptionSchema = z.object({
  method: z.enum(shippingMethodIds),
  label: z.string(),
  /** The method's price; 0 from `freeFromCents` of goods when set. */
  priceCents: z.number().int(),
  freeFromCents: z.number().int().nullable(),
  /** When an order placed now arrives, for the shopper's time zone. */
  arrivesBy: isoDaySchema,
})
export type ShippingOption = z.infer<typeof shippingOptionSchema>

export const shippingCalendarSchema = z.object({
  /** The shopper's day today (their time zone), for the client's wording. */
  today: isoDaySchema,
  methods: z.array(shippingOptionSchema),
  /** From Nov 1 to Christmas Eve: the last day to order by each method for delivery by Christmas Eve. */
  christmas: z
    .object({
      year: z.number().int(),
      deadlines: z.array(z.object({ method: z.enum(shippingMethodIds), lastOrderDay: isoDaySchema, inTime: z.boolean() })),
    })
    .nullable(),
  /**
   * How a parcel's gift message reaches its recipient with the print provider in use: printed on the packing slip
   * (the local print shop), or only in the e-mail to the recipient when it ships (Printify), which needs their e-mail.
   */
  giftMessageVia: z.enum(giftMessageRoutes),
})
export type ShippingCalendar = z.infer<typeof shippingCalendarSchema>
