import fc from 'fast-check'
import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { checkoutSessions, egifts, idempotencyKeys } from '../../app/api/db/schema'
import { egiftsApi } from '../../app/contract/endpoints/egifts'
import { IDEMPOTENT_REPLAY_HEADER } from '../../app/contract/headers'
import { createApiClient, registerInProcessApi } from '../../app/lib/api-client'
import { IDEMPOTENCY_KEY_HOURS } from '../../app/api/idempotency'
import { drainJobs } from '../../app/api/services/jobs'
import { jobHandlers, scheduleRecurringJobs } from '../../app/api/services/handlers'
import { createTestApi, TEST_ORIGIN, type TestApi } from '../support/test-api'

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
  await t.db.delete(idempotencyKeys)
})

const gift = { amountCents: 5000, recipientName: 'Gran', recipientEmail: 'gran@example.com', senderName: 'Maya', message: 'Happy holidays!' }
const buy = (key: string | undefined, json: unknown = gift, cookie = maya) =>
  t.request('/v1/egifts/purchases', { method: 'POST', json, cookie, headers: key === undefined ? {} : { 'idempotency-key': key } })
const counts = async () => ({ gifts: (await t.db.select().from(egifts)).length, sessions: (await t.db.select().from(checkoutSessions)).length })

describe('a write sent with an Idempotency-Key', () => {
  it('is applied once: a repeat gets the first answer, marked as a replay, and makes no second purchase', async () => {
    const before = await counts()
    const first = await buy('gift-key-1')
    expect(first.status).toBe(201)
    const repeat = await buy('gift-key-1')
    expect(repeat.status).toBe(201)
    expect(repeat.body).toEqual(first.body)
    expect(repeat.headers.get(IDEMPOTENT_REPLAY_HEADER)).toBe('true')
    expect(await counts()).toEqual({ gifts: before.gifts + 1, sessions: before.sessions + 1 })
  })

  it('without a key, each request is applied', async () => {
    const before = await counts()
    expect((await buy(undefined)).status).toBe(201)
    expect((await buy(undefined)).status).toBe(201)
    expect((await counts()).gifts).toBe(before.gifts + 2)
  })

  it('refuses the same key with another request (422) and applies nothing', async () => {
    expect((await buy('gift-key-2')).status).toBe(201)
    const before = await counts()
    const other = await buy('gift-key-2', { ...gift, amountCents: 7500 })
    expect(other.status).toBe(422)
    expect(other.body.error.code).toBe('rule_broken')
    expect(await counts()).toEqual(before)
  })

  it('keeps keys apart per shopper', async () => {
    const before = await counts()
    expect((await buy('shared-key')).status).toBe(201)
    const theirs = await buy('shared-key', gift, sam)
    expect(theirs.status).toBe(201)
    expect(theirs.headers.get(IDEMPOTENT_REPLAY_HEADER)).toBeNull()
    expect((await counts()).gifts).toBe(before.gifts + 2)
  })

  it('refuses a malformed key with 400 and applies nothing', async () => {
    const before = await counts()
    for (const key of ['x'.repeat(256), 'has space', 'tab\there', 'é']) {
      const res = await buy(key)
      expect(res.status, key).toBe(400)
      expect(res.body.error.message).toBe('idempotency-key must be 1 to 255 printable characters')
    }
    expect(await counts()).toEqual(before)
  })

  it('answers 409 while the first request with the key is still running, and applies nothing', async () => {
    expect((await buy('in-flight')).status).toBe(201)
    // As it stands while the first request is still being handled: claimed, no answer yet.
    await t.db.update(idempotencyKeys).set({ status: null, body: null })
    const before = await counts()
    const res = await buy('in-flight')
    expect(res.status).toBe(409)
    expect(await counts()).toEqual(before)
  })

  it('does not keep a refusal that depends on nothing stored: a 4xx is replayed as it was', async () => {
    const refused = await buy('bad-gift', { ...gift, amountCents: 12 })
    expect(refused.status).toBe(400)
    const again = await buy('bad-gift', { ...gift, amountCents: 12 })
    expect(again.status).toBe(400)
    expect(again.body.error.message).toBe(refused.body.error.message)
  })

  it('does not keep an answer that sets a cookie: signing in again under the key signs in again', async () => {
    const signIn = () => t.request('/v1/demo/sessions', { method: 'POST', json: { userId: t.users[1].id }, headers: { 'idempotency-key': 'sign-in-key' } })
    const first = await signIn()
    const second = await signIn()
    expect(first.status).toBe(201)
    expect(second.status).toBe(201)
    expect(second.headers.get('set-cookie')).toBeTruthy()
    expect(second.headers.get(IDEMPOTENT_REPLAY_HEADER)).toBeNull()
  })
})

