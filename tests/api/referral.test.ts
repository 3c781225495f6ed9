import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { carts, checkoutSessions, creditEntries, jobs, orders, referralCodes, referralRedemptions, referralUserActions } from '../../app/api/db/schema'
import { refundOrder } from '../../app/api/services/checkout'
import { fulfilmentJobs } from '../../app/api/services/fulfilment'
import { drainJobs } from '../../app/api/services/jobs'
import { MemoryRateLimiter } from '../../app/api/rate-limit'
import { balanceOf } from '../../app/api/services/credit'
import { createSession } from '../../app/api/services/accounts'
import { SESSION_COOKIE } from '../../app/contract/headers'
import { referralJobs, referralRateLimits, setCodeDisabled } from '../../app/api/services/referral'
import { LOCAL_TEST_CARDS } from '../../app/contract/cart'
import {
  ADVOCATE_REWARD_CENTS,
  REDEMPTION_VALID_DAYS,
  REFERRAL_CODE_PATTERN,
  REFERRAL_COOKIE,
  REFERRED_CREDIT_CENTS,
  REWARD_HOLD_DAYS,
} from '../../app/contract/referral'
import { cartItemFor, recordPreview } from '../support/cart'
import { createTestApi, TEST_ORIGIN, type TestApi } from '../support/test-api'

let t: TestApi
let maya: string
let sam: string
const DAY = 24 * 3600_000
const start = new Date('2026-11-22T12:00:00Z')
const address = {
  name: 'Priya Guest',
  email: 'priya@example.com',
  phone: '212 555 0100',
  line1: '12 Orchard Street',
  city: 'New York',
  state: 'NY',
  postalCode: '10002',
  country: 'US' as const,
}
let nextAddress = 1
/** Each test comes from its own network address, so per-address limits only meet where a test means them to. */
let from = ''

beforeAll(async () => {
  t = await createTestApi()
  maya = await t.signIn(0)
  sam = await t.signIn(1)
})
afterAll(() => t.close())

beforeEach(async () => {
  t.setNow(start)
  from = `198.51.100.${nextAddress++}`
  await t.db.delete(referralRedemptions)
  await t.db.delete(referralUserActions)
  await t.db.delete(creditEntries)
  await t.db.delete(orders)
  await t.db.delete(checkoutSessions)
  await t.db.delete(carts)
  await t.db.delete(jobs)
  await t.db.update(referralCodes).set({ disabled: false })
  t.api.deps.rateLimiter = new MemoryRateLimiter()
})

const call = (path: string, cookie: string | null, init: Parameters<TestApi['request']>[1] = {}) =>
  t.request(path, { clientAddress: from, ...(cookie ? { cookie } : {}), ...init })
const advocateState = async (cookie = maya) => (await call('/v1/growth/advocate/redemptions', cookie)).body
const mayaCode = async () => (await advocateState()).code as string

/** A friend who opened Maya's link: their session cookie plus the remembered invite. */
async function friendWithInvite(code?: string) {
  const guest = await t.signInGuest(from)
  const landed = await call(`/v1/growth/referral-codes/${code ?? (await mayaCode())}`, null)
  expect(landed.status).toBe(200)
  const remembered = landed.headers.get('set-cookie')!.split(';')[0]!
  return { ...guest, cookie: `${guest.cookie}; ${remembered}` }
}
const redeem = (cookie: string, body: unknown = { timezone: 'America/New_York' }) =>
  call('/v1/growth/referred/redemptions', cookie, { method: 'POST', json: body })

/** Everything the programme records: the refusals below must leave all of it as it was. */
async function recorded() {
  return {
    entries: await t.db.select().from(creditEntries),
    redemptions: await t.db.select().from(referralRedemptions),
    jobs: (await t.db.select().from(jobs)).map((j) => j.dedupeKey).sort(),
  }
}
const balance = async (cookie: string) => (await call('/v1/store-credit', cookie)).body.balanceCents as number
const runJobs = () => drainJobs(t.api.deps, { ...fulfilmentJobs, ...referralJobs })

