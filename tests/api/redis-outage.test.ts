import { createClient } from 'redis'
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import { SIGN_IN_LINKS_PER_HOUR } from '../../app/contract/growth'
import { newEgiftCode } from '../../app/api/services/egifts'
import { startFaultProxy, type FaultProxy } from '../support/fault-proxy'
import { TEST_ORIGIN, createTestApi, type TestApi } from '../support/test-api'

/**
 * Redis stopped or hung under the shared rate limits (issue 43 item 5, decision 075): every limited endpoint answers
 * within REDIS_COMMAND_TIMEOUT_MS, never 500. Open limits go on, counted in this process up to the same limit; closed
 * ones (e-gift and invite redemption) answer 503 with Retry-After; and all of it is shared through Redis again after.
 */
// A database no other test file uses (13: shared limits and render slots, 12: two instances, 0: the unit tests).
const REDIS_DB = 9
const REDIS_URL = `redis://127.0.0.1:6379/${REDIS_DB}`

let redis: FaultProxy
let t: TestApi
let maya: string
let mayaCode: string
let addresses = 0
/** A fresh client address, so one test's per-address counts never reach the next. */
const freshAddress = () => `198.51.100.${++addresses}`

const askForLink = (email: string, clientAddress: string) =>
  t.request('/v1/growth/sign-in-links', { method: 'POST', headers: { origin: TEST_ORIGIN }, clientAddress, json: { email } })
const redeemEgift = (clientAddress = freshAddress()) =>
  t.request('/v1/egifts/redeem', { method: 'POST', json: { code: newEgiftCode() }, cookie: maya, clientAddress })
const redeemInvite = (clientAddress = freshAddress()) =>
  t.request('/v1/growth/referred/redemptions', { method: 'POST', json: { timezone: 'America/New_York' }, cookie: maya, clientAddress })

/** Every key the shared limits hold in this test's Redis database. */
async function sharedKeys(pattern: string) {
  const client = await createClient({ url: REDIS_URL }).connect()
  try {
    return await client.keys(`keepsake:rl:${pattern}`)
  } finally {
    client.destroy()
  }
}

beforeAll(async () => {
  const client = await createClient({ url: REDIS_URL }).connect()
  await client.flushDb()
  client.destroy()
  redis = await startFaultProxy({ port: 6379 })
  t = await createTestApi({ REDIS_URL: redis.url('redis', `/${REDIS_DB}`), REDIS_COMMAND_TIMEOUT_MS: '200' })
  maya = await t.signIn(0)
  mayaCode = (await t.request('/v1/growth/advocate/redemptions', { cookie: maya })).body.code
})
afterEach(() => redis.set('forward'))
afterAll(async () => {
  await t.api.deps.rateLimiter.close()
  await t.close()
  await redis.close()
})

const expectOutage = (res: { status: number; headers: Headers; body: any }) => {
  expect(res.status).toBe(503)
  expect(res.headers.get('retry-after')).toBe('5')
  expect(res.body).toEqual({ error: { code: 'unavailable', message: expect.stringMatching(/is not answering right now/), requestId: expect.any(String) } })
}

it('with Redis up, the limits are shared through it and the redemptions answer as they always have', async () => {
  expect((await askForLink('up@example.com', freshAddress())).status).toBe(202)
  expect(await sharedKeys('sign-in-link-email:up@example.com:*')).toHaveLength(1)
  expect((await redeemEgift()).status).toBe(404)
  expect((await redeemInvite()).status).toBe(422)
})

describe.each(['refuse', 'hang'] as const)('with Redis %s', (fault) => {
  it('open limits answer as usual, counted in this process up to the same limit', async () => {
    redis.set(fault)
    const address = freshAddress()
    const links = []
    for (let i = 0; i <= SIGN_IN_LINKS_PER_HOUR; i++) links.push((await askForLink(`open-${fault}-${i}@example.com`, address)).status)
    expect(links).toEqual([...Array(SIGN_IN_LINKS_PER_HOUR).fill(202), 429])
    const guest = await t.request('/v1/demo/guests', { method: 'POST', clientAddress: freshAddress() })
    expect(guest.status).toBe(201)
    expect((await t.request(`/v1/growth/referral-codes/${mayaCode}`, { clientAddress: freshAddress() })).status).toBe(200)
    const waitlist = { product: 'photo-calendar', sourcePage: '/loop/store/', name: 'Sam Guest', email: `${fault}@example.com`, note: '' }
    const cookie = guest.headers.get('set-cookie')!.split(';')[0]!
    expect((await t.request('/v1/smokescreens/waitlist', { method: 'POST', json: waitlist, cookie, clientAddress: freshAddress() })).status).toBe(201)
  })

  it('closed limits (e-gift and invite redemption) answer 503 with Retry-After, and redeem again once Redis is back', async () => {
    redis.set(fault)
    expectOutage(await redeemEgift())
    expectOutage(await redeemInvite())
    redis.set('forward')
    // A stopped Redis is reconnected to with a backoff of at most 2 s; a thawed one answers on the connection it had.
    await vi.waitFor(async () => expect((await redeemEgift()).status).toBe(404), { timeout: 5000, interval: 100 })
    expect((await redeemInvite()).status).toBe(422)
  })

  it('shares the open limits through Redis again once it is back', async () => {
    redis.set(fault)
    expect((await askForLink(`meanwhile-${fault}@example.com`, freshAddress())).status).toBe(202)
    redis.set('forward')
    const email = `after-${fault}@example.com`
    await vi.waitFor(
      async () => {
        expect((await askForLink(email, freshAddress())).status).toBe(202)
        expect(await sharedKeys(`sign-in-link-email:${email}:*`)).toHaveLength(1)
      },
      { timeout: 5000, interval: 100 },
    )
  })
})
