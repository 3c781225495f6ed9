import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { LOCAL_TEST_CARDS } from '../../app/contract/cart'
import { EGIFT_CODE_PATTERN } from '../../app/contract/egifts'
import { checkoutSessions, creditEntries, egifts, jobs, outboxEmails } from '../../app/api/db/schema'
import { MemoryRateLimiter } from '../../app/api/rate-limit'
import { hashEgiftCode, instantAt, newEgiftCode } from '../../app/api/services/egifts'
import { drainJobs } from '../../app/api/services/jobs'
import { mailJobs } from '../../app/api/services/mail'
import { readableMessage, startSmtpCapture } from '../support/smtp-capture'
import { createTestApi, type TestApi } from '../support/test-api'

let t: TestApi
let maya: string
let sam: string

beforeAll(async () => {
  t = await createTestApi()
  maya = await t.signIn(0)
  sam = await t.signIn(1)
})
afterAll(() => t.close())
beforeEach(async () => {
  t.api.deps.rateLimiter = new MemoryRateLimiter()
  t.setNow(new Date('2026-11-22T12:00:00Z'))
})

const gift = { amountCents: 5000, recipientName: 'Gran', recipientEmail: 'gran@example.com', senderName: 'Maya', message: 'Happy holidays! <3' }
const address = { name: 'Sam Okafor', email: 'sam@example.com', line1: '1 Main St', city: 'Albany', state: 'NY', postalCode: '12207', country: 'US' }
const timezone = { 'x-keepsake-timezone': 'America/New_York' }

const buy = (json: unknown, cookie = maya) => t.request('/v1/egifts/purchases', { method: 'POST', json, cookie, headers: timezone })
const payLocal = (cookie: string, sessionId: string, json: unknown = { cardNumber: LOCAL_TEST_CARDS.succeeds }) =>
  t.request(`/v1/checkout/local/${sessionId}/pay`, { method: 'POST', json, cookie })
const redeem = (code: string, cookie: string, clientAddress = '203.0.113.7') =>
  t.request('/v1/egifts/redeem', { method: 'POST', json: { code }, cookie, clientAddress })
const runJobs = () => drainJobs(t.api.deps, mailJobs)
const counts = async () => ({
  gifts: (await t.db.select().from(egifts)).length,
  sessions: (await t.db.select().from(checkoutSessions)).length,
  credit: (await t.db.select().from(creditEntries)).length,
  emails: (await t.db.select().from(outboxEmails)).length,
})
const codeIn = (text: string) => text.match(/KEEP-[0-9A-Z]{4}-[0-9A-Z]{4}-[0-9A-Z]{4}/)![0]

/** Buys and pays for a gift; answers the gift id and the code from its e-mail. */
async function paidGift(over: Partial<typeof gift> & { sendOn?: string } = {}) {
  const bought = await buy({ ...gift, ...over })
  expect(bought.status).toBe(201)
  expect((await payLocal(maya, bought.body.checkoutSessionId)).status).toBe(200)
  const [email] = await t.db
    .select()
    .from(outboxEmails)
    .where(eq(outboxEmails.reference, `egift:${bought.body.id}`))
  return { id: bought.body.id as string, code: codeIn(email!.text), email: email! }
}