async function buyStar(cookie: string, userId: string) {
  const preview = await recordPreview(t, userId, 'star')
  const added = await call('/v1/photo-products-cart/items', cookie, { method: 'POST', json: cartItemFor(preview) })
  expect(added.status).toBe(201)
  const session = await call('/v1/photo-products-cart/checkout-session', cookie, { method: 'POST' })
  expect(session.status).toBe(201)
  return session.body as { id: string; totals: { creditsCents: number; totalCents: number } }
}
async function pay(cookie: string, sessionId: string) {
  const paid = await call(`/v1/checkout/local/${sessionId}/pay`, cookie, {
    method: 'POST',
    json: { cardNumber: LOCAL_TEST_CARDS.succeeds, shippingAddress: address },
  })
  expect(paid.status).toBe(200)
  return paid.body.orderId as string
}

describe('advocates', () => {
  it('every user has one stable, human-friendly code and a share link', async () => {
    const first = await advocateState()
    expect(first.code).toMatch(REFERRAL_CODE_PATTERN)
    expect(first.code.startsWith('MAYA-')).toBe(true)
    expect(first.link).toBe(`${TEST_ORIGIN}/r/${first.code}`)
    expect(first).toMatchObject({ advocateFirstName: 'Maya', earnedCents: 0, pendingCents: 0, redemptions: [] })
    expect((await advocateState()).code).toBe(first.code)
    expect((await advocateState(sam)).code).not.toBe(first.code)
  })

  it("answers at SPEC.md §7's own spelling, with its trailing slash, with no redirect (issue 42, item 16)", async () => {
    const spelled = await call('/v1/growth/advocate/redemptions/?from=spec', maya)
    expect(spelled.status).toBe(200)
    expect(spelled.headers.get('location')).toBeNull()
    expect(spelled.body).toEqual(await advocateState())
    expect((await call('/v1/growth/advocate/redemptions/', null)).status).toBe(401)
    // A path SPEC.md does not spell with a slash is still sent, permanently, to the one without it.
    const slashed = await call('/v1/growth/referred/redemptions/?from=elsewhere', maya)
    expect(slashed.status).toBe(308)
    expect(slashed.headers.get('location')).toBe('/v1/growth/referred/redemptions?from=elsewhere')
  })

  it('needs a signed-in user', async () => {
    expect((await call('/v1/growth/advocate/redemptions', null)).status).toBe(401)
  })
})

describe('landing on an invite', () => {
  it('tells the advocate the invite is hers (and no one else: signed out, or another shopper)', async () => {
    const code = await mayaCode()
    expect((await call(`/v1/growth/referral-codes/${code}`, maya)).body).toMatchObject({ code, yours: true })
    expect((await call(`/v1/growth/referral-codes/${code}`, null)).body).not.toHaveProperty('yours')
    const guest = await t.signInGuest(from)
    expect((await call(`/v1/growth/referral-codes/${code}`, guest.cookie)).body).not.toHaveProperty('yours')
  })

  it('names the advocate by first name, shows the offer and remembers the code in an HttpOnly cookie for 30 days', async () => {
    const code = await mayaCode()
    const res = await call(`/v1/growth/referral-codes/${code.toLowerCase()}`, null)
    expect(res.status).toBe(200)
    expect(res.body).toEqual({
      code,
      advocateFirstName: 'Maya',
      referredCreditCents: REFERRED_CREDIT_CENTS,
      advocateRewardCents: ADVOCATE_REWARD_CENTS,
      rememberedDays: 30,
    })
    const cookie = res.headers.get('set-cookie')!
    expect(cookie).toContain(`${REFERRAL_COOKIE}=${code}`)
    expect(cookie).toMatch(/HttpOnly/i)
    expect(cookie).toContain(`Max-Age=${30 * 24 * 3600}`)
    expect(JSON.stringify(res.body)).not.toContain('Rivera')
  })

  it.each([
    ['an unknown code', 'MAYA-0000-0000', 404],
    ['a malformed code', 'not a code!', 400],
    ['an over-long code', 'A'.repeat(40), 400],
  ])('refuses %s without remembering anything', async (_name, code, status) => {
    const res = await call(`/v1/growth/referral-codes/${encodeURIComponent(code)}`, null)
    expect(res.status).toBe(status)
    expect(res.headers.get('set-cookie')).toBeNull()
  })

  it('refuses a burst of lookups from one address, remembering nothing', async () => {
    const code = await mayaCode()
    const { limit } = referralRateLimits.lookupPerAddress
    for (let i = 0; i < limit; i++) expect((await call(`/v1/growth/referral-codes/${code}`, null)).status).toBe(200)
    const res = await call(`/v1/growth/referral-codes/${code}`, null)
    expect(res.status).toBe(429)
    expect(res.body.error.message).toMatch(/^Too many attempts; try again in \d+ minutes?$/)
    expect(res.headers.get('set-cookie')).toBeNull()
    // Another address is not held back.
    expect((await call(`/v1/growth/referral-codes/${code}`, null, { clientAddress: '192.0.2.99' })).status).toBe(200)
  })

  it('a disabled code is not found', async () => {
    const code = await mayaCode()
    await setCodeDisabled(t.db, code, true)
    const res = await call(`/v1/growth/referral-codes/${code}`, null)
    expect(res.status).toBe(404)
    expect(res.body.error.message).toBe('This invite code is not valid. Ask your friend to send their link again.')
  })
})

