import { and, desc, eq } from 'drizzle-orm'
import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { checkoutSessions, orderParcels, orders, outboxEmails } from '../../app/api/db/schema'
import { MemoryRateLimiter } from '../../app/api/rate-limit'
import { LOCAL_TEST_CARDS, type CartParcel, type CartTotals } from '../../app/contract/cart'
import { formatCents } from '../../app/catalogue/currency'
import { stateTaxRules, taxLineLabel } from '../../app/catalogue/sales-tax'
import { MIN_CHARGE_CENTS, withSalesTax } from '../../app/catalogue/pricing'
import { cartItemFor, recordPreview, testAddress } from '../support/cart'
import { giftCode, storeCreditOf } from '../support/credit'
import { createSession } from '../../app/api/services/accounts'
import { refundOrder } from '../../app/api/services/checkout'
import { SESSION_COOKIE } from '../../app/contract/headers'
import { REFERRAL_COOKIE } from '../../app/contract/referral'
import { createTestApi, type TestApi } from '../support/test-api'

/**
 * Issue 29, bug 1 and issue 33 (sales tax, parcels, refunds), as a property: over any sequence of checkouts (repeated, or several at once),
 * cancels, expiries, payments, credit granted (an e-gift, a referral's welcome) and cart changes, after
 * every step the open checkout (or, with none open, the cart) charges the cart's total less
 * min(the credit the shopper holds, what credit may pay); a payment charges exactly that; the ledger sums
 * to the balance GET /v1/store-credit shows; and nothing is ever negative.
 */
/**
 * The tax rule (decision 052), written out independently of pricing.ts: the state's rate on the goods after sale
 * prices, bundle savings and credit, plus shipping where the state taxes it, rounded half up once.
 */
function expectTaxRule(totals: CartTotals) {
  // Per parcel (decision 055), each for its own state; the parcels' goods, credit, shipping and tax are the totals'.
  const sum = (pick: (p: CartTotals['parcels'][number]) => number) => totals.parcels.reduce((n, p) => n + pick(p), 0)
  expect(sum((p) => p.goodsCents)).toBe(totals.subtotalCents - totals.saleSavingsCents - totals.bundleSavingsCents)
  expect(sum((p) => p.creditsCents)).toBe(totals.creditsCents)
  expect(sum((p) => p.shippingCents)).toBe(totals.shippingCents)
  expect(sum((p) => p.taxCents)).toBe(totals.taxCents)
  for (const parcel of totals.parcels) {
    if (!parcel.tax) {
      expect(parcel.taxCents).toBe(0)
      continue
    }
    const { rate, taxesShipping } = stateTaxRules[parcel.tax.state]!
    const taxable = parcel.goodsCents - parcel.creditsCents + (taxesShipping ? parcel.shippingCents : 0)
    expect(parcel.taxCents, JSON.stringify(totals)).toBe(Math.round((taxable * rate) / 100_000))
  }
}

/** The totals with every tax counted as final: a checkout's parcels to the book are final, the cart's estimated. */
const finalTax = (totals: CartTotals) => ({
  ...totals,
  tax: totals.tax && { ...totals.tax, estimated: false },
  parcels: totals.parcels.map((p) => ({ ...p, tax: p.tax && { ...p.tax, estimated: false } })),
})

/** The address book entries each shopper of a run saves first: parcels can go to them. */
const family = [
  { label: 'Grandma Rose', name: 'Rose Rivera', line1: '4 Maple Court', city: 'Columbus', state: 'OH', postalCode: '43004', phone: '' },
  { label: 'Aunt June', name: 'June Park', line1: '88 Pine Street', city: 'Sacramento', state: 'CA', postalCode: '95814', phone: '' },
]

let t: TestApi
let buyerCookie: string

beforeAll(async () => {
  t = await createTestApi()
  buyerCookie = await t.signIn(1)
})
afterAll(() => t.close())

/** Where a payment ships to: states that tax shipping and states that do not, and states with no sales tax. */
const destinations = [
  { state: 'NY', postalCode: '10002', city: 'New York' },
  { state: 'CA', postalCode: '94103', city: 'San Francisco' },
  { state: 'TX', postalCode: '78701', city: 'Austin' },
  { state: 'MN', postalCode: '55401', city: 'Minneapolis' },
  { state: 'OR', postalCode: '97201', city: 'Portland' },
  { state: 'DE', postalCode: '19801', city: 'Wilmington' },
  { state: 'MO', postalCode: '63101', city: 'St. Louis' },
] as const