describe('buying an e-gift', () => {
  it('makes a gift and a payment session of purpose egift; paying issues a code and e-mails it to the recipient', async () => {
    const bought = await buy(gift)
    expect(bought.status).toBe(201)
    expect(bought.body).toMatchObject({ status: 'awaiting_payment', amountCents: 5000, recipientName: 'Gran', sendOn: null, emailedAt: null })
    expect(bought.body.checkoutUrl).toBe(`/utils/checkout/${bought.body.checkoutSessionId}`)
    const session = await t.request(`/v1/photo-products-cart/checkout-session/${bought.body.checkoutSessionId}`, { cookie: maya })
    expect(session.body).toMatchObject({ purpose: 'egift', cartId: null, totals: { totalCents: 5000, shippingCents: 0, creditsCents: 0 } })
    expect(session.body.lines).toEqual([expect.objectContaining({ title: 'Keepsake e-gift for Gran', quantity: 1, unitAmountCents: 5000 })])

    // The local checkout takes no shipping address for a gift, and makes no order.
    const paid = await payLocal(maya, bought.body.checkoutSessionId)
    expect(paid.status).toBe(200)
    expect(paid.body).toMatchObject({ status: 'paid', orderId: null })
    const view = await t.request(`/v1/egifts/purchases/${bought.body.id}`, { cookie: maya })
    expect(view.body).toMatchObject({ status: 'issued', checkoutUrl: null, emailedAt: null })
    expect(JSON.stringify(view.body)).not.toMatch(/KEEP-/)

    const [row] = await t.db.select().from(egifts).where(eq(egifts.id, bought.body.id))
    const [email] = await t.db
      .select()
      .from(outboxEmails)
      .where(eq(outboxEmails.reference, `egift:${row!.id}`))
    expect(email).toMatchObject({ to: 'gran@example.com', status: 'scheduled', transport: 'outbox', subject: 'Maya sent you a $50.00 Keepsake e-gift' })
    const code = codeIn(email!.text)
    expect(code).toMatch(EGIFT_CODE_PATTERN)
    // Only the code's hash is kept on the gift.
    expect(row!.codeHash).toBe(hashEgiftCode(code))
    expect(JSON.stringify(row)).not.toContain(code)
    // The shopper's message is escaped in the HTML part.
    expect(email!.html).toContain('Happy holidays! &lt;3')
    expect(email!.html).toContain(`/egifts/redeem?code=${code}`)

    expect((await runJobs()).length).toBeGreaterThanOrEqual(1)
    const [sent] = await t.db.select().from(outboxEmails).where(eq(outboxEmails.id, email!.id))
    expect(sent).toMatchObject({ status: 'sent', transport: 'outbox' })
    expect((await t.request(`/v1/egifts/purchases/${bought.body.id}`, { cookie: maya })).body.emailedAt).toBe(t.now().toISOString())
    // Paying again (or fulfilment running again) issues nothing new.
    await t.request(`/v1/photo-products-cart/checkout-session/${bought.body.checkoutSessionId}`, { cookie: maya })
    expect(
      (
        await t.db
          .select()
          .from(outboxEmails)
          .where(eq(outboxEmails.reference, `egift:${row!.id}`))
      ).length,
    ).toBe(1)

    const list = await t.request('/v1/egifts/purchases', { cookie: maya })
    expect(list.body.purchases.map((p: { id: string }) => p.id)).toContain(bought.body.id)
    // Another shopper cannot see it.
    expect((await t.request(`/v1/egifts/purchases/${bought.body.id}`, { cookie: sam })).status).toBe(404)
    expect((await t.request('/v1/egifts/purchases', { cookie: sam })).body.purchases.map((p: { id: string }) => p.id)).not.toContain(bought.body.id)
  })

  it('refuses bad input with 400 and the field, storing nothing', async () => {
    const before = await counts()
    const cases: [Record<string, unknown>, string][] = [
      [{ amountCents: 999 }, 'body.amountCents'],
      [{ amountCents: 50100 }, 'body.amountCents'],
      [{ amountCents: 2550 }, 'body.amountCents'],
      [{ amountCents: '50' }, 'body.amountCents'],
      [{ recipientEmail: 'gran' }, 'body.recipientEmail'],
      [{ recipientName: '   ' }, 'body.recipientName'],
      [{ senderName: 'x'.repeat(61) }, 'body.senderName'],
      [{ message: 'x'.repeat(301) }, 'body.message'],
      [{ sendOn: '24/12/2026' }, 'body.sendOn'],
      [{ sendOn: '2026-02-30' }, 'body.sendOn'],
      [{ sendOn: '2026-11-21' }, 'body.sendOn'],
      [{ sendOn: '2027-12-31' }, 'body.sendOn'],
    ]
    for (const [over, path] of cases) {
      const res = await buy({ ...gift, ...over })
      expect(res.status, JSON.stringify(over)).toBe(400)
      expect(
        res.body.error.issues.map((i: { path: string }) => i.path),
        JSON.stringify(over),
      ).toContain(path)
    }
    expect((await t.request('/v1/egifts/purchases', { method: 'POST', json: gift })).status).toBe(401)
    expect((await t.request('/v1/egifts/purchases/not-a-uuid', { cookie: maya })).status).toBe(400)
    expect(await counts()).toEqual(before)
  })

  it('a cart checkout still needs a shipping address at the local checkout', async () => {
    const bought = await buy(gift)
    // An e-gift session accepts a card alone; a malformed card is still refused.
    expect((await payLocal(maya, bought.body.checkoutSessionId, { cardNumber: '12' })).status).toBe(400)
    expect((await payLocal(maya, bought.body.checkoutSessionId, { cardNumber: LOCAL_TEST_CARDS.declined })).status).toBe(402)
    const row = (await t.request(`/v1/egifts/purchases/${bought.body.id}`, { cookie: maya })).body
    expect(row.status).toBe('awaiting_payment')
    // A shipping address sent with a gift's payment is not kept.
    expect((await payLocal(maya, bought.body.checkoutSessionId, { cardNumber: LOCAL_TEST_CARDS.succeeds, shippingAddress: address })).status).toBe(200)
    const [session] = await t.db.select().from(checkoutSessions).where(eq(checkoutSessions.id, bought.body.checkoutSessionId))
    expect(session!.shippingAddress).toBeNull()
  })

  it('a scheduled gift is e-mailed at 9 am on the chosen day in the buyer’s time zone', async () => {
    const { id, email } = await paidGift({ sendOn: '2026-12-24' })
    expect(email.sendAfter.toISOString()).toBe('2026-12-24T14:00:00.000Z')
    await runJobs()
    expect((await t.db.select().from(outboxEmails).where(eq(outboxEmails.id, email.id)))[0]!.status).toBe('scheduled')
    t.setNow(new Date('2026-12-24T14:00:01Z'))
    await runJobs()
    expect((await t.db.select().from(outboxEmails).where(eq(outboxEmails.id, email.id)))[0]!.status).toBe('sent')
    expect((await t.db.select().from(egifts).where(eq(egifts.id, id)))[0]!.emailedAt).not.toBeNull()
  })

  it('a gift whose payment session ends unpaid is cancelled and never issued', async () => {
    const bought = await buy(gift)
    const cancelled = await t.request(`/v1/photo-products-cart/checkout-session/${bought.body.checkoutSessionId}/cancel`, { method: 'POST', cookie: maya })
    expect(cancelled.status).toBe(200)
    const view = await t.request(`/v1/egifts/purchases/${bought.body.id}`, { cookie: maya })
    expect(view.body).toMatchObject({ status: 'cancelled', checkoutUrl: null })
    // A session past its time expires on the next look, and the gift with it.
    const late = await buy(gift)
    t.setNow(new Date('2026-11-22T14:00:00Z'))
    expect((await t.request(`/v1/egifts/purchases/${late.body.id}`, { cookie: maya })).body.status).toBe('cancelled')
    expect((await payLocal(maya, late.body.checkoutSessionId)).status).toBe(409)
    expect(
      (
        await t.db
          .select()
          .from(outboxEmails)
          .where(eq(outboxEmails.reference, `egift:${late.body.id}`))
      ).length,
    ).toBe(0)
  })

  it('limits purchases per shopper (429), without making a session', async () => {
    for (let i = 0; i < 20; i++) expect((await buy(gift, sam)).status).toBe(201)
    const before = await counts()
    const refused = await buy(gift, sam)
    expect(refused.status).toBe(429)
    expect(await counts()).toEqual(before)
  })
})

