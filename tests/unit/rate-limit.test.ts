import { execFile } from 'node:child_process'
import { randomUUID } from 'node:crypto'
import path from 'node:path'
import { promisify } from 'node:util'
import { afterAll, describe, expect, it } from 'vitest'
import { AppError } from '../../app/api/errors'
import { MemoryRateLimiter, RedisRateLimiter, enforceRateLimits, rateLimiterFor, type RateLimitRule, type RateLimiter } from '../../app/api/rate-limit'
import { errorStatus } from '../../app/contract/errors'
import { startFaultProxy } from '../support/fault-proxy'

const REDIS_URL = 'redis://127.0.0.1:6379'
// Every run uses its own rule names, so runs against the shared Redis never see each other's counters.
const run = randomUUID().slice(0, 8)
let rules = 0
const rule = (limit: number, windowMs = 60_000, whenStoreDown: RateLimitRule['whenStoreDown'] = 'open'): RateLimitRule => ({
  name: `test-${run}-${++rules}`,
  limit,
  windowMs,
  whenStoreDown,
})

// A fake clock at the start of a minute, so every window used below (1 s to 10 min) starts there too.
const start = new Date(Date.UTC(2030, 0, 1, 12, 0, 0))
const at = (ms: number) => new Date(start.getTime() + ms)

const implementations: [string, () => RateLimiter][] = [
  ['MemoryRateLimiter', () => new MemoryRateLimiter()],
  ['RedisRateLimiter', () => new RedisRateLimiter(REDIS_URL)],
]

describe.each(implementations)('%s', (_name, create) => {
  const limiter = create()
  afterAll(() => limiter.close())

  it('allows up to the limit, then refuses', async () => {
    const r = rule(3)
    const results = []
    for (let i = 0; i < 4; i++) results.push(await limiter.hit(r, 'ip-1', start))
    expect(results.map((x) => x.allowed)).toEqual([true, true, true, false])
    expect(results.map((x) => x.remaining)).toEqual([2, 1, 0, 0])
    expect(results.slice(0, 3).every((x) => x.retryAfterMs === 0)).toBe(true)
  })

  it('keeps counting refused hits, so a burst stays refused', async () => {
    const r = rule(2)
    for (let i = 0; i < 10; i++) await limiter.hit(r, 'ip-1', at(i))
    // The same counter read with a limit of 10: had the 8 refused hits not counted, the 11th would be allowed.
    expect((await limiter.hit({ ...r, limit: 10 }, 'ip-1', at(20))).allowed).toBe(false)
    expect((await limiter.hit(r, 'ip-1', at(30))).allowed).toBe(false)
  })

  it('allows again once the window rolls over', async () => {
    const r = rule(1, 60_000)
    expect((await limiter.hit(r, 'ip-1', at(0))).allowed).toBe(true)
    expect((await limiter.hit(r, 'ip-1', at(59_999))).allowed).toBe(false)
    expect(await limiter.hit(r, 'ip-1', at(60_000))).toEqual({ allowed: true, remaining: 0, retryAfterMs: 0 })
    expect((await limiter.hit(r, 'ip-1', at(60_001))).allowed).toBe(false)
  })

  it('counts separate keys and separate rules independently', async () => {
    const r = rule(1)
    const other = rule(1)
    expect((await limiter.hit(r, 'ip-1', start)).allowed).toBe(true)
    expect((await limiter.hit(r, 'ip-1', start)).allowed).toBe(false)
    expect((await limiter.hit(r, 'ip-2', start)).allowed).toBe(true)
    expect((await limiter.hit(other, 'ip-1', start)).allowed).toBe(true)
  })

  it('answers when to retry: more than 0 and at most the window, measured from now', async () => {
    const r = rule(1, 60_000)
    await limiter.hit(r, 'ip-1', at(0))
    const refused = await limiter.hit(r, 'ip-1', at(15_000))
    expect(refused.allowed).toBe(false)
    expect(refused.retryAfterMs).toBeGreaterThan(0)
    expect(refused.retryAfterMs).toBeLessThanOrEqual(r.windowMs)
    expect(refused.retryAfterMs).toBe(45_000)
  })

  it('hitAll counts every pair once and refuses if any pair refuses', async () => {
    const perIp = rule(5)
    const perEmail = rule(2, 600_000)
    const attempt = (ip: string) =>
      limiter.hitAll(
        [
          { rule: perIp, key: ip },
          { rule: perEmail, key: 'ann@example.com' },
          { rule: perEmail, key: 'ann@example.com' },
        ],
        at(10_000),
      )
    expect(await attempt('ip-1')).toEqual({ allowed: true, remaining: 1, retryAfterMs: 0 })
    expect(await attempt('ip-2')).toEqual({ allowed: true, remaining: 0, retryAfterMs: 0 })
    // The e-mail rule refuses; the per-IP rule still counted this attempt, and the wait is the e-mail rule's.
    expect(await attempt('ip-1')).toEqual({ allowed: false, remaining: 0, retryAfterMs: 590_000 })
    expect(await limiter.hit(perIp, 'ip-1', at(10_000))).toEqual({ allowed: true, remaining: 2, retryAfterMs: 0 })
  })

  it('hitAll with no pairs allows', async () => {
    expect((await limiter.hitAll([], start)).allowed).toBe(true)
  })

  it('enforceRateLimits throws a rate_limited AppError (429) saying when to try again', async () => {
    const r = rule(1, 600_000)
    const hits = [{ rule: r, key: 'ip-1' }]
    await expect(enforceRateLimits(limiter, hits, at(0))).resolves.toBeUndefined()
    const error = await enforceRateLimits(limiter, hits, at(60_001)).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(AppError)
    expect((error as AppError).code).toBe('rate_limited')
    expect(errorStatus[(error as AppError).code]).toBe(429)
    expect((error as AppError).message).toBe('Too many attempts; try again in 9 minutes')

    const short = rule(1, 60_000)
    await enforceRateLimits(limiter, [{ rule: short, key: 'ip-1' }], at(0))
    await expect(enforceRateLimits(limiter, [{ rule: short, key: 'ip-1' }], at(30_500))).rejects.toThrow('Too many attempts; try again in 30 seconds')
    await expect(enforceRateLimits(limiter, [{ rule: short, key: 'ip-1' }], at(59_500))).rejects.toThrow('Too many attempts; try again in 1 second')
  })
})

