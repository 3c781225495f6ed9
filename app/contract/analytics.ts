import { z } from './zod'

/** SPEC.md §7: analytics event names, one typed list. */
export const analyticsEventNames = [
  'DidViewPage',
  'DidAddProductToCart',
  'DidCompleteCheckout',
  'DidSelectPodTemplate',
  'PodPreviewSuccess',
  'PodPreviewFailure',
  'DidResumeCart',
  'DidViewEgift',
  'DidPurchaseEgift',
  'DidRedeemEgift',
  'DidViewFmnOfferWall',
  'DidViewFmnOffer',
  'DidClickFmnOffer',
  'DidIdentifySession',
] as const
export const analyticsEventNameSchema = z.enum(analyticsEventNames)
export type AnalyticsEventName = z.infer<typeof analyticsEventNameSchema>

const propertyValue = z.union([z.string().max(500), z.number(), z.boolean(), z.null()])

export const analyticsEventSchema = z.object({
  event: analyticsEventNameSchema,
  properties: z
    .record(z.string().max(64), propertyValue)
    .refine((p) => Object.keys(p).length <= 30, { error: 'At most 30 properties' })
    .default({}),
  path: z.string().max(2048),
  url: z.string().max(4096),
  sid: z.uuid(),
  uuid: z.string().max(128).nullable().default(null),
  market: z.string().max(16).nullable().default(null),
  occurredAt: z.iso.datetime(),
})
export type AnalyticsEvent = z.infer<typeof analyticsEventSchema>

export const analyticsBatchSchema = z.object({
  events: z.array(analyticsEventSchema).min(1).max(50),
})

export const analyticsAcceptedSchema = z.object({ accepted: z.number().int() })