describe('redeeming', () => {
  it('a signed-in friend redeems the remembered invite: welcome credit, pending reward, expiry', async () => {
    const friend = await friendWithInvite()
    const before = await call('/v1/growth/referred/redemptions', friend.cookie)
    expect(before.body).toMatchObject({ redemption: null, invite: { advocateFirstName: 'Maya' }, balanceCents: 0 })

    const res = await redeem(friend.cookie)
    expect(res.status).toBe(201)
    expect(res.body.redemption).toMatchObject({
      status: 'pending',
      advocateFirstName: 'Maya',
      creditCents: REFERRED_CREDIT_CENTS,
      timezone: 'America/New_York',
      expiresAt: new Date(start.getTime() + REDEMPTION_VALID_DAYS * DAY).toISOString(),
    })
    expect(res.body.balanceCents).toBe(REFERRED_CREDIT_CENTS)
    expect((await call('/v1/growth/referred/redemptions', friend.cookie)).body.redemption.id).toBe(res.body.redemption.id)
    const credit = (await call('/v1/store-credit', friend.cookie)).body
    expect(credit.entries).toMatchObject([
      { amountCents: REFERRED_CREDIT_CENTS, reason: 'referral_welcome', reference: `redemption:${res.body.redemption.id}` },
    ])

    const state = await advocateState()
    expect(state.pendingCents).toBe(ADVOCATE_REWARD_CENTS)
    expect(state.redemptions).toMatchObject([
      { id: res.body.redemption.id, status: 'pending', friendFirstName: friend.user.firstName, rewardCents: ADVOCATE_REWARD_CENTS },
    ])
    const one = await call(`/v1/growth/advocate/redemptions/${res.body.redemption.id}`, maya)
    expect(one.status).toBe(200)
    expect(one.body.redemption.friendFirstName).toBe(friend.user.firstName)
    // Another advocate's redemption is not found.
    expect((await call(`/v1/growth/advocate/redemptions/${res.body.redemption.id}`, sam)).status).toBe(404)
    expect((await call('/v1/growth/advocate/redemptions/not-a-uuid', maya)).status).toBe(400)
  })

  it('refuses self-referral, with nothing recorded', async () => {
    const own = (await call(`/v1/growth/referral-codes/${await mayaCode()}`, null)).headers.get('set-cookie')!.split(';')[0]!
    const before = await recorded()
    const res = await redeem(`${maya}; ${own}`)
    expect(res.status).toBe(422)
    expect(res.body.error.message).toBe('This is your own invite. Share it with another family; invites are for friends.')
    expect(await recorded()).toEqual(before)
  })

  it('refuses a second redemption by the same friend, with nothing more recorded', async () => {
    const friend = await friendWithInvite()
    expect((await redeem(friend.cookie)).status).toBe(201)
    const before = await recorded()
    // Even through another advocate's link.
    const samCode = (await advocateState(sam)).code
    const other = (await call(`/v1/growth/referral-codes/${samCode}`, null)).headers.get('set-cookie')!.split(';')[0]!
    const again = await redeem(`${friend.cookie.split(';')[0]}; ${other}`)
    expect(again.status).toBe(409)
    expect(again.body.error.message).toBe('You have already redeemed an invite; your credit is waiting for your first order.')
    expect(await recorded()).toEqual(before)
  })

  it('refuses a friend who already has a paid order', async () => {
    const friend = await friendWithInvite()
    const session = await buyStar(friend.cookie, friend.user.id)
    await pay(friend.cookie, session.id)
    const before = await recorded()
    const res = await redeem(friend.cookie)
    expect(res.status).toBe(422)
    expect(res.body.error.message).toBe('Invites are for a family’s first order, and you have already ordered from Keepsake.')
    expect(await recorded()).toEqual(before)
  })

  it('refuses without a remembered invite, or with an unknown, disabled or tampered one', async () => {
    const friend = await t.signInGuest(from)
    const before = await recorded()
    const none = await redeem(friend.cookie)
    expect(none.status).toBe(422)
    expect(none.body.error.message).toMatch(/open the invite link your friend sent you/)
    expect((await redeem(`${friend.cookie}; ${REFERRAL_COOKIE}=MAYA-0000-0000`)).status).toBe(404)
    expect((await redeem(`${friend.cookie}; ${REFERRAL_COOKIE}=<script>`)).status).toBe(422)
    const code = await mayaCode()
    await setCodeDisabled(t.db, code, true)
    expect((await redeem(`${friend.cookie}; ${REFERRAL_COOKIE}=${code}`)).status).toBe(404)
    expect(await recorded()).toEqual(before)
  })

  it.each([
    ['no timezone', {}, 'Required'],
    ['a made-up timezone', { timezone: 'Mars/Olympus' }, 'timezone must be an IANA time zone such as America/New_York'],
    ['a number', { timezone: 5 }, 'Expected string, received number'],
  ])('refuses %s with 400', async (_name, body, message) => {
    const friend = await friendWithInvite()
    const before = await recorded()
    const res = await redeem(friend.cookie, body)
    expect(res.status).toBe(400)
    expect(JSON.stringify(res.body.error)).toContain(message)
    expect(await recorded()).toEqual(before)
  })

  it('needs a signed-in friend', async () => {
    expect((await redeem(`${REFERRAL_COOKIE}=${await mayaCode()}`)).status).toBe(401)
    expect((await call('/v1/growth/referred/redemptions', null)).status).toBe(401)
  })

  it('20 simultaneous redemptions by one friend make one redemption and one credit', async () => {
    const friend = await friendWithInvite()
    // Each from its own address, so all 20 get past the per-address limit and meet at the lock.
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        call('/v1/growth/referred/redemptions', friend.cookie, { method: 'POST', json: { timezone: 'UTC' }, clientAddress: `203.0.113.${i + 1}` }),
      ),
    )
    const statuses = answers.map((a) => a.status).sort()
    expect(statuses).toEqual([201, ...Array<number>(19).fill(409)])
    expect(await t.db.select().from(referralRedemptions)).toHaveLength(1)
    expect(await balance(friend.cookie)).toBe(REFERRED_CREDIT_CENTS)
    expect(await t.db.select().from(creditEntries)).toHaveLength(1)
  })

  it('a redemption racing the friend’s first payment: either refused for the order, or approved by it', async () => {
    for (let round = 0; round < 4; round++) {
      from = `198.18.0.${round + 1}`
      const friend = await friendWithInvite()
      const session = await buyStar(friend.cookie, friend.user.id)
      const [redeemed, paid] = await Promise.all([
        redeem(friend.cookie),
        call(`/v1/checkout/local/${session.id}/pay`, friend.cookie, {
          method: 'POST',
          json: { cardNumber: LOCAL_TEST_CARDS.succeeds, shippingAddress: address },
        }),
      ])
      expect(paid.status).toBe(200)
      const [row] = await t.db.select().from(referralRedemptions).where(eq(referralRedemptions.referredUserId, friend.user.id))
      if (redeemed.status === 201) expect(row).toMatchObject({ status: 'approved', orderId: paid.body.orderId })
      else {
        expect(redeemed.status).toBe(422)
        expect(row).toBeUndefined()
      }
    }
  })

  it('refuses a burst from one address (wrong codes count too), with nothing recorded', async () => {
    const { limit } = referralRateLimits.redeemPerAddress
    const friend = await t.signInGuest(from)
    for (let i = 0; i < limit; i++) expect((await redeem(`${friend.cookie}; ${REFERRAL_COOKIE}=MAYA-0000-000${i % 10}`)).status).toBe(404)
    const real = await friendWithInvite()
    const before = await recorded()
    const res = await redeem(real.cookie)
    expect(res.status).toBe(429)
    expect(res.body.error.message).toMatch(/^Too many attempts; try again in \d+ minutes?$/)
    expect(await recorded()).toEqual(before)
    // Another address is not held back.
    expect(
      (await call('/v1/growth/referred/redemptions', real.cookie, { method: 'POST', json: { timezone: 'UTC' }, clientAddress: '192.0.2.77' })).status,
    ).toBe(201)
  })

  it('refuses a burst of redemptions of one advocate’s code, from any address', async () => {
    const { limit } = referralRateLimits.redeemPerAdvocate
    const code = (await advocateState(sam)).code
    for (let i = 0; i < limit; i++) {
      from = `192.0.2.${100 + i}`
      const friend = await friendWithInvite(code)
      expect((await redeem(friend.cookie)).status).toBe(201)
    }
    from = '192.0.2.250'
    const late = await friendWithInvite(code)
    const before = await recorded()
    expect((await redeem(late.cookie)).status).toBe(429)
    expect(await recorded()).toEqual(before)
    // An hour later the code redeems again.
    t.setNow(new Date(start.getTime() + 3600_000))
    expect((await redeem(late.cookie)).status).toBe(201)
  })

  it('refused attempts do not use up an advocate’s hour: only redemptions that are made count', async () => {
    const { limit } = referralRateLimits.redeemPerAdvocate
    const code = (await advocateState(sam)).code
    from = '192.0.2.1'
    const first = await friendWithInvite(code)
    expect((await redeem(first.cookie)).status).toBe(201)
    // The same friend again, and again, from other addresses; and Sam with his own code.
    for (let i = 0; i < limit + 2; i++) {
      expect(
        (await call('/v1/growth/referred/redemptions', first.cookie, { method: 'POST', json: { timezone: 'UTC' }, clientAddress: `192.0.2.${20 + i}` })).status,
      ).toBe(409)
    }
    const own = (await call(`/v1/growth/referral-codes/${code}`, null)).headers.get('set-cookie')!.split(';')[0]!
    for (let i = 0; i < 3; i++)
      expect(
        (await call('/v1/growth/referred/redemptions', `${sam}; ${own}`, { method: 'POST', json: { timezone: 'UTC' }, clientAddress: `192.0.2.${60 + i}` }))
          .status,
      ).toBe(422)
    // Real friends still redeem, up to the limit.
    for (let i = 1; i < limit; i++) {
      from = `192.0.2.${100 + i}`
      expect((await redeem((await friendWithInvite(code)).cookie)).status).toBe(201)
    }
    from = '192.0.2.200'
    expect((await redeem((await friendWithInvite(code)).cookie)).status).toBe(429)
  })
})