describe('redeeming an e-gift', () => {
  it('turns the code into store credit once, whatever the case and dashes', async () => {
    const { id, code } = await paidGift()
    const typed = code.toLowerCase().replace(/-/g, ' ').replace('keep ', 'keep')
    const res = await redeem(typed, sam)
    expect(res.status).toBe(200)
    expect(res.body).toMatchObject({ amountCents: 5000, senderName: 'Maya', message: 'Happy holidays! <3' })
    const samId = t.users[1].id
    const entries = await t.db.select().from(creditEntries).where(eq(creditEntries.userId, samId))
    expect(entries.filter((e) => e.reason === 'egift_redeemed')).toEqual([expect.objectContaining({ amountCents: 5000, reference: `egift:${id}` })])
    expect(res.body.balanceCents).toBe(entries.reduce((s, e) => s + e.amountCents, 0))
    const credit = await t.request('/v1/store-credit', { cookie: sam })
    expect(credit.body.balanceCents).toBe(res.body.balanceCents)
    // The cart offers it.
    expect((await t.request('/v1/photo-products-cart', { cookie: sam })).body.availableCreditCents).toBe(res.body.balanceCents)
    expect((await t.request(`/v1/egifts/purchases/${id}`, { cookie: maya })).body.status).toBe('redeemed')

    const before = await counts()
    const again = await redeem(code, sam)
    expect(again.status).toBe(409)
    expect(again.body.error.message).toBe('You have already redeemed this gift; its credit is in your balance')
    const other = await redeem(code, maya)
    expect(other.status).toBe(409)
    expect(other.body.error.message).toBe('This gift code has already been redeemed')
    expect(await counts()).toEqual(before)
  })

  it('refuses unknown, malformed, unpaid and expired codes, changing nothing', async () => {
    const before = await counts()
    const unknown = await redeem(newEgiftCode(), sam)
    expect(unknown.status).toBe(404)
    expect(unknown.body.error.message).toMatch(/don’t recognise this gift code/)
    for (const bad of ['', 'KEEP-1234', 'hello world', 'KEEP-UUUU-UUUU-UUUU', 'x'.repeat(41)]) {
      const res = await redeem(bad, sam)
      expect(res.status, bad).toBe(400)
      expect(res.body.error.issues[0].path).toBe('body.code')
    }
    expect((await t.request('/v1/egifts/redeem', { method: 'POST', json: { code: newEgiftCode() } })).status).toBe(401)
    expect(await counts()).toEqual(before)

    const { id, code } = await paidGift()
    const issued = (await t.request(`/v1/egifts/purchases/${id}`, { cookie: maya })).body
    expect(issued.expiresAt).toBe('2031-11-22T12:00:00.000Z')
    const afterGift = await counts()
    // Five years on (the session cookie cannot live that long, so the gift's expiry is brought forward instead).
    await t.db
      .update(egifts)
      .set({ expiresAt: new Date(t.now().getTime() - 1000) })
      .where(eq(egifts.id, id))
    const expired = await redeem(code, sam)
    expect(expired.status).toBe(422)
    expect(expired.body.error.message).toBe('This gift code expired on November 22, 2026')
    expect(await counts()).toEqual(afterGift)
  })

  it('20 simultaneous redemptions of one code by different shoppers: exactly one gets the credit', async () => {
    const { code } = await paidGift({ amountCents: 2500 })
    const guests = []
    for (let i = 0; i < 20; i++) guests.push(await t.signInGuest(`198.51.100.${i + 1}`))
    const results = await Promise.all(guests.map((g, i) => redeem(code, g.cookie, `198.51.100.${i + 1}`)))
    expect(results.filter((r) => r.status === 200)).toHaveLength(1)
    expect(results.filter((r) => r.status === 409)).toHaveLength(19)
    const entries = await t.db.select().from(creditEntries).where(eq(creditEntries.reason, 'egift_redeemed'))
    expect(entries.filter((e) => e.amountCents === 2500)).toHaveLength(1)
  })

  it('limits attempts per address and per shopper (429), counting wrong codes', async () => {
    for (let i = 0; i < 10; i++) expect((await redeem(newEgiftCode(), sam, '192.0.2.50')).status).toBe(404)
    const { code } = await paidGift()
    const before = await counts()
    expect((await redeem(code, sam, '192.0.2.50')).status).toBe(429)
    // From another address, Sam's own limit still holds.
    expect((await redeem(code, sam, '192.0.2.51')).status).toBe(429)
    expect(await counts()).toEqual(before)
    t.setNow(new Date('2026-11-22T13:00:01Z'))
    expect((await redeem(code, sam, '192.0.2.50')).status).toBe(200)
  })
})

