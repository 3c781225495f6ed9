import { createClient } from 'redis'
import { AppError } from './errors'

/** ARCHITECTURE.md: rate limits are in-process by default and shared through Redis when REDIS_URL is set. */

export type RateLimitRule = { name: string; limit: number; windowMs: number }
export type RateLimitResult = { allowed: boolean; remaining: number; retryAfterMs: number }

export interface RateLimiter {
  /** Counts one hit for key under rule; answers whether it is within the limit. A refused hit still counts (bursts stay refused). */
  hit(rule: RateLimitRule, key: string, now: Date): Promise<RateLimitResult>
  /** Counts one hit on every (rule,key) pair; allowed only if all allow. Each pair counted once. */
  hitAll(hits: { rule: RateLimitRule; key: string }[], now: Date): Promise<RateLimitResult>
  close(): Promise<void>
  /** Shared limiters only: throws when their store (Redis) does not answer; for /readyz. */
  ping?(): Promise<void>
}

export const REDIS_KEY_PREFIX = 'keepsake:rl:'

/** One counter: a (rule, key) pair in the fixed window that `now` falls in. Both limiters use the same windows. */
type Counter = { rule: RateLimitRule; id: string; windowEndsAt: number }

function countersFor(hits: { rule: RateLimitRule; key: string }[], now: Date): Counter[] {
  const at = now.getTime()
  if (!Number.isFinite(at)) throw new TypeError('Rate limiter: now is not a valid date')
  const byId = new Map<string, Counter>()
  for (const { rule, key } of hits) {
    if (!Number.isInteger(rule.limit) || rule.limit < 0) throw new TypeError(`Rate limit ${rule.name}: limit must be a whole number ≥ 0`)
    if (!Number.isInteger(rule.windowMs) || rule.windowMs < 1) throw new TypeError(`Rate limit ${rule.name}: windowMs must be a whole number ≥ 1`)
    const window = Math.floor(at / rule.windowMs)
    const id = `${rule.name}:${key}:${window}`
    // Listing the same pair twice still counts it once.
    if (!byId.has(id)) byId.set(id, { rule, id, windowEndsAt: (window + 1) * rule.windowMs })
  }
  return [...byId.values()]
}

function resultOf(counters: Counter[], counts: number[], now: Date): RateLimitResult {
  let allowed = true
  let remaining = Number.POSITIVE_INFINITY
  let retryAfterMs = 0
  counters.forEach(({ rule, windowEndsAt }, i) => {
    const count = counts[i]!
    remaining = Math.min(remaining, Math.max(0, rule.limit - count))
    if (count > rule.limit) {
      allowed = false
      retryAfterMs = Math.max(retryAfterMs, windowEndsAt - now.getTime())
    }
  })
  return { allowed, remaining, retryAfterMs }
}

/** Fixed windows kept in this process; counters of finished windows are swept once the map grows past `sweepAbove`. */
export class MemoryRateLimiter implements RateLimiter {
  readonly #counts = new Map<string, { count: number; expiresAt: number }>()
  readonly #sweepAbove: number
  #nextSweepAt: number

  constructor(options: { sweepAbove?: number } = {}) {
    this.#sweepAbove = options.sweepAbove ?? 10_000
    this.#nextSweepAt = this.#sweepAbove
  }

  /** How many counters are held, for tests and diagnostics. */
  get size() {
    return this.#counts.size
  }

  async hit(rule: RateLimitRule, key: string, now: Date) {
    return this.hitAll([{ rule, key }], now)
  }

  async hitAll(hits: { rule: RateLimitRule; key: string }[], now: Date) {
    const counters = countersFor(hits, now)
    const counts = counters.map(({ id, windowEndsAt }) => {
      const entry = this.#counts.get(id)
      if (entry) return ++entry.count
      this.#counts.set(id, { count: 1, expiresAt: windowEndsAt })
      return 1
    })
    if (this.#counts.size > this.#nextSweepAt) this.#sweep(now.getTime())
    return resultOf(counters, counts, now)
  }

  #sweep(at: number) {
    for (const [id, { expiresAt }] of this.#counts) if (expiresAt <= at) this.#counts.delete(id)
    // When most counters are still live, wait for the map to double before the next full pass.
    this.#nextSweepAt = Math.max(this.#sweepAbove, this.#counts.size * 2)
  }

  async close() {
    this.#counts.clear()
  }
}

export type RedisClient = ReturnType<typeof createClient>

/**
 * One Redis connection shared by a limiter's calls: made on first use, forgotten when it fails so the
 * next use tries again, refusing at once while disconnected. `label` names the user in its messages.
 */
export class RedisConnection {
  readonly url: string
  readonly #label: string
  readonly #tag: string
  #client: Promise<RedisClient> | null = null
  #closed = false

  constructor(url: string, names: { label: string; logTag: string }) {
    this.url = url
    this.#label = names.label
    this.#tag = names.logTag
  }

  /** The URL without its password, for messages. */
  get where() {
    return redacted(this.url)
  }

  get closed() {
    return this.#closed
  }