describe('the reward’s life, with the credit spent at checkout', () => {
  it('friend redeems → credit reserved at checkout, released on cancel, spent when paid → reward approved → credited after the hold', async () => {
    const friend = await friendWithInvite()
    await redeem(friend.cookie)

    const cart = (await call('/v1/photo-products-cart', friend.cookie)).body
    expect(cart.availableCreditCents).toBe(REFERRED_CREDIT_CENTS)
    const first = await buyStar(friend.cookie, friend.user.id)
    expect(first.totals).toMatchObject({ creditsCents: REFERRED_CREDIT_CENTS, totalCents: 2499 + 599 - REFERRED_CREDIT_CENTS })
    expect(await balance(friend.cookie)).toBe(0)

    expect((await call(`/v1/photo-products-cart/checkout-session/${first.id}/cancel`, friend.cookie, { method: 'POST' })).status).toBe(200)
    expect(await balance(friend.cookie)).toBe(REFERRED_CREDIT_CENTS)

    const second = (await call('/v1/photo-products-cart/checkout-session', friend.cookie, { method: 'POST' })).body
    expect(second.totals.creditsCents).toBe(REFERRED_CREDIT_CENTS)
    const orderId = await pay(friend.cookie, second.id)
    expect(await balance(friend.cookie)).toBe(0)
    const reasons = (await call('/v1/store-credit', friend.cookie)).body.entries.map(
      (e: { reason: string; amountCents: number }) => `${e.reason} ${e.amountCents}`,
    )
    expect(reasons.reverse()).toEqual(['referral_welcome 1000', 'checkout_reserved -1000', 'checkout_released 1000', 'checkout_reserved -1000'])

    let state = await advocateState()
    expect(state.redemptions[0]).toMatchObject({
      status: 'approved',
      approvedAt: start.toISOString(),
      creditsAt: new Date(start.getTime() + REWARD_HOLD_DAYS * DAY).toISOString(),
    })
    expect(state.pendingCents).toBe(ADVOCATE_REWARD_CENTS)
    const [row] = await t.db.select().from(referralRedemptions)
    expect(row!.orderId).toBe(orderId)

    // Not before the hold ends…
    t.setNow(new Date(start.getTime() + (REWARD_HOLD_DAYS - 1) * DAY))
    await runJobs()
    expect((await advocateState()).redemptions[0].status).toBe('approved')
    // …then once, however often the job runs.
    t.setNow(new Date(start.getTime() + REWARD_HOLD_DAYS * DAY + 1000))
    await runJobs()
    await runJobs()
    state = await advocateState()
    expect(state).toMatchObject({ earnedCents: ADVOCATE_REWARD_CENTS, pendingCents: 0, balanceCents: ADVOCATE_REWARD_CENTS })
    expect(state.redemptions[0].status).toBe('credited')
    // The advocate spends it like any credit.
    const mayaCart = (await call('/v1/photo-products-cart', maya)).body
    expect(mayaCart.availableCreditCents).toBe(ADVOCATE_REWARD_CENTS)
  })

  it('a refund before the reward is credited voids it and gives the friend their credit back', async () => {
    const friend = await friendWithInvite()
    await redeem(friend.cookie)
    const session = await buyStar(friend.cookie, friend.user.id)
    const orderId = await pay(friend.cookie, session.id)
    await refundOrder(t.api.deps, orderId)
    await refundOrder(t.api.deps, orderId)
    expect((await advocateState()).redemptions[0]).toMatchObject({ status: 'voided' })
    expect(await balance(friend.cookie)).toBe(REFERRED_CREDIT_CENTS)
    const order = (await call(`/v1/photo-products-orders/${orderId}`, friend.cookie)).body
    expect(order.status).toBe('refunded')
    t.setNow(new Date(start.getTime() + (REWARD_HOLD_DAYS + 1) * DAY))
    await runJobs()
    expect((await advocateState()).balanceCents).toBe(0)
  })

  it('an expired checkout releases its credit once, however often it is seen', async () => {
    const friend = await friendWithInvite()
    await redeem(friend.cookie)
    const session = await buyStar(friend.cookie, friend.user.id)
    t.setNow(new Date(start.getTime() + 2 * 3600_000))
    await Promise.all(Array.from({ length: 5 }, () => call(`/v1/photo-products-cart/checkout-session/${session.id}`, friend.cookie)))
    expect(await balance(friend.cookie)).toBe(REFERRED_CREDIT_CENTS)
    const entries = await t.db.select().from(creditEntries).where(eq(creditEntries.reason, 'checkout_released'))
    expect(entries).toHaveLength(1)
  })

  it('a friend who never orders: the redemption expires and the welcome credit lapses', async () => {
    const friend = await friendWithInvite()
    await redeem(friend.cookie)
    t.setNow(new Date(start.getTime() + REDEMPTION_VALID_DAYS * DAY + 1000))
    await runJobs()
    // (Sessions have long since ended; the ledger and the rows tell.)
    expect((await t.db.select().from(referralRedemptions))[0]).toMatchObject({ status: 'expired' })
    expect(await balanceOf(t.db, friend.user.id)).toBe(0)
    expect((await t.db.select().from(creditEntries).where(eq(creditEntries.reason, 'referral_welcome_lapsed')))[0]!.amountCents).toBe(-REFERRED_CREDIT_CENTS)
  })

  it('expiry waits while a checkout holds the welcome credit, and a paid order then approves instead', async () => {
    const friend = await friendWithInvite()
    await redeem(friend.cookie)
    t.setNow(new Date(start.getTime() + REDEMPTION_VALID_DAYS * DAY - 60_000))
    // Signed in again, two months on.
    const { token } = await createSession(t.db, friend.user.id, t.now())
    friend.cookie = `${SESSION_COOKIE}=${token}`
    const session = await buyStar(friend.cookie, friend.user.id)
    t.setNow(new Date(start.getTime() + REDEMPTION_VALID_DAYS * DAY + 1000))
    await runJobs()
    expect((await t.db.select().from(referralRedemptions))[0]!.status).toBe('pending')
    // The checkout began before the expiry, so paying it now is the friend's first order in time.
    const orderId = await pay(friend.cookie, session.id)
    expect((await t.db.select().from(referralRedemptions))[0]).toMatchObject({ status: 'approved', orderId })
    t.setNow(new Date(start.getTime() + (REDEMPTION_VALID_DAYS + 1) * DAY))
    await runJobs()
    expect((await t.db.select().from(referralRedemptions))[0]!.status).toBe('approved')
    expect(await balance(friend.cookie)).toBe(0)
    expect(await t.db.select().from(creditEntries).where(eq(creditEntries.reason, 'referral_welcome_lapsed'))).toEqual([])
    t.setNow(new Date(start.getTime() + (REDEMPTION_VALID_DAYS + REWARD_HOLD_DAYS + 1) * DAY))
    await runJobs()
    // (Maya's session has long since ended; the row and the ledger tell.)
    const [row] = await t.db.select().from(referralRedemptions)
    expect(row!.status).toBe('credited')
    expect(await balanceOf(t.db, row!.advocateUserId)).toBe(ADVOCATE_REWARD_CENTS)
  })

  it('a checkout begun after the expiry does not approve, and the invite expires', async () => {
    const friend = await friendWithInvite()
    await redeem(friend.cookie)
    t.setNow(new Date(start.getTime() + REDEMPTION_VALID_DAYS * DAY + 60_000))
    const { token } = await createSession(t.db, friend.user.id, t.now())
    friend.cookie = `${SESSION_COOKIE}=${token}`
    // The expiry job has not run yet, so the welcome credit is still on the balance and the checkout takes it.
    const session = await buyStar(friend.cookie, friend.user.id)
    await pay(friend.cookie, session.id)
    expect((await t.db.select().from(referralRedemptions))[0]!.status).toBe('pending')
    await runJobs()
    const [row] = await t.db.select().from(referralRedemptions)
    expect(row).toMatchObject({ status: 'expired', orderId: null })
    expect(await t.db.select().from(jobs).where(eq(jobs.kind, 'credit-referral-reward'))).toEqual([])
  })

  it('a reward waits while its order could not be sent to print, and is credited once it is', async () => {
    const friend = await friendWithInvite()
    await redeem(friend.cookie)
    const orderId = await pay(friend.cookie, (await buyStar(friend.cookie, friend.user.id)).id)
    // The print provider refused it until the job gave up.
    await t.db.delete(jobs).where(eq(jobs.kind, 'submit-order'))
    await t.db.update(orders).set({ status: 'submission_failed' }).where(eq(orders.id, orderId))
    t.setNow(new Date(start.getTime() + REWARD_HOLD_DAYS * DAY + 1000))
    await runJobs()
    expect((await advocateState()).redemptions[0]).toMatchObject({ status: 'approved' })
    expect(await balance(maya)).toBe(0)
    // Support sends it again; the next day's check credits it.
    await t.db.update(orders).set({ status: 'submitted' }).where(eq(orders.id, orderId))
    t.setNow(new Date(start.getTime() + (REWARD_HOLD_DAYS + 1) * DAY + 2000))
    await runJobs()
    expect((await advocateState()).redemptions[0]).toMatchObject({ status: 'credited' })
  })
})

