import { execFile } from 'node:child_process'
import { randomUUID } from 'node:crypto'
import path from 'node:path'
import { promisify } from 'node:util'
import fc from 'fast-check'
import { createClient } from 'redis'
import { afterAll, describe, expect, it, vi } from 'vitest'
import { AppError } from '../../app/api/errors'
import { MemoryRenderSlots, RedisRenderSlots, renderSlotsFor, withRenderSlot, type RenderSlots, type SlotHold } from '../../app/api/render-slot'
import { errorStatus } from '../../app/contract/errors'

// A database of its own on the shared Redis, and a prefix of this run's own, removed afterwards.
const REDIS_URL = 'redis://127.0.0.1:6379/13'
const prefix = `test-slot-${randomUUID().slice(0, 8)}:`
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

const opened: RenderSlots[] = []
function open<T extends RenderSlots>(slots: T): T {
  opened.push(slots)
  return slots
}
const redisSlots = () => open(new RedisRenderSlots(REDIS_URL, { prefix }))

afterAll(async () => {
  await Promise.all(opened.map((s) => s.close()))
  const client = await createClient({ url: REDIS_URL }).connect()
  try {
    for await (const keys of client.scanIterator({ MATCH: `${prefix}*`, COUNT: 100 })) if (keys.length > 0) await client.del(keys)
  } finally {
    client.destroy()
  }
})

let keys = 0
const key = () => `shopper-${++keys}`

const implementations: [string, () => RenderSlots][] = [
  ['MemoryRenderSlots', () => open(new MemoryRenderSlots())],
  ['RedisRenderSlots', redisSlots],
]

describe.each(implementations)('%s', (_name, create) => {
  const slots = create()

  it('gives a slot to one holder at a time, per key', async () => {
    const k = key()
    const first = await slots.acquire(k, 10_000)
    expect(first).not.toBeNull()
    expect(await slots.acquire(k, 10_000)).toBeNull()
    expect(await slots.acquire(key(), 10_000)).not.toBeNull()
    expect(await slots.release(first!)).toBe(true)
    expect(await slots.acquire(k, 10_000)).not.toBeNull()
  })

  it('of simultaneous attempts on one key, exactly one gets the slot', async () => {
    const k = key()
    const holds = await Promise.all(Array.from({ length: 20 }, () => slots.acquire(k, 10_000)))
    expect(holds.filter(Boolean)).toHaveLength(1)
  })

  it('releases only by the holder’s token', async () => {
    const k = key()
    const hold = await slots.acquire(k, 10_000)
    const forged: SlotHold = { key: k, token: randomUUID() }
    expect(await slots.release(forged)).toBe(false)
    expect(await slots.renew(forged, 10_000)).toBe(false)
    expect(await slots.acquire(k, 10_000)).toBeNull()
    expect(await slots.release(hold!)).toBe(true)
    // Released once; a second release finds nothing of its own.
    expect(await slots.release(hold!)).toBe(false)
  })

  it('frees a slot whose holder never released it once the lease runs out, and the late holder cannot free the next one', async () => {
    const k = key()
    const crashed = await slots.acquire(k, 300)
    expect(crashed).not.toBeNull()
    expect(await slots.acquire(k, 300)).toBeNull()
    await sleep(500)
    const next = await slots.acquire(k, 10_000)
    expect(next).not.toBeNull()
    expect(await slots.release(crashed!)).toBe(false)
    expect(await slots.renew(crashed!, 10_000)).toBe(false)
    expect(await slots.acquire(k, 10_000)).toBeNull()
    expect(await slots.release(next!)).toBe(true)
  })

  it('keeps the slot while its holder renews the lease', async () => {
    const k = key()
    const hold = await slots.acquire(k, 400)
    await sleep(250)
    expect(await slots.renew(hold!, 400)).toBe(true)
    await sleep(250)
    expect(await slots.renew(hold!, 400)).toBe(true)
    await sleep(250)
    // 750 ms after taking a 400 ms lease, still held.
    expect(await slots.acquire(k, 10_000)).toBeNull()
    expect(await slots.release(hold!)).toBe(true)
  })
})