const step = fc.oneof(
  { arbitrary: fc.record({ kind: fc.constant('add' as const), shape: fc.constantFrom('tree' as const, 'star' as const, 'stocking' as const) }), weight: 3 },
  { arbitrary: fc.record({ kind: fc.constant('quantity' as const), pick: fc.nat(5), quantity: fc.integer({ min: 1, max: 4 }) }), weight: 1 },
  { arbitrary: fc.record({ kind: fc.constant('remove' as const), pick: fc.nat(5) }), weight: 1 },
  { arbitrary: fc.record({ kind: fc.constant('checkout' as const), together: fc.integer({ min: 1, max: 3 }) }), weight: 5 },
  { arbitrary: fc.record({ kind: fc.constant('cancel' as const) }), weight: 1 },
  { arbitrary: fc.record({ kind: fc.constant('expire' as const) }), weight: 1 },
  { arbitrary: fc.record({ kind: fc.constant('pay' as const), to: fc.constantFrom(...destinations) }), weight: 2 },
  { arbitrary: fc.record({ kind: fc.constant('gift' as const), dollars: fc.constantFrom(10, 20, 50) }), weight: 2 },
  { arbitrary: fc.record({ kind: fc.constant('referral' as const) }), weight: 1 },
  { arbitrary: fc.record({ kind: fc.constant('refund' as const) }), weight: 1 },
  {
    arbitrary: fc.record({
      kind: fc.constant('split' as const),
      pick: fc.nat(5),
      to: fc.constantFrom(0, 1),
      quantity: fc.integer({ min: 0, max: 3 }),
      method: fc.constantFrom('standard' as const, 'express' as const),
    }),
    weight: 2,
  },
)
type Step = typeof step extends fc.Arbitrary<infer S> ? S : never

const NUM_RUNS = 10
let stepsRun = 0
/** What the runs went through, so the test proves it exercised replacing, paying with credit and closing. */
const seen = new Set<string>()

