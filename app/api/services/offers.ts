/**
 * The partner offer wall (/fmn, issue 7). Offers live in the database; a click is recorded (Fmn
 * events: a partner_offer_clicks row and a DidClickFmnOffer analytics event) and then redirected to
 * the offer's stored https URL — the click endpoint takes no URL from the request, so it cannot be
 * used as an open redirect.
 */
import { randomUUID } from 'node:crypto'
import { and, asc, eq } from 'drizzle-orm'
import type { PartnerOffer } from '../../contract/offers'
import type { Database } from '../db/client'
import { analyticsEvents, partnerOfferClicks, partnerOffers } from '../db/schema'
import type { ApiDeps, SessionUser } from '../env'
import { notFound } from '../errors'
import type { RateLimitRule } from '../rate-limit'

type OfferRow = typeof partnerOffers.$inferSelect

/** Clicks recorded per address and hour; beyond it the shopper is still sent on, but not counted again. */
export const OFFER_CLICKS_PER_ADDRESS: RateLimitRule = { name: 'offer-clicks-address', limit: 60, windowMs: 3600_000, whenStoreDown: 'open' }

export function offerView(row: OfferRow): PartnerOffer {
  return {
    id: row.id,
    title: row.title,
    partner: row.partner,
    reward: row.reward,
    summary: row.summary,
    terms: row.terms,
    imageUrl: row.imageUrl,
    imageAlt: row.imageAlt,
    partnerHost: new URL(row.targetUrl).host,
    clickUrl: `/v1/fmn/offers/${row.id}/click`,
  }
}

export async function listOffers(db: Database) {
  const rows = await db.select().from(partnerOffers).where(eq(partnerOffers.active, true)).orderBy(asc(partnerOffers.sortOrder), asc(partnerOffers.id))
  return { offers: rows.map(offerView) }
}

async function activeOffer(db: Database, id: string) {
  const [row] = await db
    .select()
    .from(partnerOffers)
    .where(and(eq(partnerOffers.id, id), eq(partnerOffers.active, true)))
  if (!row) throw notFound('Offer')
  return row
}

export async function getOffer(db: Database, id: string) {
  return offerView(await activeOffer(db, id))
}

/** Records the click (unless this address is clicking in a burst) and answers where to send the shopper. */
export async function clickOffer(
  deps: ApiDeps,
  input: { id: string; user: SessionUser | null; sid: string | undefined; from: string | undefined; clientAddress: string },
): Promise<string> {
  const offer = await activeOffer(deps.db, input.id)
  const now = deps.now()
  const counted = await deps.rateLimiter.hit(OFFER_CLICKS_PER_ADDRESS, input.clientAddress, now)
  if (counted.allowed) {
    const path = input.from ?? '/fmn/offer-wall'
    await deps.db.transaction(async (tx) => {
      await tx
        .insert(partnerOfferClicks)
        .values({ offerId: offer.id, userId: input.user?.id ?? null, sid: input.sid ?? null, fromPath: input.from ?? null, createdAt: now })
      await tx.insert(analyticsEvents).values({
        name: 'DidClickFmnOffer',
        properties: { offerId: offer.id, partner: offer.partner },
        path,
        url: `${deps.config.publicUrl}${path}`,
        sid: input.sid ?? randomUUID(),
        userId: input.user?.id ?? null,
        occurredAt: now,
        receivedAt: now,
      })
    })
  }
  return offer.targetUrl
}