describe('MemoryRateLimiter', () => {
  it('prunes counters of finished windows, so memory stays bounded', async () => {
    const limiter = new MemoryRateLimiter()
    const r = rule(5, 1_000)
    let largest = 0
    // 50 000 distinct keys over 500 s of fake time: only the current second's ~100 are live at any moment.
    for (let i = 0; i < 50_000; i++) {
      await limiter.hit(r, `ip-${i}`, at(i * 10))
      largest = Math.max(largest, limiter.size)
    }
    expect(largest).toBeLessThanOrEqual(10_001)
    expect(limiter.size).toBeLessThanOrEqual(10_001)
  })

  it('keeps counters of windows still running when it prunes', async () => {
    const limiter = new MemoryRateLimiter({ sweepAbove: 10 })
    const long = rule(1, 600_000)
    const short = rule(5, 1_000)
    await limiter.hit(long, 'ip-1', at(0))
    for (let i = 0; i < 100; i++) await limiter.hit(short, `ip-${i}`, at(i * 1_000))
    expect(limiter.size).toBeLessThan(30)
    expect((await limiter.hit(long, 'ip-1', at(100_000))).allowed).toBe(false)
  })
})

describe('RedisRateLimiter', () => {
  it('uses the keepsake:rl: prefix and the window index derived from now', async () => {
    const limiter = new RedisRateLimiter(REDIS_URL)
    const { createClient } = await import('redis')
    const client = await createClient({ url: REDIS_URL }).connect()
    try {
      const r = rule(3, 60_000)
      await limiter.hit(r, 'ip-1', at(0))
      await limiter.hit(r, 'ip-1', at(1))
      const key = `keepsake:rl:${r.name}:ip-1:${Math.floor(start.getTime() / r.windowMs)}`
      expect(await client.get(key)).toBe('2')
      const ttl = await client.pTTL(key)
      expect(ttl).toBeGreaterThan(0)
      expect(ttl).toBeLessThanOrEqual(r.windowMs)
    } finally {
      client.destroy()
      await limiter.close()
    }
  })

  it('counts an open limit in this process while Redis is unreachable: the same limit, then refused (decision 075)', async () => {
    const limiter = new RedisRateLimiter('redis://127.0.0.1:1')
    try {
      const r = rule(2)
      const results = []
      for (let i = 0; i < 3; i++) results.push(await limiter.hit(r, 'ip-1', start))
      expect(results).toEqual([
        { allowed: true, remaining: 1, retryAfterMs: 0 },
        { allowed: true, remaining: 0, retryAfterMs: 0 },
        { allowed: false, remaining: 0, retryAfterMs: 60_000 },
      ])
      await expect(enforceRateLimits(limiter, [{ rule: r, key: 'ip-1' }], start)).rejects.toMatchObject({ code: 'rate_limited' })
    } finally {
      await limiter.close()
    }
  })

  it('refuses a closed limit with 503 and Retry-After while Redis is unreachable, also beside an open one, and tries Redis again on the next hit', async () => {
    const limiter = new RedisRateLimiter('redis://127.0.0.1:1')
    try {
      for (const hits of [
        [{ rule: rule(5, 60_000, 'closed'), key: 'ip-1' }],
        [
          { rule: rule(5), key: 'ip-1' },
          { rule: rule(5, 60_000, 'closed'), key: 'u-1' },
        ],
      ]) {
        const error = await enforceRateLimits(limiter, hits, start).catch((e: unknown) => e)
        expect(error).toBeInstanceOf(AppError)
        expect(error).toMatchObject({ code: 'unavailable', retryAfterMs: 5000 })
        expect(errorStatus[(error as AppError).code]).toBe(503)
        expect(((error as AppError).cause as Error).message).toMatch(/cannot reach Redis at redis:\/\/127\.0\.0\.1:1.*ECONNREFUSED/)
      }
    } finally {
      await limiter.close()
    }
  })

  it('takes Redis as down when a hit is not answered within the command deadline (a hung Redis)', async () => {
    const hung = await startFaultProxy({ port: 6379 })
    hung.set('hang')
    const limiter = new RedisRateLimiter(hung.url('redis'), { commandTimeoutMs: 100 })
    try {
      const error = await enforceRateLimits(limiter, [{ rule: rule(5, 60_000, 'closed'), key: 'ip-1' }], start).catch((e: unknown) => e)
      expect(error).toMatchObject({ code: 'unavailable' })
      expect(((error as AppError).cause as Error).message).toMatch(/did not answer within 100 ms/)
      expect(await limiter.hit(rule(5), 'ip-1', start)).toEqual({ allowed: true, remaining: 4, retryAfterMs: 0 })
      await expect(limiter.ping()).rejects.toThrow(/did not answer within 100 ms/)
      // Thawed, the same connection answers and the limit is shared through Redis again.
      hung.set('forward')
      const r = rule(5)
      await limiter.hit(r, 'ip-1', start)
      const { createClient } = await import('redis')
      const client = await createClient({ url: REDIS_URL }).connect()
      try {
        expect(await client.get(`keepsake:rl:${r.name}:ip-1:${Math.floor(start.getTime() / r.windowMs)}`)).toBe('1')
      } finally {
        client.destroy()
      }
    } finally {
      await limiter.close()
      await hung.close()
    }
  })

  it('refuses hits after close()', async () => {
    const limiter = new RedisRateLimiter(REDIS_URL)
    await limiter.hit(rule(5), 'ip-1', start)
    await limiter.close()
    await expect(limiter.hit(rule(5), 'ip-1', start)).rejects.toThrow(/closed/)
  })

  it('does not keep the process alive after close()', async () => {
    const module = path.resolve(import.meta.dirname, '../../app/api/rate-limit.ts')
    const script = `
      const { RedisRateLimiter } = await import(${JSON.stringify(module)})
      const limiter = new RedisRateLimiter(${JSON.stringify(REDIS_URL)})
      const unreachable = new RedisRateLimiter('redis://127.0.0.1:1')
      const result = await limiter.hit({ name: 'test-${run}-exit', limit: 5, windowMs: 60000, whenStoreDown: 'open' }, 'ip-1', new Date())
      await unreachable.hit({ name: 'test-${run}-exit', limit: 5, windowMs: 60000, whenStoreDown: 'closed' }, 'ip-1', new Date()).catch(() => {})
      await Promise.all([limiter.close(), unreachable.close()])
      console.log(JSON.stringify(result))
    `
    const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
      cwd: path.resolve(import.meta.dirname, '../..'),
      timeout: 15_000,
    })
    expect(JSON.parse(stdout)).toEqual({ allowed: true, remaining: 4, retryAfterMs: 0 })
  })
})

describe('rateLimiterFor', () => {
  it('keeps limits in-process without REDIS_URL and in Redis with it', async () => {
    const memory = rateLimiterFor({ redisUrl: null, redisCommandTimeoutMs: 500 })
    const redis = rateLimiterFor({ redisUrl: REDIS_URL, redisCommandTimeoutMs: 500 })
    expect(memory).toBeInstanceOf(MemoryRateLimiter)
    expect(redis).toBeInstanceOf(RedisRateLimiter)
    await Promise.all([memory.close(), redis.close()])
  })
})