describe('RedisRenderSlots', () => {
  it('two limiter instances (as two processes have) share the slot: the second holder is refused', async () => {
    const one = redisSlots()
    const two = redisSlots()
    const k = key()
    const held = await one.acquire(k, 10_000)
    expect(held).not.toBeNull()
    expect(await two.acquire(k, 10_000)).toBeNull()
    // The other instance cannot release it either: it does not have the token.
    expect(await two.release({ key: k, token: randomUUID() })).toBe(false)
    expect(await one.acquire(k, 10_000)).toBeNull()
    expect(await one.release(held!)).toBe(true)
    const taken = await two.acquire(k, 10_000)
    expect(taken).not.toBeNull()
    expect(await one.acquire(k, 10_000)).toBeNull()
    await two.release(taken!)
  })

  it('of simultaneous attempts from many instances, exactly one gets the slot', async () => {
    const instances = Array.from({ length: 8 }, redisSlots)
    const k = key()
    const holds = await Promise.all(instances.map((s) => s.acquire(k, 10_000)))
    expect(holds.filter(Boolean)).toHaveLength(1)
  })

  it('stores the token under the prefix with the lease as its expiry', async () => {
    const slots = redisSlots()
    const client = await createClient({ url: REDIS_URL }).connect()
    try {
      const k = key()
      const hold = await slots.acquire(k, 5_000)
      expect(await client.get(`${prefix}${k}`)).toBe(hold!.token)
      const ttl = await client.pTTL(`${prefix}${k}`)
      expect(ttl).toBeGreaterThan(0)
      expect(ttl).toBeLessThanOrEqual(5_000)
      await slots.renew(hold!, 60_000)
      expect(await client.pTTL(`${prefix}${k}`)).toBeGreaterThan(5_000)
      await slots.release(hold!)
      expect(await client.exists(`${prefix}${k}`)).toBe(0)
    } finally {
      client.destroy()
    }
  })

  it('keeps one prefix’s slots apart from another’s on the same Redis', async () => {
    const k = key()
    const ours = redisSlots()
    const theirs = open(new RedisRenderSlots(REDIS_URL, { prefix: `${prefix}other:` }))
    const held = await ours.acquire(k, 10_000)
    expect(held).not.toBeNull()
    expect(await theirs.acquire(k, 10_000)).not.toBeNull()
    expect(await ours.acquire(k, 10_000)).toBeNull()
  })

  it('a process that dies holding a slot blocks it only until its lease runs out', async () => {
    const k = key()
    const module = path.resolve(import.meta.dirname, '../../app/api/render-slot.ts')
    // The child takes the slot and exits at once, without releasing it or closing its connection.
    const script = `
      const { RedisRenderSlots } = await import(${JSON.stringify(module)})
      const slots = new RedisRenderSlots(${JSON.stringify(REDIS_URL)}, { prefix: ${JSON.stringify(prefix)} })
      const hold = await slots.acquire(${JSON.stringify(k)}, 3000)
      console.log(JSON.stringify({ held: hold !== null }))
      process.exit(0)
    `
    const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
      cwd: path.resolve(import.meta.dirname, '../..'),
      timeout: 15_000,
    })
    expect(JSON.parse(stdout)).toEqual({ held: true })
    const slots = redisSlots()
    expect(await slots.acquire(k, 10_000)).toBeNull()
    await vi.waitFor(async () => expect(await slots.acquire(k, 10_000)).not.toBeNull(), { timeout: 8_000, interval: 100 })
  })

  it('falls back to this instance’s own slots while Redis cannot be reached, and says so once', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined)
    const slots = open(new RedisRenderSlots('redis://127.0.0.1:1', { prefix }))
    try {
      const k = key()
      const hold = await slots.acquire(k, 10_000)
      expect(hold).not.toBeNull()
      expect(await slots.acquire(k, 10_000)).toBeNull()
      expect(await slots.renew(hold!, 10_000)).toBe(true)
      expect(await slots.release(hold!)).toBe(true)
      expect(await slots.acquire(k, 10_000)).not.toBeNull()
      expect(warn).toHaveBeenCalledTimes(1)
      expect(String(warn.mock.calls[0]![0])).toMatch(/Redis at redis:\/\/127\.0\.0\.1:1 is unreachable; render slots are per instance/)
    } finally {
      warn.mockRestore()
    }
  })

  it('refuses to hand out slots after close()', async () => {
    const slots = new RedisRenderSlots(REDIS_URL, { prefix })
    await slots.acquire(key(), 1_000)
    await slots.close()
    await expect(slots.acquire(key(), 1_000)).rejects.toThrow(/closed/)
  })
})

describe('withRenderSlot', () => {
  it.each(implementations)('refuses a second preview by the same shopper with 429 and no Retry-After (%s)', async (_name, create) => {
    const slots = create()
    const shopper = randomUUID()
    let finish!: () => void
    const first = withRenderSlot(slots, shopper, () => new Promise<string>((resolve) => (finish = () => resolve('made'))))
    await vi.waitFor(() => expect(finish).toBeTypeOf('function'))
    const error = await withRenderSlot(slots, shopper, async () => 'second').catch((e: unknown) => e)
    expect(error).toBeInstanceOf(AppError)
    expect((error as AppError).code).toBe('rate_limited')
    expect(errorStatus[(error as AppError).code]).toBe(429)
    expect((error as AppError).message).toBe('A preview is already being made for you; wait for it to finish')
    expect((error as AppError).retryAfterMs).toBeUndefined()
    // Another shopper is not held up.
    await expect(withRenderSlot(slots, randomUUID(), async () => 'other')).resolves.toBe('other')
    finish()
    await expect(first).resolves.toBe('made')
    await expect(withRenderSlot(slots, shopper, async () => 'again')).resolves.toBe('again')
  })

  it('frees the slot when the render fails', async () => {
    const slots = redisSlots()
    const shopper = randomUUID()
    await expect(withRenderSlot(slots, shopper, async () => Promise.reject(new Error('sharp failed')))).rejects.toThrow('sharp failed')
    await expect(withRenderSlot(slots, shopper, async () => 'made')).resolves.toBe('made')
  })

  it('renews the lease while a render outlasts it, so another instance stays refused', async () => {
    const one = redisSlots()
    const two = redisSlots()
    const shopper = randomUUID()
    const render = withRenderSlot(one, shopper, () => sleep(1_500).then(() => 'made'), 300)
    await sleep(1_000)
    // More than three leases later the render still holds the slot.
    await expect(withRenderSlot(two, shopper, async () => 'second', 300)).rejects.toThrow(/already being made/)
    await expect(render).resolves.toBe('made')
    await expect(withRenderSlot(two, shopper, async () => 'after', 300)).resolves.toBe('after')
  })
})

