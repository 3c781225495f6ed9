import { randomUUID } from 'node:crypto'
import { and, eq } from 'drizzle-orm'
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { IDEMPOTENCY_KEY_HEADER, IDEMPOTENT_REPLAY_HEADER } from '../../app/contract/headers'
import { idempotencyKeys, smokescreenSignups } from '../../app/api/db/schema'
import { dependencyUnavailable } from '../../app/api/errors'
import { MemoryRateLimiter, type RateLimitResult, type RateLimitRule, type RateLimiter } from '../../app/api/rate-limit'
import { startFaultProxy, type FaultProxy } from '../support/fault-proxy'
import { createTestApi, type TestApi } from '../support/test-api'

/**
 * A write under an Idempotency-Key that outlives IDEMPOTENT_WRITE_DEADLINE_SECONDS (issue 43 item 4: with PostgreSQL
 * frozen, a retry got 409 "still being processed" for as long as the first attempt hung). The write here is a
 * waitlist sign-up, held where it counts its rate limit, the first thing its handler does.
 */

/** The in-process limiter, with a hit that can be held (a hung dependency) or made to fail. */
class HoldableLimiter implements RateLimiter {
  readonly #inner = new MemoryRateLimiter()
  #gate: Promise<void> | null = null
  #failure: (() => Error) | null = null

  /** The next hit waits until the function returned is called. */
  holdNext(): () => void {
    let open = () => {}
    this.#gate = new Promise<void>((resolve) => (open = resolve))
    return open
  }

  /** The next hit throws what `failure` makes. */
  failNext(failure: () => Error) {
    this.#failure = failure
  }

  hit(rule: RateLimitRule, key: string, now: Date) {
    return this.hitAll([{ rule, key }], now)
  }

  async hitAll(hits: { rule: RateLimitRule; key: string }[], now: Date): Promise<RateLimitResult> {
    const gate = this.#gate
    const failure = this.#failure
    this.#gate = null
    this.#failure = null
    if (gate) await gate
    if (failure) throw failure()
    return this.#inner.hitAll(hits, now)
  }

  close() {
    return this.#inner.close()
  }
}

const limiter = new HoldableLimiter()
let t: TestApi
let keys = 0
const freshKey = () => `deadline-${process.pid}-${++keys}`
const waitlist = { product: 'photo-calendar', sourcePage: '/loop/store/', name: 'Maya Rivera', email: 'maya@example.com', note: '' }

const signUp = (cookie: string, key: string) =>
  t.request('/v1/smokescreens/waitlist', { method: 'POST', json: waitlist, cookie, headers: { [IDEMPOTENCY_KEY_HEADER]: key } })
const keyRow = async (key: string) => (await t.db.select().from(idempotencyKeys).where(eq(idempotencyKeys.key, key)))[0]
const signUpsOf = async (userId: string) =>
  t.db
    .select()
    .from(smokescreenSignups)
    .where(and(eq(smokescreenSignups.userId, userId), eq(smokescreenSignups.product, waitlist.product)))

beforeAll(async () => {
  // Long enough that a claim of the key (two queries) is done by then on a loaded 2-core machine: the writes held here
  // pass the deadline while writing. At 0.3 s a CI run saw the deadline fall during the claim (2026-12-04).
  t = await createTestApi({ IDEMPOTENT_WRITE_DEADLINE_SECONDS: '1' }, { rateLimiter: limiter })
})
afterAll(() => t.close())

const expectPastDeadline = (res: { status: number; headers: Headers; body: any }) => {
  expect(res.status).toBe(503)
  expect(res.headers.get('retry-after')).toBe('5')
  expect(res.body).toEqual({ error: { code: 'unavailable', message: expect.stringMatching(/not answering right now/), requestId: expect.any(String) } })
}

describe('a write past IDEMPOTENT_WRITE_DEADLINE_SECONDS', () => {
  it('is answered 503 and releases its key: the retry is processed, not refused 409, and replayed after', async () => {
    const guest = await t.signInGuest('192.0.2.10')
    const key = freshKey()
    const open = limiter.holdNext()
    expectPastDeadline(await signUp(guest.cookie, key))
    expect(await keyRow(key)).toBeUndefined()

    const retry = await signUp(guest.cookie, key)
    expect(retry.status).toBe(201)
    expect(retry.body).toMatchObject({ created: true })
    expect(retry.headers.get(IDEMPOTENT_REPLAY_HEADER)).toBeNull()

    // The first attempt ends after all; the key is the retry's, so its answer is the one replayed.
    open()
    await vi.waitFor(async () => expect((await signUpsOf(guest.user.id)).length).toBe(1))
    const again = await signUp(guest.cookie, key)
    expect(again.status).toBe(201)
    expect(again.headers.get(IDEMPOTENT_REPLAY_HEADER)).toBe('true')
    expect(again.body).toEqual(retry.body)
    expect(await signUpsOf(guest.user.id)).toHaveLength(1)
  })

  it('keeps the answer of an attempt that finishes late when no retry came first, so a retry then is its replay, not a second write', async () => {
    const guest = await t.signInGuest('192.0.2.11')
    const key = freshKey()
    const open = limiter.holdNext()
    expectPastDeadline(await signUp(guest.cookie, key))
    open()
    await vi.waitFor(async () => expect((await keyRow(key))?.status).toBe(201))

    const retry = await signUp(guest.cookie, key)
    expect(retry.status).toBe(201)
    expect(retry.headers.get(IDEMPOTENT_REPLAY_HEADER)).toBe('true')
    expect(retry.body).toMatchObject({ created: true })
    expect(await signUpsOf(guest.user.id)).toHaveLength(1)
  })

  it('answers within the deadline as before: stored and replayed', async () => {
    const guest = await t.signInGuest('192.0.2.12')
    const key = freshKey()
    const first = await signUp(guest.cookie, key)
    expect(first.status).toBe(201)
    expect((await keyRow(key))?.status).toBe(201)
    const again = await signUp(guest.cookie, key)
    expect(again.headers.get(IDEMPOTENT_REPLAY_HEADER)).toBe('true')
    expect(again.body).toEqual(first.body)
  })
})

