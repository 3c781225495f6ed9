/**
 * The partner offer wall (/fmn, issue 7): offers come from the database (seeded in demo mode);
 * outbound clicks go through GET /v1/fmn/offers/{id}/click, which records the click and redirects
 * only to the offer's stored https URL.
 */
import { z } from './zod'

export const offerIdSchema = z
  .string()
  .min(1, { error: 'offer id is required' })
  .max(64, { error: 'offer id must be at most 64 characters' })
  .regex(/^[a-z0-9][a-z0-9-]*$/, { error: 'offer id may hold lower-case letters, digits and - only' })

export const partnerOfferSchema = z.object({
  id: z.string(),
  title: z.string(),
  partner: z.string(),
  /** The reward in words, e.g. "$10 Keepsake credit". */
  reward: z.string(),
  summary: z.string(),
  /** Terms, one paragraph per entry. */
  terms: z.array(z.string()),
  imageUrl: z.string(),
  imageAlt: z.string(),
  /** Where the shopper leaves to (shown, so they know before they click); the click endpoint redirects there. */
  partnerHost: z.string(),
  clickUrl: z.string(),
})
export type PartnerOffer = z.infer<typeof partnerOfferSchema>

export const partnerOffersResponseSchema = z.object({ offers: z.array(partnerOfferSchema) })
export const offerParamsSchema = z.object({ id: offerIdSchema })
export const offerClickQuerySchema = z.object({
  /** The tab's session id (SPEC.md §3), so the click joins the shopper's other analytics events. */
  sid: z.uuid({ error: 'sid must be a session id' }).optional(),
  /** The page the click came from (a path on this site). */
  from: z
    .string()
    .max(200)
    .regex(/^\/[^/\\]/, { error: 'from must be a path on this site' })
    .optional(),
})