describe('renderSlotsFor', () => {
  // The store's own slots (the default prefix) are used here: each test's key is a fresh UUID, released at its end.
  it('with REDIS_URL, two instances of the store share one shopper’s slot', async () => {
    const one = open(renderSlotsFor({ redisUrl: REDIS_URL }))
    const two = open(renderSlotsFor({ redisUrl: REDIS_URL }))
    const k = `test-${randomUUID()}`
    const held = await one.acquire(k, 10_000)
    expect(held).not.toBeNull()
    expect(await two.acquire(k, 10_000)).toBeNull()
    expect(await one.release(held!)).toBe(true)
    const taken = await two.acquire(k, 10_000)
    expect(taken).not.toBeNull()
    expect(await one.acquire(k, 10_000)).toBeNull()
    expect(await two.release(taken!)).toBe(true)
  })

  it('without REDIS_URL, each instance keeps its own slots', async () => {
    const one = open(renderSlotsFor({ redisUrl: null }))
    const two = open(renderSlotsFor({ redisUrl: null }))
    const k = key()
    expect(await one.acquire(k, 10_000)).not.toBeNull()
    expect(await one.acquire(k, 10_000)).toBeNull()
    expect(await two.acquire(k, 10_000)).not.toBeNull()
  })
})

/**
 * MemoryRenderSlots against a model of the rule, on a clock the test moves: any sequence of takes, renewals,
 * releases and time passing. A slot is held by the last hold that took it while its lease (from its last take or
 * renewal) has not run out and it has not released it; only that hold may renew or release it.
 */
describe('MemoryRenderSlots, any sequence of calls', () => {
  type Step =
    { op: 'acquire'; key: number; lease: number } | { op: 'renew'; hold: number; lease: number } | { op: 'release'; hold: number } | { op: 'wait'; ms: number }
  const lease = fc.integer({ min: 1, max: 100 })
  const step: fc.Arbitrary<Step> = fc.oneof(
    fc.record({ op: fc.constant('acquire' as const), key: fc.integer({ min: 0, max: 2 }), lease }),
    fc.record({ op: fc.constant('renew' as const), hold: fc.nat(), lease }),
    fc.record({ op: fc.constant('release' as const), hold: fc.nat() }),
    fc.record({ op: fc.constant('wait' as const), ms: fc.integer({ min: 0, max: 120 }) }),
  )

  it('answers as the model does', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(step, { maxLength: 60 }), async (steps) => {
        let now = 0
        const slots = new MemoryRenderSlots({ now: () => now })
        const holds: { hold: SlotHold; key: string; until: number; released: boolean }[] = []
        const holding = (h: (typeof holds)[number]) => !h.released && h.until > now && holds.findLast((o) => o.key === h.key) === h
        for (const s of steps) {
          if (s.op === 'wait') {
            now += s.ms
          } else if (s.op === 'acquire') {
            const k = `k${s.key}`
            const free = !holds.some((h) => h.key === k && holding(h))
            const hold = await slots.acquire(k, s.lease)
            expect(hold !== null, `take ${k} at ${now}`).toBe(free)
            if (hold) holds.push({ hold, key: k, until: now + s.lease, released: false })
          } else if (holds.length > 0) {
            const h = holds[s.hold % holds.length]!
            const mine = holding(h)
            if (s.op === 'renew') {
              expect(await slots.renew(h.hold, s.lease), `renew at ${now}`).toBe(mine)
              if (mine) h.until = now + s.lease
            } else {
              expect(await slots.release(h.hold), `release at ${now}`).toBe(mine)
              if (mine) h.released = true
            }
          }
        }
        // However it got there, a key is refused to a newcomer exactly while the model says it is held.
        for (const k of ['k0', 'k1', 'k2']) {
          const held = holds.some((h) => h.key === k && holding(h))
          expect((await slots.acquire(k, 1)) === null, `${k} at the end, at ${now}`).toBe(held)
        }
      }),
      { numRuns: 300 },
    )
  })
})
