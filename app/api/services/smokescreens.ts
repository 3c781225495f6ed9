/**
 * Smokescreens (issue 7): demand for products we do not sell yet. A sign-up is stored once per
 * (kind, product, shopper) — by user when signed in, else by e-mail — so the counts the team reads
 * (`npm run report:smokescreens`) are people, not button presses.
 */
import { and, count, eq, sql } from 'drizzle-orm'
import { smokescreenProducts, type DeliveryRequest, type SmokescreenReport, type SmokescreenTally, type WaitlistRequest } from '../../contract/smokescreens'
import type { Database } from '../db/client'
import { smokescreenSignups } from '../db/schema'
import type { ApiDeps, SessionUser } from '../env'
import { enforceRateLimits, type RateLimitRule } from '../rate-limit'

export const SMOKESCREEN_SIGNUPS_PER_ADDRESS: RateLimitRule = { name: 'smokescreen-address', limit: 20, windowMs: 3600_000, whenStoreDown: 'open' }

type Kind = 'waitlist' | 'delivery'

async function countOf(db: Database, kind: Kind, product: string) {
  const [row] = await db
    .select({ n: count() })
    .from(smokescreenSignups)
    .where(and(eq(smokescreenSignups.kind, kind), eq(smokescreenSignups.product, product)))
  return Number(row?.n ?? 0)
}

export async function signUp(deps: ApiDeps, kind: Kind, input: WaitlistRequest | DeliveryRequest, user: SessionUser | null, clientAddress: string) {
  await enforceRateLimits(deps.rateLimiter, [{ rule: SMOKESCREEN_SIGNUPS_PER_ADDRESS, key: clientAddress }], deps.now())
  const { product, ...fields } = input
  const email = input.email.toLowerCase()
  const inserted = await deps.db
    .insert(smokescreenSignups)
    .values({
      kind,
      product,
      dedupeKey: user ? `user:${user.id}` : `email:${email}`,
      userId: user?.id ?? null,
      email,
      sourcePage: 'sourcePage' in input ? input.sourcePage : null,
      fields: Object.fromEntries(Object.entries(fields).map(([k, v]) => [k, String(v)])),
      createdAt: deps.now(),
    })
    .onConflictDoNothing()
    .returning({ id: smokescreenSignups.id })
  return { kind, product, created: inserted.length > 0, count: await countOf(deps.db, kind, product) }
}

/** Sign-ups per product and kind, most wanted first (the team's report). */
export async function smokescreenReport(db: Database) {
  return db
    .select({
      product: smokescreenSignups.product,
      kind: smokescreenSignups.kind,
      signups: count(),
      signedIn: sql<number>`count(${smokescreenSignups.userId})::int`,
      lastAt: sql<string>`max(${smokescreenSignups.createdAt})`,
    })
    .from(smokescreenSignups)
    .groupBy(smokescreenSignups.product, smokescreenSignups.kind)
    .orderBy(sql`count(*) desc`, smokescreenSignups.product, smokescreenSignups.kind)
}

/** The report as one line per product, most wanted first; products nobody asked for come last with zeros. */
export async function smokescreenTallies(db: Database, now: Date): Promise<SmokescreenReport> {
  return { products: tallyByProduct(await smokescreenReport(db)), readAt: now.toISOString() }
}

function tallyByProduct(rows: { product: string; kind: Kind; signups: number | string; lastAt: string | Date | null }[]): SmokescreenTally[] {
  const tallies = new Map<string, SmokescreenTally>(
    smokescreenProducts.map((product) => [product, { product, waitlist: 0, delivery: 0, total: 0, lastAt: null }]),
  )
  for (const row of rows) {
    const tally = tallies.get(row.product) ?? { product: row.product, waitlist: 0, delivery: 0, total: 0, lastAt: null }
    const n = Number(row.signups)
    tally[row.kind] += n
    tally.total += n
    const at = row.lastAt === null ? null : new Date(row.lastAt).toISOString()
    if (at && (!tally.lastAt || at > tally.lastAt)) tally.lastAt = at
    tallies.set(row.product, tally)
  }
  return [...tallies.values()].sort((a, b) => b.total - a.total || b.waitlist - a.waitlist || a.product.localeCompare(b.product))
}
