import { createClient } from 'redis'
import { AppError, dependencyUnavailable } from './errors'

/** ARCHITECTURE.md: rate limits are in-process by default and shared through Redis when REDIS_URL is set. */

/**
 * `whenStoreDown` (decision 075): what a shared limit does while Redis is down or hung. `open` counts in this process
 * meanwhile (the same limit and window, per process); `closed` refuses with 503 and Retry-After (money-like limits,
 * where a guessed code is worth something).
 */
export type RateLimitRule = { name: string; limit: number; windowMs: number; whenStoreDown: 'open' | 'closed' }
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
    if (rule.whenStoreDown !== 'open' && rule.whenStoreDown !== 'closed')
      throw new TypeError(`Rate limit ${rule.name}: whenStoreDown must be 'open' or 'closed'`)
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

/** The default of REDIS_COMMAND_TIMEOUT_MS (app.config.ts): a hit that Redis has not answered in this long is taken as Redis down. */
export const REDIS_COMMAND_TIMEOUT_MS = 500

/** Redis did not answer in time, or could not be reached: the store of a shared limit is down. */
class RateLimitStoreDown extends Error {
  constructor(message: string, cause?: unknown) {
    super(message, { cause })
    this.name = 'RateLimitStoreDown'
  }
}

/**
 * Fixed windows shared through Redis: one INCR + PEXPIRE NX per counter, all in one MULTI. Connects on the first hit.
 * A hit Redis does not answer within `commandTimeoutMs` (refused, gone, hung) is decided by its rules' `whenStoreDown`
 * (decision 075): all open, it is counted in this process meanwhile; any closed, it is refused with 503.
 */
export class RedisRateLimiter implements RateLimiter {
  readonly #redis: RedisConnection
  readonly #commandTimeoutMs: number
  /** Counts hits of `open` rules while Redis is down: the same windows and limits, per process. */
  readonly #meanwhile = new MemoryRateLimiter()
  #outageReported = false

  constructor(url: string, options: { commandTimeoutMs?: number } = {}) {
    this.#redis = new RedisConnection(url, { label: 'Rate limiter', logTag: 'rate-limit' })
    this.#commandTimeoutMs = options.commandTimeoutMs ?? REDIS_COMMAND_TIMEOUT_MS
  }

  async hit(rule: RateLimitRule, key: string, now: Date) {
    return this.hitAll([{ rule, key }], now)
  }

  async hitAll(hits: { rule: RateLimitRule; key: string }[], now: Date) {
    const counters = countersFor(hits, now)
    if (counters.length === 0) return resultOf(counters, [], now)
    let replies: unknown[]
    try {
      replies = await this.#withinDeadline(async () => {
        const client = await this.#redis.client()
        const transaction = client.multi()
        for (const { rule, id } of counters) transaction.incr(REDIS_KEY_PREFIX + id).pExpire(REDIS_KEY_PREFIX + id, rule.windowMs, 'NX')
        try {
          return await transaction.exec()
        } catch (error) {
          throw new RateLimitStoreDown(`Rate limiter: Redis at ${this.#redis.where} did not answer: ${messageOf(error)}`, error)
        }
      })
    } catch (error) {
      if (this.#redis.closed) throw error
      return this.#whileStoreDown(hits, now, error)
    }
    this.#outageReported = false
    return resultOf(
      counters,
      counters.map((_, i) => Number(replies[i * 2])),
      now,
    )
  }

  /** Decision 075: any closed rule refuses (503, Retry-After); otherwise this process counts the hit meanwhile. */
  async #whileStoreDown(hits: { rule: RateLimitRule; key: string }[], now: Date, error: unknown) {
    if (!this.#outageReported) {
      this.#outageReported = true
      console.warn(
        `[rate-limit] Redis at ${this.#redis.where} is not answering; open limits count in this process meanwhile, closed ones answer 503: ${messageOf(error)}`,
      )
    }
    if (hits.some(({ rule }) => rule.whenStoreDown === 'closed')) throw Object.assign(dependencyUnavailable('The rate limiter'), { cause: error })
    return this.#meanwhile.hitAll(hits, now)
  }

  /** Runs `ask`, failing with RateLimitStoreDown if it has not finished within the command deadline (REDIS_COMMAND_TIMEOUT_MS). */
  async #withinDeadline<T>(ask: () => Promise<T>): Promise<T> {
    let timer: NodeJS.Timeout | undefined
    const deadline = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(new RateLimitStoreDown(`Rate limiter: Redis at ${this.#redis.where} did not answer within ${this.#commandTimeoutMs} ms`)),
        this.#commandTimeoutMs,
      )
      timer.unref()
    })
    const work = ask()
    // A reply that comes after the deadline is dropped (the hit was already decided without it).
    work.catch(() => undefined)
    try {
      return await Promise.race([work, deadline])
    } finally {
      clearTimeout(timer)
    }
  }

  ping() {
    return this.#withinDeadline(() => this.#redis.ping())
  }

  async close() {
    await this.#meanwhile.close()
    await this.#redis.close()
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

export function rateLimiterFor(config: { redisUrl: string | null; redisCommandTimeoutMs: number }): RateLimiter {
  return config.redisUrl ? new RedisRateLimiter(config.redisUrl, { commandTimeoutMs: config.redisCommandTimeoutMs }) : new MemoryRateLimiter()
}

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
