import { eq, sql } from 'drizzle-orm'
import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { carts, checkoutSessions, creditEntries, jobs, orders, referralRedemptions } from '../../app/api/db/schema'
import { MemoryRateLimiter } from '../../app/api/rate-limit'
import { createSession } from '../../app/api/services/accounts'
import { refundOrder } from '../../app/api/services/checkout'
import { fulfilmentJobs } from '../../app/api/services/fulfilment'
import { drainJobs } from '../../app/api/services/jobs'
import { referralJobs } from '../../app/api/services/referral'
import { LOCAL_TEST_CARDS } from '../../app/contract/cart'
import { SESSION_COOKIE } from '../../app/contract/headers'
import { REFERRAL_COOKIE } from '../../app/contract/referral'
import { cartItemFor, recordPreview } from '../support/cart'
import { createTestApi, type TestApi } from '../support/test-api'

/**
 * Store-credit ledger: any sequence of redeem / checkout / pay (fulfil) / cancel / expire / refund / time passing
 * keeps every balance equal to the sum of its entries and never negative, and credit is never spent
 * twice: each checkout's entries net to nothing (released) or to what it spent, and no order used
 * more credit than its shopper was ever given.
 */
let t: TestApi
const address = {
  name: 'Ledger Test',
  email: 'ledger@example.com',
  phone: '518 555 0100',
  line1: '1 Main St',
  city: 'Albany',
  state: 'NY',
  postalCode: '12207',
  country: 'US' as const,
}

beforeAll(async () => {
  t = await createTestApi()
})
afterAll(() => t.close())

const who = fc.nat(1)
const op = fc.oneof(
  { arbitrary: fc.record({ kind: fc.constant('redeem' as const), who }), weight: 3 },
  { arbitrary: fc.record({ kind: fc.constant('checkout' as const), who, shape: fc.constantFrom('tree' as const, 'star' as const) }), weight: 4 },
  { arbitrary: fc.record({ kind: fc.constant('pay' as const), who }), weight: 4 },
  { arbitrary: fc.record({ kind: fc.constant('cancel' as const), who }), weight: 1 },
  { arbitrary: fc.record({ kind: fc.constant('expire' as const) }), weight: 1 },
  { arbitrary: fc.record({ kind: fc.constant('refund' as const), pick: fc.nat(10) }), weight: 2 },
  { arbitrary: fc.record({ kind: fc.constant('days' as const), days: fc.integer({ min: 1, max: 40 }) }), weight: 2 },
)
/** What the runs went through, so the test proves it exercised spending, releasing, refunds and rewards. */
const seen = new Set<string>()