  client(): Promise<RedisClient> {
    if (this.#closed) return Promise.reject(new Error(`${this.#label}: the Redis ${this.#label.toLowerCase()} is closed`))
    // A failed connection is forgotten so the next use tries again.
    this.#client ??= this.#connect().catch((error: unknown) => {
      this.#client = null
      throw error
    })
    return this.#client
  }

  async #connect(): Promise<RedisClient> {
    let everReady = false
    let outageReported = false
    let client: RedisClient
    try {
      client = createClient({
        url: this.url,
        // Refuse at once while disconnected rather than queueing commands until Redis returns.
        disableOfflineQueue: true,
        socket: {
          connectTimeout: 2_000,
          // The first connection fails the call; once connected, reconnect with a capped backoff.
          reconnectStrategy: (retries) => (everReady ? Math.min(50 * 2 ** retries, 2_000) : false),
        },
      })
    } catch (error) {
      throw new Error(`${this.#label}: REDIS_URL ${this.where} is not usable: ${messageOf(error)}`, { cause: error })
    }
    client.on('ready', () => {
      everReady = true
      outageReported = false
    })
    client.on('error', (error: unknown) => {
      // The first connection's failure rejects the call itself; later outages are logged once each.
      if (!everReady || outageReported) return
      outageReported = true
      console.warn(`[${this.#tag}] lost Redis at ${this.where}; reconnecting: ${messageOf(error)}`)
    })
    try {
      await client.connect()
    } catch (error) {
      client.destroy()
      throw new Error(`${this.#label}: cannot reach Redis at ${this.where}: ${messageOf(error)}`, { cause: error })
    }
    if (this.#closed) {
      client.destroy()
      throw new Error(`${this.#label}: the Redis ${this.#label.toLowerCase()} is closed`)
    }
    return client
  }

  /** Throws unless Redis answers PING. */
  async ping() {
    const answer = await (await this.client()).ping()
    if (answer !== 'PONG') throw new Error(`${this.#label}: Redis at ${this.where} answered ${answer} to PING`)
  }

  async close() {
    this.#closed = true
    const pending = this.#client
    this.#client = null
    const client = await pending?.catch(() => null)
    if (!client) return
    if (!client.isReady) return client.destroy()
    try {
      await client.close()
    } catch {
      client.destroy()
    }
  }
}

/** Fixed windows shared through Redis: one INCR + PEXPIRE NX per counter, all in one MULTI. Connects on the first hit. */
export class RedisRateLimiter implements RateLimiter {
  readonly #redis: RedisConnection

  constructor(url: string) {
    this.#redis = new RedisConnection(url, { label: 'Rate limiter', logTag: 'rate-limit' })
  }

  async hit(rule: RateLimitRule, key: string, now: Date) {
    return this.hitAll([{ rule, key }], now)
  }

  async hitAll(hits: { rule: RateLimitRule; key: string }[], now: Date) {
    const counters = countersFor(hits, now)
    if (counters.length === 0) return resultOf(counters, [], now)
    const client = await this.#redis.client()
    const transaction = client.multi()
    for (const { rule, id } of counters) transaction.incr(REDIS_KEY_PREFIX + id).pExpire(REDIS_KEY_PREFIX + id, rule.windowMs, 'NX')
    let replies: unknown[]
    try {
      replies = await transaction.exec()
    } catch (error) {
      throw new Error(`Rate limiter: Redis at ${this.#redis.where} did not answer: ${messageOf(error)}`, { cause: error })
    }
    return resultOf(
      counters,
      counters.map((_, i) => Number(replies[i * 2])),
      now,
    )
  }

  ping() {
    return this.#redis.ping()
  }

  close() {
    return this.#redis.close()
  }
}

export function messageOf(error: unknown): string {
  if (error instanceof AggregateError && error.errors.length > 0) return error.errors.map(messageOf).join('; ')
  return error instanceof Error ? error.message || error.name : String(error)
}

function redacted(url: string) {
  try {
    const parsed = new URL(url)
    if (parsed.password) parsed.password = '***'
    return parsed.toString()
  } catch {
    return 'the configured URL'
  }
}

export function rateLimiterFor(config: { redisUrl: string | null }): RateLimiter {
  return config.redisUrl ? new RedisRateLimiter(config.redisUrl) : new MemoryRateLimiter()
}

/** Counts the hits and throws `rate_limited` (429) when any rule refuses, saying when to try again. */
/** Counts the hits; past a limit, a 429 saying when to try again (`what` names what was tried: "Too many checkouts started"). */
export async function enforceRateLimits(
  limiter: RateLimiter,
  hits: { rule: RateLimitRule; key: string }[],
  now: Date,
  what = 'Too many attempts',
): Promise<void> {
  const result = await limiter.hitAll(hits, now)
  if (result.allowed) return
  throw new AppError('rate_limited', `${what}; try again in ${waitText(result.retryAfterMs)}`, undefined, result.retryAfterMs)
}

function waitText(ms: number) {
  if (ms < 60_000) {
    const seconds = Math.max(1, Math.ceil(ms / 1000))
    return `${seconds} ${seconds === 1 ? 'second' : 'seconds'}`
  }
  const minutes = Math.ceil(ms / 60_000)
  return `${minutes} ${minutes === 1 ? 'minute' : 'minutes'}`
}
