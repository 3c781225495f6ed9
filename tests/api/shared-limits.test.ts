import { randomUUID } from 'node:crypto'
import { createClient } from 'redis'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createApi } from '../../app/api/app'
import { withClientAddress } from '../../app/api/client-address'
import { demoAccounts } from '../../app/api/demo/accounts'
import { MemoryRenderSlots, RedisRenderSlots, type RenderSlots } from '../../app/api/render-slot'
import type { ObjectStorage } from '../../app/api/storage/storage'
import { pseudoTemplates } from '../../app/catalogue/ornaments'
import { addAlbumPhotos } from '../support/photos'
import { TEST_ORIGIN, createTestApi, type TestApi } from '../support/test-api'

// Issue 18: "one preview render per shopper at a time" must hold across instances of the store, not only within one.
const REDIS_URL = 'redis://127.0.0.1:6379/13'
const prefix = `test-shared-limits-${randomUUID().slice(0, 8)}:`
/** Large enough to print in a cell. */
const PRINTABLE = { width: 480, height: 360 }

let t: TestApi
let cookie: string
let design: Record<string, unknown>
const toClose: RenderSlots[] = []

beforeAll(async () => {
  t = await createTestApi()
  cookie = await t.signIn(0)
  const photos = await addAlbumPhotos(t, demoAccounts[0].family.id, 2, undefined, PRINTABLE)
  design = {
    variantId: 72965,
    pseudoTemplateId: pseudoTemplates.star.id,
    backSideId: '72965-3',
    cells: photos.map((p, i) => ({ cellId: i === 0 ? 'star-left' : 'star-right', photoId: p.id, transform: { x: 0, y: 0, zoom: 1, rotation: 0 } })),
  }
})

afterAll(async () => {
  await Promise.all(toClose.map((s) => s.close()))
  const client = await createClient({ url: REDIS_URL }).connect()
  try {
    for await (const keys of client.scanIterator({ MATCH: `${prefix}*`, COUNT: 100 })) if (keys.length > 0) await client.del(keys)
  } finally {
    client.destroy()
  }
  await t.close()
})

const sharedSlots = () => {
  const slots = new RedisRenderSlots(REDIS_URL, { prefix })
  toClose.push(slots)
  return slots
}

/** Storage whose reads wait at a gate: a render that reaches its photos holds its slot until the test opens it. */
function gatedStorage(storage: ObjectStorage) {
  let entered!: () => void
  let open!: () => void
  const inside = new Promise<void>((resolve) => (entered = resolve))
  const gate = new Promise<void>((resolve) => (open = resolve))
  const gated = new Proxy(storage, {
    get(target, property) {
      if (property === 'get') {
        return async (key: string, maxBytes?: number) => {
          entered()
          await gate
          return target.get(key, maxBytes)
        }
      }
      const value = Reflect.get(target, property, target) as unknown
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value
    },
  })
  return { storage: gated, inside, open }
}

/** Another instance of the store: its own API and render slots, on the same database and storage. */
function instance({ renderSlots, storage = t.storage }: { renderSlots?: RenderSlots; storage?: ObjectStorage }) {
  const api = createApi({ db: t.db, config: t.config, storage, now: t.now, renderSlots })
  if (!renderSlots) toClose.push(api.deps.renderSlots)
  return async function preview() {
    const response = await withClientAddress('203.0.113.1', () =>
      api.fetch(
        new Request(`${TEST_ORIGIN}/v1/printify/generate-preview`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', cookie },
          body: JSON.stringify(design),
        }),
      ),
    )
    return { status: response.status, headers: response.headers, body: (await response.json()) as any }
  }
}

describe('one preview render per shopper at a time', () => {
  it('holds on one instance: a second preview while the first renders is refused with 429', async () => {
    const gated = gatedStorage(t.storage)
    const preview = instance({ storage: gated.storage })
    const first = preview()
    await gated.inside
    const second = await preview()
    expect(second.status).toBe(429)
    expect(second.body.error).toMatchObject({ code: 'rate_limited', message: 'A preview is already being made for you; wait for it to finish' })
    expect(second.headers.get('retry-after')).toBeNull()
    gated.open()
    expect((await first).status).toBe(201)
  })

  it('holds across two instances sharing one Redis: one on each → one 201 and one 429', async () => {
    const gated = gatedStorage(t.storage)
    const onOne = instance({ renderSlots: sharedSlots(), storage: gated.storage })
    const onTwo = instance({ renderSlots: sharedSlots() })
    const first = onOne()
    await gated.inside
    const second = await onTwo()
    expect(second.status).toBe(429)
    expect(second.body.error).toMatchObject({ code: 'rate_limited', message: 'A preview is already being made for you; wait for it to finish' })
    expect(second.headers.get('retry-after')).toBeNull()
    gated.open()
    const made = await first
    expect(made.status).toBe(201)
    expect(made.body.previewId).toEqual(expect.any(String))
    // The first render's slot is released, so the other instance may render now.
    expect((await onTwo()).status).toBe(201)
  })

  it('does not hold across instances with slots of their own (why REDIS_URL is needed for several)', async () => {
    const gated = gatedStorage(t.storage)
    const onOne = instance({ renderSlots: new MemoryRenderSlots(), storage: gated.storage })
    const onTwo = instance({ renderSlots: new MemoryRenderSlots() })
    const first = onOne()
    await gated.inside
    expect((await onTwo()).status).toBe(201)
    gated.open()
    expect((await first).status).toBe(201)
  })

  it('createApi takes its render slots from REDIS_URL like the rate limiter', async () => {
    expect(createApi({ db: t.db, config: t.config, storage: t.storage, now: t.now }).deps.renderSlots).toBeInstanceOf(MemoryRenderSlots)
    const api = createApi({ db: t.db, config: { ...t.config, redisUrl: REDIS_URL }, storage: t.storage, now: t.now })
    try {
      expect(api.deps.renderSlots).toBeInstanceOf(RedisRenderSlots)
    } finally {
      await Promise.all([api.deps.renderSlots.close(), api.deps.rateLimiter.close()])
    }
  })
})