describe('the outbox', () => {
  it('lists the newest e-mails in demo mode, to the shopper who sent them', async () => {
    await paidGift()
    const res = await t.request('/v1/demo/outbox', { cookie: maya })
    expect(res.status).toBe(200)
    expect(res.body.emails[0]).toMatchObject({ kind: 'egift', to: 'gran@example.com', transport: 'outbox' })
  })

  // The outbox shows no gift e-mail, with its redeemable code, to anyone but the people it concerns.
  it('shows a shopper only e-mails sent by or to their own account; signed out, none', async () => {
    await paidGift()
    await paidGift({ ...gift, recipientEmail: t.users[1].email.toUpperCase() })
    const signedOut = await t.request('/v1/demo/outbox')
    expect(signedOut.status).toBe(200)
    expect(signedOut.body.emails).toEqual([])
    const toSam = (await t.request('/v1/demo/outbox', { cookie: sam })).body.emails as { to: string }[]
    expect(toSam.length).toBeGreaterThan(0)
    expect(toSam.every((e) => e.to.toLowerCase() === t.users[1].email.toLowerCase())).toBe(true)
    const byMaya = (await t.request('/v1/demo/outbox', { cookie: maya })).body.emails as { to: string }[]
    expect(byMaya.map((e) => e.to)).toContain('gran@example.com')
  })

  it('does not exist when demo mode is off', async () => {
    const off = await createTestApi({ DEMO_MODE: 'false' })
    try {
      expect((await off.request('/v1/demo/outbox')).status).toBe(404)
    } finally {
      await off.close()
    }
  })
})

