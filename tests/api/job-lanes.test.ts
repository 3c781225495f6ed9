import { and, eq } from 'drizzle-orm'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest'
import { jobs, outboxEmails } from '../../app/api/db/schema'
import { jobHandlers } from '../../app/api/services/handlers'
import { drainJobs, jobBackoffMs, jobLanesOf, startJobWorker } from '../../app/api/services/jobs'
import { closeMailTransports, mailJobs, queueEmail } from '../../app/api/services/mail'
import { LOCAL_TEST_CARDS } from '../../app/contract/cart'
import { cartItemFor, emptyCartsAndOrders, recordPreview, testAddress } from '../support/cart'
import { startFaultProxy, type FaultProxy } from '../support/fault-proxy'
import { startSmtpCapture } from '../support/smtp-capture'
import { createTestApi, type TestApi } from '../support/test-api'

/**
 * Issue 43 item 3 (decision 074): a hung SMTP server fails a send within SMTP_TIMEOUT_MS and the job tries again, and
 * e-mail has a lane of its own, so a hung e-mail never holds back a paid order on its way to the print provider.
 */
let smtp: Awaited<ReturnType<typeof startSmtpCapture>>
let proxy: FaultProxy
let stalled = false
beforeAll(async () => {
  smtp = await startSmtpCapture({ stall: () => stalled })
  proxy = await startFaultProxy({ port: Number(new URL(smtp.url).port) })
})
afterAll(async () => {
  await proxy.close()
  await smtp.close()
})
afterEach(() => {
  stalled = false
  closeMailTransports()
  proxy.set('forward')
  smtp.messages.length = 0
})

const email = (t: TestApi, reference: string, sendAfter = t.now()) =>
  queueEmail(t.db, t.config, {
    kind: 'test',
    reference,
    to: 'maya@example.com',
    subject: `About ${reference}`,
    text: 'Hello',
    html: '<p>Hello</p>',
    sendAfter,
  })

describe('e-mail has its own lane', () => {
  it('sends e-mail in the mail lane and every other kind in the default lane', () => {
    const lanes = jobLanesOf(jobHandlers)
    expect(Object.keys(lanes.get('mail')!)).toEqual(['send-email'])
    expect(Object.keys(lanes.get('default')!)).toEqual(expect.arrayContaining(['submit-order', 'advance-order', 'prune-previews', 'send-sign-in-link']))
    expect(lanes.get('default')!['send-email']).toBeUndefined()
  })
})

describe('a hung SMTP server', () => {
  let t: TestApi
  beforeAll(async () => {
    // Two seconds: short for the test, and long enough for a real greeting on a busy CI machine (300 ms was not: CI saw
    // the stalled step's greeting come late, so the deadline fired before the stall it tests).
    t = await createTestApi({ SMTP_URL: proxy.url('smtp'), SMTP_TIMEOUT_MS: '2000', MAIL_FROM: 'Keepsake <gifts@keepsake.example>' })
  })
  afterAll(() => t.close())

  it('fails the send within SMTP_TIMEOUT_MS, not marked sent; the retry sends it once when the server answers again', async () => {
    const id = (await email(t, 'hung-once'))!
    const outboxRow = async () => (await t.db.select().from(outboxEmails).where(eq(outboxEmails.id, id)))[0]
    // 1. Frozen before its greeting (the connection is accepted, nothing comes back).
    proxy.set('hang')
    const [first] = await drainJobs(t.api.deps, mailJobs)
    expect(first).toMatchObject({ kind: 'send-email', outcome: 'retry', error: expect.stringMatching(/greeting never received|timeout/i) })
    expect(await outboxRow()).toMatchObject({ status: 'scheduled', smtpAttempts: 1, lastError: first!.error })
    // Not due again before its backoff.
    expect(await drainJobs(t.api.deps, mailJobs)).toEqual([])

    // 2. Greets, then never answers a step of the conversation (nodemailer's own default waits ten minutes).
    proxy.set('forward')
    stalled = true
    t.setNow(new Date(t.now().getTime() + jobBackoffMs(1)))
    const [second] = await drainJobs(t.api.deps, mailJobs)
    // The deadline ends it, wherever in the conversation it waits (the stalled recipient, or a greeting late on a busy machine).
    expect(second).toMatchObject({ kind: 'send-email', outcome: 'retry', error: expect.stringMatching(/timeout|greeting never received/i) })
    expect(await outboxRow()).toMatchObject({ status: 'scheduled', smtpAttempts: 2, lastError: second!.error })
    expect(smtp.messages).toHaveLength(0)

    // 3. The server answers again: the e-mail goes, once.
    stalled = false
    t.setNow(new Date(t.now().getTime() + jobBackoffMs(2)))
    expect(await drainJobs(t.api.deps, mailJobs)).toEqual([expect.objectContaining({ kind: 'send-email', outcome: 'done' })])
    expect(await outboxRow()).toMatchObject({ status: 'sent', smtpAttempts: 3, lastError: null })
    t.setNow(new Date(t.now().getTime() + 10 * 60_000))
    expect(await drainJobs(t.api.deps, mailJobs)).toEqual([])
    expect(smtp.messages).toHaveLength(1)
    expect(smtp.messages[0]).toContain('Subject: About hung-once')
  })
})