describe('the server functions’ client retrying a write whose answer was lost', () => {
  it('sends the same key again and gets the first answer: one purchase', async () => {
    let lost = 0
    // The request reaches the API and is applied; its answer is dropped on the way back, once.
    registerInProcessApi(async (request) => {
      const response = await t.api.fetch(request)
      if (lost++ === 0) throw new TypeError('socket hang up')
      return response
    })
    const waits: number[] = []
    const client = createApiClient({
      baseUrl: TEST_ORIGIN,
      ownOrigin: TEST_ORIGIN,
      cookie: maya,
      productSlug: 'keepsake',
      retry: { timeoutMs: 5000, sleep: async (ms) => void waits.push(ms) },
    })
    const before = await counts()
    const answer = await client.call(egiftsApi.purchaseEgift, { body: gift })
    expect(waits).toEqual([2000])
    expect(lost).toBe(2)
    expect(await counts()).toEqual({ gifts: before.gifts + 1, sessions: before.sessions + 1 })
    const [row] = await t.db.select().from(egifts).where(eq(egifts.id, answer.id))
    expect(row).toBeTruthy()
  })
})

describe('keys sent signed out (issue 42, item 10)', () => {
  const waitlist = (email: string) => ({ product: 'photo-calendar', sourcePage: '/loop/store/', name: 'Ann Lee', email, note: 'For grandma' })
  const join = (key: string, json: unknown, clientAddress: string) =>
    t.request('/v1/smokescreens/waitlist', { method: 'POST', json, clientAddress, headers: { 'idempotency-key': key } })

  it('two signed-out clients using the same key each get their own answer, never the other’s', async () => {
    const first = await join('shared-anonymous-key', waitlist('first@example.com'), '198.51.100.21')
    expect(first.status).toBe(201)
    // Another client, the same key, another request: applied, not refused as "used for a different request".
    const other = await join('shared-anonymous-key', waitlist('second@example.com'), '198.51.100.22')
    expect(other.status).toBe(201)
    expect(other.headers.get(IDEMPOTENT_REPLAY_HEADER)).toBeNull()
    expect(other.body).toMatchObject({ created: true })
    // Another client, the same key and the same body: its own answer too, not the first client's replayed.
    const same = await join('shared-anonymous-key', waitlist('first@example.com'), '198.51.100.23')
    expect(same.headers.get(IDEMPOTENT_REPLAY_HEADER)).toBeNull()
    expect(same.body).toMatchObject({ created: false })
    // The first client repeating itself still gets its first answer.
    const repeat = await join('shared-anonymous-key', waitlist('first@example.com'), '198.51.100.21')
    expect(repeat.headers.get(IDEMPOTENT_REPLAY_HEADER)).toBe('true')
    expect(repeat.body).toEqual(first.body)
  })

  it('webhooks keep no key: they have their own event ids', async () => {
    for (const path of ['/v1/webhooks/stripe', '/v1/webhooks/printify']) {
      const res = await t.request(path, { method: 'POST', json: { type: 'order:updated' }, headers: { 'idempotency-key': 'webhook-key' } })
      expect(res.status, path).toBeLessThan(500)
    }
    expect(await t.db.select().from(idempotencyKeys)).toEqual([])
  })

  it('the table stays bounded under generated signed-out traffic: the prune job removes keys older than a day', { timeout: 120_000 }, async () => {
    const start = t.now()
    // The clock only moves on, from run to run too: each hour's prune runs once, as in a real process.
    let now = start.getTime()
    let run = 0
    try {
      await fc.assert(
        fc.asyncProperty(
          fc.array(
            fc.record({ hoursLater: fc.integer({ min: 0, max: 30 }), requests: fc.integer({ min: 0, max: 4 }), key: fc.constantFrom('a', 'b', 'retry-1') }),
            {
              minLength: 1,
              maxLength: 6,
            },
          ),
          async (steps) => {
            run++
            await t.db.delete(idempotencyKeys)
            now += 48 * 3600_000
            const sent: number[] = []
            for (const [i, step] of steps.entries()) {
              now += step.hoursLater * 3600_000
              t.setNow(new Date(now))
              for (let r = 0; r < step.requests; r++) {
                // A new client each time (the waitlist's own per-client limit stays out of the way).
                const res = await join(`${step.key}-${r}`, waitlist(`run${run}-${i}-${r}@example.com`), `10.${run % 250}.${i}.${r + 1}`)
                expect(res.status).toBe(201)
                sent.push(now)
              }
              await scheduleRecurringJobs(t.api.deps)
              await drainJobs(t.api.deps, jobHandlers)
              const rows = await t.db.select().from(idempotencyKeys)
              const dayAgo = now - IDEMPOTENCY_KEY_HOURS * 3600_000
              // Only keys from the last day remain: no more rows than requests sent in it.
              expect(rows.every((row) => row.createdAt.getTime() >= dayAgo)).toBe(true)
              expect(rows.length).toBeLessThanOrEqual(sent.filter((at) => at >= dayAgo).length)
            }
          },
        ),
        { numRuns: 12, seed: 42 },
      )
    } finally {
      t.setNow(start)
    }
  })
})
