import { randomUUID } from 'node:crypto'
import { AppError } from './errors'
import { messageOf, RedisConnection } from './rate-limit'

/**
 * Slots one holder at a time may have: "one preview render per shopper at a time" (issue 18). In-process
 * by default and shared through Redis when REDIS_URL is set, chosen like the rate limiter, so the rule
 * holds across every instance of the store. A slot is leased: a holder that dies frees it when its lease
 * runs out, and only the holder's token can renew or release it. See docs/decisions/031.
 */

export type SlotHold = { readonly key: string; readonly token: string }

export interface RenderSlots {
  /** Takes `key`'s slot for `leaseMs`; null while another holder's lease on it runs. */
  acquire(key: string, leaseMs: number): Promise<SlotHold | null>
  /** Pushes the lease on; false when the slot is no longer this hold's (its lease ran out, or it was released). Never throws. */
  renew(hold: SlotHold, leaseMs: number): Promise<boolean>
  /** Frees the slot if this hold still has it; a holder whose lease ran out never frees the next holder's slot. Never throws. */
  release(hold: SlotHold): Promise<boolean>
  close(): Promise<void>
}

const REDIS_SLOT_PREFIX = 'keepsake:slot:'

/** A render takes seconds; the lease is renewed every third of it while the render runs, so this only bounds how long a crashed holder blocks. */
export const RENDER_SLOT_LEASE_MS = 30_000

function assertLease(leaseMs: number) {
  if (!Number.isInteger(leaseMs) || leaseMs < 1) throw new TypeError('Render slot: leaseMs must be a whole number ≥ 1')
}

/** Slots of this process only: right for one instance (the embedded database is one process anyway). */
export class MemoryRenderSlots implements RenderSlots {
  readonly #held = new Map<string, { token: string; expiresAt: number }>()
  readonly #now: () => number

  constructor(options: { now?: () => number } = {}) {
    this.#now = options.now ?? Date.now
  }

  /** How many slots are held, for tests and diagnostics. */
  get size() {
    return this.#held.size
  }

  async acquire(key: string, leaseMs: number) {
    assertLease(leaseMs)
    const now = this.#now()
    const current = this.#held.get(key)
    if (current && current.expiresAt > now) return null
    const hold = { key, token: randomUUID() }
    this.#held.set(key, { token: hold.token, expiresAt: now + leaseMs })
    return hold
  }

  async renew(hold: SlotHold, leaseMs: number) {
    assertLease(leaseMs)
    const current = this.#held.get(hold.key)
    const now = this.#now()
    if (!current || current.token !== hold.token || current.expiresAt <= now) return false
    current.expiresAt = now + leaseMs
    return true
  }

  async release(hold: SlotHold) {
    const current = this.#held.get(hold.key)
    if (!current || current.token !== hold.token) return false
    this.#held.delete(hold.key)
    return current.expiresAt > this.#now()
  }

  async close() {
    this.#held.clear()
  }
}

// Compare-and-act on the token, atomically: a holder whose lease ran out must not touch the next holder's slot.
const RELEASE = `if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) else return 0 end`
const RENEW = `if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('PEXPIRE', KEYS[1], ARGV[2]) else return 0 end`

/**
 * Slots shared through Redis: SET key token NX PX lease; renew and release compare the token in Lua.
 * If Redis cannot be reached, slots fall back to this process's own (logged once per outage): the
 * preview is the way to the cart, and a per-instance limit is what the store had before (decision 031).
 */
export class RedisRenderSlots implements RenderSlots {
  readonly #redis: RedisConnection
  readonly #prefix: string
  readonly #fallback = new MemoryRenderSlots()
  readonly #local = new WeakSet<SlotHold>()
  #outage = false

  constructor(url: string, options: { prefix?: string } = {}) {
    this.#redis = new RedisConnection(url, { label: 'Render slot', logTag: 'render-slot' })
    this.#prefix = options.prefix ?? REDIS_SLOT_PREFIX
  }

  async acquire(key: string, leaseMs: number) {
    assertLease(leaseMs)
    if (this.#redis.closed) throw new Error('Render slot: the Redis render slot is closed')
    const hold = { key, token: randomUUID() }
    let answer: string | null
    try {
      const client = await this.#redis.client()
      answer = await client.set(this.#prefix + key, hold.token, { condition: 'NX', expiration: { type: 'PX', value: leaseMs } })
    } catch (error) {
      if (this.#redis.closed) throw error
      if (!this.#outage)
        console.warn(`[render-slot] Redis at ${this.#redis.where} is unreachable; render slots are per instance until it answers: ${messageOf(error)}`)
      this.#outage = true
      const local = await this.#fallback.acquire(key, leaseMs)
      if (local) this.#local.add(local)
      return local
    }
    this.#outage = false
    return answer === 'OK' ? hold : null
  }

  async renew(hold: SlotHold, leaseMs: number) {
    assertLease(leaseMs)
    if (this.#local.has(hold)) return this.#fallback.renew(hold, leaseMs)
    return (await this.#compareAnd(RENEW, hold, [String(leaseMs)])) === 1
  }

  async release(hold: SlotHold) {
    if (this.#local.has(hold)) return this.#fallback.release(hold)
    return (await this.#compareAnd(RELEASE, hold, [])) === 1
  }

  async #compareAnd(script: string, hold: SlotHold, extra: string[]) {
    try {
      const client = await this.#redis.client()
      return Number(await client.eval(script, { keys: [this.#prefix + hold.key], arguments: [hold.token, ...extra] }))
    } catch (error) {
      // The lease frees the slot by itself; a lost renewal or release only makes the shopper wait for it.
      console.warn(`[render-slot] Redis at ${this.#redis.where} did not answer for ${hold.key}; its lease will free it: ${messageOf(error)}`)
      return 0
    }
  }

  async close() {
    await Promise.all([this.#redis.close(), this.#fallback.close()])
  }
}

export function renderSlotsFor(config: { redisUrl: string | null }): RenderSlots {
  return config.redisUrl ? new RedisRenderSlots(config.redisUrl) : new MemoryRenderSlots()
}

/**
 * Runs `work` holding the shopper's preview slot, renewing its lease while the work runs; a second
 * preview by the same shopper meanwhile, on this instance or any other, is refused with 429.
 */
export async function withRenderSlot<T>(slots: RenderSlots, shopperId: string, work: () => Promise<T>, leaseMs = RENDER_SLOT_LEASE_MS): Promise<T> {
  const hold = await slots.acquire(`preview:${shopperId}`, leaseMs)
  if (!hold) throw new AppError('rate_limited', 'A preview is already being made for you; wait for it to finish')
  const heartbeat = setInterval(() => void slots.renew(hold, leaseMs), Math.max(1, Math.floor(leaseMs / 3)))
  heartbeat.unref()
  try {
    return await work()
  } finally {
    clearInterval(heartbeat)
    await slots.release(hold)
  }
}