describe('a write that fails', () => {
  it('frees its key even when the database refuses the first release, retrying it in the background', async () => {
    const guest = await t.signInGuest('192.0.2.13')
    const key = freshKey()
    const { db } = t.api.deps
    const realDelete = db.delete.bind(db)
    let refuseDeletes = 0
    db.delete = ((table: Parameters<typeof db.delete>[0]) => {
      if (table === idempotencyKeys && refuseDeletes > 0) {
        refuseDeletes -= 1
        throw new Error('Connection terminated unexpectedly')
      }
      return realDelete(table)
    }) as typeof db.delete
    try {
      // The write fails on a dependency, and the database is gone for the key's first release.
      limiter.failNext(() => {
        refuseDeletes = 1
        return dependencyUnavailable('Redis')
      })
      const failed = await signUp(guest.cookie, key)
      expect(failed.status).toBe(503)
      expect(failed.body.error.message).toMatch(/^Redis is not answering/)
      expect(await keyRow(key)).toBeDefined()
      await vi.waitFor(async () => expect(await keyRow(key)).toBeUndefined(), { timeout: 5000, interval: 100 })
    } finally {
      db.delete = realDelete
    }
    const retry = await signUp(guest.cookie, key)
    expect(retry.status).toBe(201)
    expect(retry.headers.get(IDEMPOTENT_REPLAY_HEADER)).toBeNull()
  })
})

describe('a key whose release is still waiting for the database', () => {
  it('is taken over by the client’s retry to this process at once: processed, not refused 409 until the background release lands', async () => {
    const guest = await t.signInGuest('192.0.2.14')
    const key = freshKey()
    const { db } = t.api.deps
    const realDelete = db.delete.bind(db)
    // The key's first release fails (the database just went as the write failed); the other deletes go through.
    let refuseReleases = false
    db.delete = ((table: Parameters<typeof db.delete>[0]) => {
      if (table === idempotencyKeys && refuseReleases) {
        refuseReleases = false
        throw new Error('Connection terminated unexpectedly')
      }
      return realDelete(table)
    }) as typeof db.delete
    try {
      limiter.failNext(() => {
        refuseReleases = true
        return dependencyUnavailable('Redis')
      })
      const failed = await signUp(guest.cookie, key)
      expect(failed.status).toBe(503)
      // Still held in the table: the release is waiting for its next background try (0.5 s).
      expect(await keyRow(key)).toMatchObject({ status: null })
      const retry = await signUp(guest.cookie, key)
      expect(retry.status, JSON.stringify(retry.body)).toBe(201)
      expect(retry.headers.get(IDEMPOTENT_REPLAY_HEADER)).toBeNull()
      // The background release, when it lands, deletes only its own claim: the retry's answer stays, and is replayed.
      await new Promise((resolve) => setTimeout(resolve, 1200))
      expect(await keyRow(key)).toMatchObject({ status: 201 })
      const again = await signUp(guest.cookie, key)
      expect(again.status).toBe(201)
      expect(again.headers.get(IDEMPOTENT_REPLAY_HEADER)).toBe('true')
    } finally {
      db.delete = realDelete
    }
  })
})

const serverUrl = process.env.TEST_DATABASE_URL
describe.runIf(process.env.TEST_DB_ENGINE === 'postgres' && serverUrl)("with PostgreSQL frozen (the issue's case)", () => {
  const name = `keepsake_test_${randomUUID().replaceAll('-', '')}`
  let frozen: FaultProxy
  let f: TestApi
  const admin = async (sql: string) => {
    const client = new pg.Client({ connectionString: serverUrl })
    await client.connect()
    try {
      await client.query(sql)
    } finally {
      await client.end()
    }
  }
  beforeAll(async () => {
    await admin(`CREATE DATABASE ${name}`)
    frozen = await startFaultProxy({ port: Number(new URL(serverUrl!).port || 5432) })
    const url = new URL(serverUrl!)
    url.host = `127.0.0.1:${frozen.port}`
    url.pathname = `/${name}`
    f = await createTestApi({ IDEMPOTENT_WRITE_DEADLINE_SECONDS: '0.5' }, { database: { databaseUrl: url.toString(), dataDir: null } })
  })
  afterAll(async () => {
    frozen?.set('forward')
    await f?.close()
    await frozen?.close()
    await admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)
  })

  it('answers a signed-out write 503 at the deadline, a retry during the freeze 503 too (never 409), and processes it once thawed', async () => {
    const key = freshKey()
    const json = { ...waitlist, email: 'frozen@example.com' }
    const send = () => f.request('/v1/smokescreens/waitlist', { method: 'POST', json, clientAddress: '192.0.2.50', headers: { [IDEMPOTENCY_KEY_HEADER]: key } })
    frozen.set('hang')
    expectPastDeadline(await send())
    expectPastDeadline(await send())
    frozen.set('forward')
    // The claims made during the freeze land on thaw and are given up again; then the write is processed, once.
    await vi.waitFor(async () => expect((await send()).status).toBe(201), { timeout: 10_000, interval: 200 })
    const replay = await send()
    expect(replay.headers.get(IDEMPOTENT_REPLAY_HEADER)).toBe('true')
    const rows = await f.db.select().from(smokescreenSignups).where(eq(smokescreenSignups.email, 'frozen@example.com'))
    expect(rows).toHaveLength(1)
  })
})