describe('the worker’s lanes', () => {
  let t: TestApi
  beforeAll(async () => {
    // A deadline far longer than the test: the e-mail stays hung for as long as the test looks.
    t = await createTestApi({ SMTP_URL: proxy.url('smtp'), SMTP_TIMEOUT_MS: '600000', JOB_LEASE_SECONDS: '1' })
  })
  afterAll(() => t.close())
  beforeEach(() => emptyCartsAndOrders(t))

  it('sends a paid order to the print provider while an e-mail hangs; stop() ends both lanes and hands the e-mail back', async () => {
    const cookie = await t.signIn(0)
    proxy.set('hang')
    // Due first: a worker of one lane would take it first and wait on it.
    const emailId = (await email(t, 'hung-before-the-order', new Date(t.now().getTime() - 60_000)))!
    const preview = await recordPreview(t, t.users[0].id, 'star')
    expect((await t.request('/v1/photo-products-cart/items', { method: 'POST', cookie, json: { ...cartItemFor(preview), quantity: 1 } })).status).toBe(201)
    const session = await t.request('/v1/photo-products-cart/checkout-session', { method: 'POST', cookie })
    const paid = await t.request(`/v1/checkout/local/${session.body.id}/pay`, {
      method: 'POST',
      cookie,
      json: { cardNumber: LOCAL_TEST_CARDS.succeeds, shippingAddress: testAddress },
    })
    expect(paid.status, JSON.stringify(paid.body)).toBe(200)

    const jobOf = async (kind: string, key: string) =>
      (
        await t.db
          .select()
          .from(jobs)
          .where(and(eq(jobs.kind, kind), eq(jobs.dedupeKey, key)))
      )[0]
    const hungJob = await jobOf('send-email', `send-email:${emailId}`)
    expect(hungJob).toBeDefined()

    const worker = startJobWorker(t.api.deps, jobHandlers, { intervalMs: 20 })
    try {
      // The e-mail is in hand and hangs…
      await vi.waitFor(async () => expect(await jobOf('send-email', `send-email:${emailId}`)).toMatchObject({ status: 'running' }), { timeout: 10_000 })
      // …and the paid order still reaches the print provider.
      await vi.waitFor(
        async () => {
          const submits = await t.db.select().from(jobs).where(eq(jobs.kind, 'submit-order'))
          expect(submits).toEqual([expect.objectContaining({ status: 'done' })])
        },
        { timeout: 10_000, interval: 50 },
      )
      expect(await jobOf('send-email', `send-email:${emailId}`)).toMatchObject({ status: 'running', lastError: null })
    } finally {
      const deadline = new AbortController()
      const stopped = worker.stop(deadline.signal)
      // The hung e-mail does not finish: the shutdown's deadline comes, and its lease goes back for another instance.
      deadline.abort()
      const handedBack = await stopped
      expect(handedBack).toContain(hungJob!.id)
    }
    expect(await jobOf('send-email', `send-email:${emailId}`)).toMatchObject({ status: 'queued', lockedBy: null, lockedUntil: null, attempts: 0 })
    // The server goes away: the hung send ends in an error, and the e-mail is not marked sent.
    proxy.set('refuse')
    await vi.waitFor(async () => expect((await t.db.select().from(outboxEmails).where(eq(outboxEmails.id, emailId)))[0]?.lastError).toBeTruthy(), {
      timeout: 10_000,
    })
    expect((await t.db.select().from(outboxEmails).where(eq(outboxEmails.id, emailId)))[0]).toMatchObject({ status: 'scheduled' })
    expect(smtp.messages).toHaveLength(0)
    // Both lanes stopped: nothing more is claimed, though the order's next step and the e-mails are due.
    const before = await t.db.select().from(jobs)
    await new Promise((resolve) => setTimeout(resolve, 200))
    expect(await t.db.select().from(jobs)).toEqual(before)
  })
})
