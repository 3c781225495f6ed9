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
export const OFFER_CLICKS_PER_ADDRESS: RateLimitRule = { name: 'offer-clicks-address', limit: 60, windowMs: 3600_000 }

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
  const [row] = await db.select().from(partnerOffers).where(and(eq(partnerOffers.id, id), eq(partnerOffers.active, true)))
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
      await tx.insert(partnerOfferClicks).values({ offerId: offer.id, userId: input.user?.id ?? null, sid: input.sid ?? null, fromPath: input.from ?? null, createdAt: now })
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

/** Demo mode's offers (idempotent: existing rows are left as they are). Partners are fictional, on the reserved .example domain. */
export const demoOffers: (typeof partnerOffers.$inferInsert)[] = [
  {
    id: 'little-reader-books',
    title: 'Three picture books for $5',
    partner: 'Little Reader Book Club',
    reward: '3 books for $5',
    summary: 'A monthly box of picture books chosen for your child’s age, starting with three for $5.',
    terms: ['New members only; one per household.', 'The membership renews monthly at $14.99 after the first box; cancel any time on the partner’s site.', 'Ships within the US.'],
    imageUrl: '/fmn/offers/little-reader-books.svg',
    imageAlt: 'A stack of colourful picture books',
    targetUrl: 'https://littlereader.example/join?ref=keepsake',
    sortOrder: 1,
  },
  {
    id: 'meal-kit-family',
    title: 'Family meal kit: 50% off your first box',
    partner: 'Supper Crate',
    reward: '50% off',
    summary: 'Four family-size dinners with every ingredient measured, half price on the first delivery.',
    terms: ['First box only, for new customers.', 'The subscription continues at the regular price unless you skip or cancel on the partner’s site.'],
    imageUrl: '/fmn/offers/meal-kit-family.svg',
    imageAlt: 'A box of fresh vegetables and a recipe card',
    targetUrl: 'https://suppercrate.example/offers/family-half-off',
    sortOrder: 2,
  },
  {
    id: 'kids-swim-lessons',
    title: 'A free trial swim lesson',
    partner: 'Splash Swim School',
    reward: 'Free lesson',
    summary: 'One free 30-minute lesson for children from 6 months to 12 years at any Splash pool.',
    terms: ['One trial lesson per child.', 'Book on the partner’s site; subject to availability at your nearest pool.'],
    imageUrl: '/fmn/offers/kids-swim-lessons.svg',
    imageAlt: 'A swimming pool with a rubber ring',
    targetUrl: 'https://splashswim.example/trial',
    sortOrder: 3,
  },
  {
    id: 'photo-book-print',
    title: '20% off a hardcover family album',
    partner: 'Bindery & Co.',
    reward: '20% off',
    summary: 'A lay-flat hardcover album of up to 100 pages, printed from the photos on your phone.',
    terms: ['One use per customer; not combinable with other codes.', 'The discount applies at the partner’s checkout.'],
    imageUrl: '/fmn/offers/photo-book-print.svg',
    imageAlt: 'An open photo album',
    targetUrl: 'https://bindery.example/albums?promo=KEEPSAKE20',
    sortOrder: 4,
  },
]

export async function seedDemoOffers(db: Database) {
  await db.insert(partnerOffers).values(demoOffers).onConflictDoNothing({ target: partnerOffers.id })
}
