import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { checkoutSessions, egifts, idempotencyKeys } from '../../app/api/db/schema'
import { egiftsApi } from '../../app/contract/endpoints/egifts'
import { IDEMPOTENT_REPLAY_HEADER } from '../../app/contract/headers'
import { createApiClient, registerInProcessApi } from '../../app/lib/api-client'
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
