/** The partner offers of demo mode's offer wall (/fmn), seeded with the demo families (server.ts, scripts/seed-demo.ts). */
import type { Database } from '../db/client'
import { partnerOffers } from '../db/schema'

/** Demo mode's offers (idempotent: existing rows are left as they are). Partners are fictional, on the reserved .example domain. */
export const demoOffers: (typeof partnerOffers.$inferInsert)[] = [
  {
    id: 'little-reader-books',
    title: 'Three picture books for $5',
    partner: 'Little Reader Book Club',
    reward: '3 books for $5',
    summary: 'A monthly box of picture books chosen for your child’s age, starting with three for $5.',
    terms: [
      'New members only; one per household.',
      'The membership renews monthly at $14.99 after the first box; cancel any time on the partner’s site.',
      'Ships within the US.',
    ],
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