describe('e-mail over SMTP (SMTP_URL)', () => {
  it('delivers through nodemailer to the SMTP server, retries a refused delivery, and marks it failed after the last attempt', async () => {
    let refuse = false
    const server = await startSmtpCapture({ refuse: () => refuse })
    const received = server.messages
    const smtp = await createTestApi({ SMTP_URL: server.url, MAIL_FROM: 'Keepsake <gifts@keepsake.example>' })
    try {
      const cookie = await smtp.signIn(0)
      const bought = await smtp.request('/v1/egifts/purchases', { method: 'POST', json: gift, cookie })
      await smtp.request(`/v1/checkout/local/${bought.body.checkoutSessionId}/pay`, { method: 'POST', json: { cardNumber: LOCAL_TEST_CARDS.succeeds }, cookie })
      await drainJobs(smtp.api.deps, mailJobs)
      expect(received).toHaveLength(1)
      expect(received[0]).toContain('To: gran@example.com')
      expect(received[0]).toContain('From: Keepsake <gifts@keepsake.example>')
      const [sent] = await smtp.db.select().from(outboxEmails)
      expect(sent).toMatchObject({ status: 'sent', transport: 'smtp' })
      expect(sent!.providerMessageId).toBeTruthy()
      // The mail server received the code; the outbox keeps it only until then (issue 42, item 13).
      const code = codeIn(readableMessage(received[0]!))
      expect(code).toMatch(EGIFT_CODE_PATTERN)
      for (const part of [sent!.subject, sent!.text, sent!.html]) expect(part).not.toContain(code)
      expect(sent!.text).toContain('[redacted once sent]')
      expect(JSON.stringify(sent)).not.toContain(code)
      // The outbox page shows the redacted text, and the code from the e-mail still redeems.
      const outbox = (await smtp.request('/v1/demo/outbox', { cookie })).body.emails as { text: string; html: string }[]
      expect(JSON.stringify(outbox)).not.toContain(code)
      expect(outbox[0]!.text).toContain('[redacted once sent]')
      const sam = await smtp.signIn(1)
      expect((await smtp.request('/v1/egifts/redeem', { method: 'POST', json: { code }, cookie: sam })).status).toBe(200)

      // The recipient's server refuses: the job retries with backoff, then gives up and the e-mail shows failed.
      refuse = true
      const second = await smtp.request('/v1/egifts/purchases', { method: 'POST', json: { ...gift, recipientEmail: 'nobody@example.com' }, cookie })
      await smtp.request(`/v1/checkout/local/${second.body.checkoutSessionId}/pay`, { method: 'POST', json: { cardNumber: LOCAL_TEST_CARDS.succeeds }, cookie })
      const [email] = await smtp.db.select().from(outboxEmails).where(eq(outboxEmails.to, 'nobody@example.com'))
      await drainJobs(smtp.api.deps, mailJobs)
      let [row] = await smtp.db.select().from(outboxEmails).where(eq(outboxEmails.id, email!.id))
      expect(row).toMatchObject({ status: 'scheduled' })
      expect(row!.lastError).toMatch(/Mailbox unavailable/)
      for (let i = 0; i < 10; i++) {
        smtp.setNow(new Date(smtp.now().getTime() + 3600_000))
        await drainJobs(smtp.api.deps, mailJobs)
      }
      ;[row] = await smtp.db.select().from(outboxEmails).where(eq(outboxEmails.id, email!.id))
      expect(row!.status).toBe('failed')
      const [job] = await smtp.db
        .select()
        .from(jobs)
        .where(eq(jobs.dedupeKey, `send-email:${email!.id}`))
      expect(job!.status).toBe('failed')
      expect((await smtp.db.select().from(egifts).where(eq(egifts.checkoutSessionId, second.body.checkoutSessionId)))[0]!.emailedAt).toBeNull()
      expect(received).toHaveLength(1)
    } finally {
      await smtp.close()
      await server.close()
    }
  })
})

describe('helpers', () => {
  it('codes are 60 random bits in Crockford base 32, and 9 am is found across daylight saving', () => {
    const codes = new Set(Array.from({ length: 2000 }, () => newEgiftCode()))
    expect(codes.size).toBe(2000)
    for (const c of codes) expect(c).toMatch(EGIFT_CODE_PATTERN)
    expect(instantAt('2026-07-04', 9, 'America/New_York').toISOString()).toBe('2026-07-04T13:00:00.000Z')
    expect(instantAt('2026-12-24', 9, 'Europe/London').toISOString()).toBe('2026-12-24T09:00:00.000Z')
    expect(instantAt('2026-03-29', 9, 'Europe/Berlin').toISOString()).toBe('2026-03-29T07:00:00.000Z')
    expect(instantAt('2026-12-24', 9, 'Asia/Kolkata').toISOString()).toBe('2026-12-24T03:30:00.000Z')
  })
})