describe('what a shopper is charged (property)', () => {
  it('is always the cart total less the credit they hold (as much as credit may pay), and the ledger sums to the balance', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 8 }), async (steps) => {
        let now = new Date('2026-11-22T12:00:00Z')
        t.setNow(now)
        t.api.deps.rateLimiter = new MemoryRateLimiter()
        const shopper = await t.signInGuest()
        const cookie = shopper.cookie
        const userId = shopper.user.id
        const advocateCookie = `${SESSION_COOKIE}=${(await createSession(t.db, t.users[0].id, now)).token}`
        const advocateCode = (await t.request('/v1/growth/advocate/redemptions', { cookie: advocateCookie })).body.code as string
        const entries: string[] = []
        for (const entry of family) entries.push((await t.request('/v1/photo-products-addresses', { method: 'POST', cookie, json: entry })).body.id)
        const openSessions = () =>
          t.db
            .select()
            .from(checkoutSessions)
            .where(and(eq(checkoutSessions.userId, userId), eq(checkoutSessions.purpose, 'cart'), eq(checkoutSessions.status, 'open')))

        for (const s of steps as Step[]) {
          const items = (await t.request('/v1/photo-products-cart', { cookie })).body.items as { id: string }[]
          if (s.kind === 'add') {
            const preview = await recordPreview(t, userId, s.shape)
            await t.request('/v1/photo-products-cart/items', { method: 'POST', cookie, json: cartItemFor(preview) })
          } else if (s.kind === 'quantity' && items.length > 0) {
            const item = items[s.pick % items.length]!
            await t.request(`/v1/photo-products-cart/items/${item.id}`, { method: 'PUT', cookie, json: { quantity: s.quantity } })
          } else if (s.kind === 'remove' && items.length > 0) {
            await t.request(`/v1/photo-products-cart/items/${items[s.pick % items.length]!.id}`, { method: 'DELETE', cookie })
          } else if (s.kind === 'checkout') {
            const replacing = ((await openSessions())[0]?.totals.creditsCents ?? 0) > 0
            const answers = await Promise.all(
              Array.from({ length: s.together }, () => t.request('/v1/photo-products-cart/checkout-session', { method: 'POST', cookie })),
            )
            for (const a of answers) expect([201, 409, 422], JSON.stringify(a.body)).toContain(a.status)
            const [after] = await openSessions()
            if (after && answers.length > 1) seen.add('checkout together')
            if (after && replacing && after.totals.creditsCents > 0) seen.add('replaced a checkout holding credit')
          } else if (s.kind === 'cancel' || s.kind === 'expire' || s.kind === 'pay') {
            const [open] = await openSessions()
            if (s.kind === 'expire') {
              now = new Date(now.getTime() + 2 * 3600_000)
              t.setNow(now)
            }
            if (open && s.kind === 'cancel') {
              await t.request(`/v1/photo-products-cart/checkout-session/${open.id}/cancel`, { method: 'POST', cookie })
            } else if (open && s.kind === 'expire') {
              expect((await t.request(`/v1/photo-products-cart/checkout-session/${open.id}`, { cookie })).body.status).toBe('expired')
            } else if (open && s.kind === 'pay') {
              const paid = await t.request(`/v1/checkout/local/${open.id}/pay`, {
                method: 'POST',
                cookie,
                json: { cardNumber: LOCAL_TEST_CARDS.succeeds, shippingAddress: { ...testAddress, ...s.to } },
              })
              expect(paid.status, JSON.stringify(paid.body)).toBe(200)
              // The order charges what the open checkout said, with the tax of the state the address is in (the
              // estimate it showed, if any, replaced), and its confirmation e-mail and the provider say the same.
              const [order] = await t.db.select().from(orders).where(eq(orders.checkoutSessionId, open.id))
              expect(order!.totals).toEqual(withSalesTax(open.totals, { state: s.to.state, estimated: false }))
              expectTaxRule(order!.totals)
              // Every parcel of the order is one of the checkout's, holding what it said, to where it said.
              const parcels = await t.db.select().from(orderParcels).where(eq(orderParcels.orderId, order!.id)).orderBy(orderParcels.position)
              expect(parcels.map((p) => p.addressId ?? 'own')).toEqual(order!.totals.parcels.map((p) => p.key))
              expect(parcels.map((p) => p.items.reduce((n, i) => n + i.quantity, 0))).toEqual(order!.totals.parcels.map((p) => p.itemCount))
              if (parcels.length > 1) seen.add('paid in parcels')
              expect((await t.api.deps.payments.retrieveSession(`local_${open.id}`)).amountTotalCents).toBe(order!.totals.totalCents)
              const [email] = await t.db
                .select()
                .from(outboxEmails)
                .where(eq(outboxEmails.reference, `order-confirmation:${order!.id}`))
              expect(email!.text).toContain(`Total paid: ${formatCents(order!.totals.totalCents)}`)
              if (order!.totals.taxCents > 0) expect(email!.text).toContain(`${taxLineLabel(order!.totals)}: ${formatCents(order!.totals.taxCents)}`)
              if (open.totals.creditsCents > 0) seen.add('paid with credit')
              if (order!.totals.taxCents > 0 && open.totals.creditsCents > 0) seen.add('taxed after credit')
            }
          } else if (s.kind === 'split' && items.length > 0) {
            // Part of a line to a family member (or none of it), the other parcels as they are.
            const cart = (await t.request('/v1/photo-products-cart', { cookie })).body as { items: { id: string; quantity: number }[]; parcels: CartParcel[] }
            const line = cart.items[s.pick % cart.items.length]!
            const addressId = entries[s.to]!
            const choices = cart.parcels
              .filter((p) => p.addressId)
              .map((p) => ({
                addressId: p.addressId!,
                shippingMethod: p.shippingMethod,
                giftMessage: p.giftMessage,
                recipientEmail: p.recipientEmail,
                items: p.items,
              }))
            const elsewhere = choices.filter((c) => c.addressId !== addressId).flatMap((c) => c.items.filter((i) => i.cartItemId === line.id))
            const quantity = Math.min(s.quantity, line.quantity - elsewhere.reduce((n, i) => n + i.quantity, 0))
            const mine = choices.find((c) => c.addressId === addressId) ?? {
              addressId,
              shippingMethod: s.method,
              giftMessage: '',
              recipientEmail: '',
              items: [],
            }
            mine.shippingMethod = s.method
            mine.items = [...mine.items.filter((i) => i.cartItemId !== line.id), ...(quantity > 0 ? [{ cartItemId: line.id, quantity }] : [])]
            const next = [...choices.filter((c) => c.addressId !== addressId), ...(mine.items.length > 0 ? [mine] : [])]
            const res = await t.request('/v1/photo-products-cart/parcels', { method: 'PUT', cookie, json: { parcels: next } })
            expect(res.status, JSON.stringify(res.body)).toBe(200)
            if (next.length > 0) seen.add('split')
          } else if (s.kind === 'refund') {
            // The operator refunds the shopper's latest order: every parcel stops, and the credit it spent comes back.
            const [latest] = await t.db.select().from(orders).where(eq(orders.userId, userId)).orderBy(desc(orders.createdAt)).limit(1)
            if (latest && latest.status !== 'refunded') {
              const before = (await storeCreditOf(t, cookie, userId)).balanceCents
              await refundOrder(t.api.deps, latest.id)
              expect((await storeCreditOf(t, cookie, userId)).balanceCents).toBe(before + latest.totals.creditsCents)
              const parcels = await t.db.select().from(orderParcels).where(eq(orderParcels.orderId, latest.id))
              expect(parcels.every((p) => p.status === 'refunded')).toBe(true)
              if (latest.totals.creditsCents > 0 && parcels.length > 1) seen.add('refunded parcels and credit')
            }
          } else if (s.kind === 'gift') {
            const code = await giftCode(t, buyerCookie, s.dollars * 100)
            expect((await t.request('/v1/egifts/redeem', { method: 'POST', cookie, json: { code } })).status).toBe(200)
          } else if (s.kind === 'referral') {
            await t.request('/v1/growth/referred/redemptions', {
              method: 'POST',
              cookie: `${cookie}; ${REFERRAL_COOKIE}=${advocateCode}`,
              json: { timezone: 'UTC' },
            })
          }
          stepsRun++

          // The invariants, after every step.
          const credit = await storeCreditOf(t, cookie, userId)
          expect(credit.balanceCents).toBe(credit.ledgerSumCents)
          expect(credit.balanceCents).toBeGreaterThanOrEqual(0)
          const cart = (await t.request('/v1/photo-products-cart', { cookie })).body
          const open = await openSessions()
          expect(open.length).toBeLessThanOrEqual(1)
          const session = open[0]
          const held = credit.balanceCents + (session?.creditStatus === 'reserved' ? session.totals.creditsCents : 0)
          // A checkout made but not yet priced is never left open; one that is open holds what its totals say.
          if (session) expect(session.creditStatus).toBe(session.totals.creditsCents > 0 ? 'reserved' : 'none')
          for (const totals of session ? [session.totals, cart.totals] : [cart.totals]) {
            const goods = totals.subtotalCents - totals.saleSavingsCents - (totals.bundleSavingsCents ?? 0)
            const beforeCredit = goods + totals.shippingCents
            const creditMayPay = Math.max(0, Math.min(goods, beforeCredit - MIN_CHARGE_CENTS))
            expect(totals.creditsCents, JSON.stringify({ held, totals })).toBe(Math.min(held, creditMayPay))
            expect(totals.totalCents).toBe(beforeCredit - totals.creditsCents + totals.taxCents)
            // Before an address, the shopper's own parcel is estimated for the state of their last order (none before one).
            const own = (totals.parcels as CartTotals['parcels']).find((p) => p.key === 'own')
            if (own) expect(own.tax?.estimated ?? true).toBe(true)
            expectTaxRule(totals)
            if (!totals.tax) expect(totals.taxCents).toBe(0)
            for (const cents of [totals.creditsCents, totals.totalCents, totals.shippingCents, goods]) expect(cents).toBeGreaterThanOrEqual(0)
          }
          // The open checkout charges what the cart shows (a cart change closes it).
          if (session) {
            expect(finalTax(session.totals)).toEqual(finalTax(cart.totals))
          }
        }
      }),
      {
        numRuns: NUM_RUNS,
        examples: [
          // The report: $10 of credit, one line, Checkout twice, then two at once, then pay.
          [
            [
              { kind: 'referral' },
              { kind: 'add', shape: 'tree' },
              { kind: 'checkout', together: 1 },
              { kind: 'checkout', together: 1 },
              { kind: 'checkout', together: 2 },
              { kind: 'pay', to: destinations[0] },
            ],
          ],
          // Credit granted while a checkout is open, then a cart change, then Back and Checkout again.
          [
            [
              { kind: 'add', shape: 'star' },
              { kind: 'gift', dollars: 10 },
              { kind: 'checkout', together: 1 },
              { kind: 'gift', dollars: 20 },
              { kind: 'checkout', together: 3 },
              { kind: 'add', shape: 'tree' },
              { kind: 'cancel' },
              { kind: 'checkout', together: 1 },
              { kind: 'pay', to: destinations[3] },
            ],
          ],
          // Issue 33: with credit, part of a line to Grandma by express, the rest home; checkout, a change of parcels, pay.
          [
            [
              { kind: 'referral' },
              { kind: 'add', shape: 'stocking' },
              { kind: 'quantity', pick: 0, quantity: 3 },
              { kind: 'split', pick: 0, to: 0, quantity: 1, method: 'express' },
              { kind: 'checkout', together: 1 },
              { kind: 'split', pick: 0, to: 1, quantity: 1, method: 'standard' },
              { kind: 'checkout', together: 1 },
              { kind: 'pay', to: destinations[1] },
              { kind: 'refund' },
            ],
          ],
        ],
      },
    )
    console.log(`checkout credit property: ${NUM_RUNS} generated runs + 3 examples, ${stepsRun} events, each followed by the invariant checks`)
    expect([...seen].sort()).toEqual([
      'checkout together',
      'paid in parcels',
      'paid with credit',
      'refunded parcels and credit',
      'replaced a checkout holding credit',
      'split',
      'taxed after credit',
    ])
  }, 300_000)
})