describe('user-action logs', () => {
  it('each role logs its own typed actions with small metadata', async () => {
    const friend = await friendWithInvite()
    const advocate = await call('/v1/growth/advocate/user-actions', maya, {
      method: 'POST',
      json: { action: 'copied_link', metadata: { surface: 'dashboard' } },
    })
    expect(advocate.status).toBe(201)
    expect(advocate.body).toMatchObject({ recorded: true })
    const referred = await call('/v1/growth/referred/user-actions', null, {
      method: 'POST',
      json: { action: 'viewed_landing', metadata: { variant: 'r' } },
      cookie: friend.cookie.split('; ')[1]!,
    })
    expect(referred.status).toBe(201)
    const general = await call('/v1/growth/user-actions', null, { method: 'POST', json: { action: 'viewed_referral_home' } })
    expect(general.status).toBe(201)
    const rows = await t.db.select().from(referralUserActions)
    expect(rows.map((r) => `${r.role} ${r.action}`).sort()).toEqual(['advocate copied_link', 'general viewed_referral_home', 'referred viewed_landing'])
    expect(rows.find((r) => r.role === 'referred')).toMatchObject({ code: await mayaCode(), metadata: { variant: 'r' } })
    expect(rows.find((r) => r.role === 'advocate')!.code).toBe(await mayaCode())
  })

  it('refuses a burst of logs from one address, recording nothing more', async () => {
    const { limit } = referralRateLimits.actionsPerAddress
    for (let i = 0; i < limit; i++)
      expect((await call('/v1/growth/user-actions', null, { method: 'POST', json: { action: 'viewed_referral_home' } })).status).toBe(201)
    const res = await call('/v1/growth/user-actions', null, { method: 'POST', json: { action: 'viewed_referral_home' } })
    expect(res.status).toBe(429)
    expect(await t.db.select().from(referralUserActions)).toHaveLength(limit)
  })

  it.each([
    ['an action from another role’s list', '/v1/growth/advocate/user-actions', { action: 'viewed_landing' }, 400],
    ['an unknown action', '/v1/growth/user-actions', { action: 'hacked' }, 400],
    ['nested metadata', '/v1/growth/user-actions', { action: 'clicked_refer', metadata: { a: { b: 1 } } }, 400],
    [
      'metadata with too many keys',
      '/v1/growth/user-actions',
      { action: 'clicked_refer', metadata: Object.fromEntries(Array.from({ length: 11 }, (_, i) => [`k${i}`, i])) },
      400,
    ],
    ['an over-long metadata value', '/v1/growth/user-actions', { action: 'clicked_refer', metadata: { note: 'x'.repeat(201) } }, 400],
    ['a bad metadata key', '/v1/growth/user-actions', { action: 'clicked_refer', metadata: { 'bad key': 1 } }, 400],
    ['metadata as a list', '/v1/growth/user-actions', { action: 'clicked_refer', metadata: [1, 2] }, 400],
    ['an advocate action while signed out', '/v1/growth/advocate/user-actions', { action: 'copied_link' }, 401],
  ])('refuses %s and records nothing', async (_name, path, body, status) => {
    const res = await call(path, path.includes('advocate') && status !== 401 ? maya : null, { method: 'POST', json: body })
    expect(res.status).toBe(status)
    expect(await t.db.select().from(referralUserActions)).toEqual([])
  })
})