describe('store-credit ledger (property)', () => {
  it('balances are sums of entries, never negative, and no credit is spent twice', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(op, { minLength: 1, maxLength: 20 }), async (ops) => {
        let now = new Date('2026-11-22T12:00:00Z')
        t.setNow(now)
        t.api.deps.rateLimiter = new MemoryRateLimiter()
        for (const table of [referralRedemptions, creditEntries, orders, checkoutSessions, carts, jobs]) await t.db.delete(table)

        const advocate = t.users[0]
        const friends = [await t.signInGuest(), await t.signInGuest()].map((g) => g.user)
        const cookieOf = async (userId: string) => `${SESSION_COOKIE}=${(await createSession(t.db, userId, now)).token}`
        const advocateCode = (await t.request('/v1/growth/advocate/redemptions', { cookie: await cookieOf(advocate.id) })).body.code as string

        for (const step of ops) {
          const friend = 'who' in step ? friends[step.who]! : null
          const cookie = friend ? await cookieOf(friend.id) : ''
          if (step.kind === 'redeem') {
            await t.request('/v1/growth/referred/redemptions', {
              method: 'POST',
              cookie: `${cookie}; ${REFERRAL_COOKIE}=${advocateCode}`,
              json: { timezone: 'UTC' },
            })
          } else if (step.kind === 'checkout') {
            const preview = await recordPreview(t, friend!.id, step.shape)
            await t.request('/v1/photo-products-cart/items', { method: 'POST', cookie, json: cartItemFor(preview) })
            await t.request('/v1/photo-products-cart/checkout-session', { method: 'POST', cookie })
          } else if (step.kind === 'pay' || step.kind === 'cancel') {
            const [open] = await t.db
              .select()
              .from(checkoutSessions)
              .where(sql`${checkoutSessions.userId} = ${friend!.id} and ${checkoutSessions.status} = 'open'`)
            if (open && step.kind === 'pay') {
              await t.request(`/v1/checkout/local/${open.id}/pay`, {
                method: 'POST',
                cookie,
                json: { cardNumber: LOCAL_TEST_CARDS.succeeds, shippingAddress: address },
              })
            } else if (open) {
              await t.request(`/v1/photo-products-cart/checkout-session/${open.id}/cancel`, { method: 'POST', cookie })
            }
          } else if (step.kind === 'expire') {
            now = new Date(now.getTime() + 2 * 3600_000)
            t.setNow(now)
            for (const open of await t.db.select().from(checkoutSessions).where(eq(checkoutSessions.status, 'open'))) {
              await t.request(`/v1/photo-products-cart/checkout-session/${open.id}`, { cookie: await cookieOf(open.userId) })
            }
          } else if (step.kind === 'refund') {
            const all = await t.db.select().from(orders)
            if (all.length > 0) await refundOrder(t.api.deps, all[step.pick % all.length]!.id)
          } else {
            now = new Date(now.getTime() + step.days * 24 * 3600_000)
            t.setNow(now)
            await drainJobs(t.api.deps, { ...fulfilmentJobs, ...referralJobs })
          }
          await checkInvariants()
        }
      }),
      {
        numRuns: 40,
        // Alongside the random runs, known paths: a reward credited after the hold, a refund of credit spent, a lapse.
        examples: [
          [
            [
              { kind: 'redeem', who: 0 },
              { kind: 'checkout', who: 0, shape: 'star' },
              { kind: 'pay', who: 0 },
              { kind: 'days', days: 15 },
              { kind: 'refund', pick: 0 },
            ],
          ],
          [
            [
              { kind: 'redeem', who: 1 },
              { kind: 'checkout', who: 1, shape: 'tree' },
              { kind: 'cancel', who: 1 },
              { kind: 'checkout', who: 1, shape: 'star' },
              { kind: 'pay', who: 1 },
              { kind: 'refund', pick: 0 },
            ],
          ],
          [
            [
              { kind: 'redeem', who: 0 },
              { kind: 'checkout', who: 0, shape: 'star' },
              { kind: 'days', days: 40 },
              { kind: 'expire' },
              { kind: 'days', days: 30 },
            ],
          ],
        ],
      },
    )
    expect([...seen].sort()).toEqual([
      'checkout_released',
      'checkout_reserved',
      'referral_reward',
      'referral_welcome',
      'referral_welcome_lapsed',
      'refund_restored',
      'spent',
    ])
  }, 300_000)
})

async function checkInvariants() {
  const entries = await t.db.select().from(creditEntries)
  for (const e of entries) seen.add(e.reason)
  const balances = new Map<string, number>()
  for (const e of entries) balances.set(e.userId, (balances.get(e.userId) ?? 0) + e.amountCents)
  // Never negative at any point in a user's history, not just now.
  const result = (await t.db.execute(sql`
    select count(*)::int as negative from (
      select sum(amount_cents) over (partition by user_id order by id) as running from credit_entries
    ) r where running < 0`)) as unknown as { rows: { negative: number }[] }
  expect(Number(result.rows[0]!.negative)).toBe(0)
  for (const [userId, balance] of balances) expect(balance, `balance of ${userId}`).toBeGreaterThanOrEqual(0)

  // Each checkout's entries net to 0 (released, or never held) or to what it spent (its order's credit).
  const sessions = await t.db.select().from(checkoutSessions)
  const orderBySession = new Map((await t.db.select().from(orders)).map((o) => [o.checkoutSessionId, o]))
  for (const s of sessions) {
    const own = entries.filter((e) => e.reference === `checkout:${s.id}`)
    const net = own.reduce((n, e) => n + e.amountCents, 0)
    expect(own.filter((e) => e.reason === 'checkout_reserved').length).toBeLessThanOrEqual(1)
    expect(own.filter((e) => e.reason === 'checkout_released').length).toBeLessThanOrEqual(1)
    if (s.creditStatus === 'spent') {
      seen.add('spent')
      expect(orderBySession.has(s.id)).toBe(true)
      expect(-net).toBeGreaterThan(0)
      expect(-net).toBeLessThanOrEqual(s.totals.creditsCents)
    } else if (s.creditStatus === 'reserved') {
      expect(['open', 'processing']).toContain(s.status)
      expect(net).toBe(-s.totals.creditsCents)
    } else {
      expect(net).toBe(0)
    }
  }
  // Never spent twice: what a shopper's orders used is at most what they were given (welcome, rewards, refunds).
  const userIds = new Set(sessions.map((s) => s.userId))
  for (const userId of userIds) {
    const given = entries.filter((e) => e.userId === userId && e.amountCents > 0 && e.reason !== 'checkout_released').reduce((n, e) => n + e.amountCents, 0)
    const used = [...orderBySession.values()].filter((o) => o.userId === userId).reduce((n, o) => n + o.totals.creditsCents, 0)
    expect(used).toBeLessThanOrEqual(given)
  }
}
