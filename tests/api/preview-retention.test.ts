import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { eq, inArray } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { cartItems, carts, checkoutSessions, jobs, orders, previews } from '../../app/api/db/schema'
import { jobHandlers, scheduleRecurringJobs } from '../../app/api/services/handlers'
import { drainJobs } from '../../app/api/services/jobs'
import { PREVIEW_RETENTION_DAYS, prunePreviews, previewRetentionKey } from '../../app/api/services/preview-retention'
import { previewFiles, previewKey } from '../../app/api/services/previews'
import { designHashOf, PRINT_POSITIONS, printFileKey } from '../../app/api/services/print-files'
import { cartItemFor, recordPreview } from '../support/cart'
import { createTestApi, type TestApi } from '../support/test-api'

/** Old previews that never reached an order go, rows and files, on local disk and in S3; previews anyone may still print stay. */

const DAY_MS = 24 * 3600_000
const address = {
  name: 'Maya Rivera',
  email: 'maya@example.com',
  phone: '212 555 0100',
  line1: '12 Orchard Street',
  city: 'New York',
  state: 'NY',
  postalCode: '10002',
  country: 'US' as const,
}

/** The files kept beside a preview (its mockups and source crops); its print files are its design's, under the design's hash. */
const besidePreview = previewFiles.filter((file) => file !== 'front.png' && file !== 'back.png')

/**
 * A preview with all of its files stored: its mockups and source crops beside it, and its design's print files under
 * the design's hash (as generate-preview, the crops' first requests and the cart's print-file job leave them). Given
 * `sameDesignAs`, it is another preview of that design, so the two share their print files.
 */
async function storedPreview(t: TestApi, userId: string, shape: 'star' | 'tree' | 'stocking' = 'star', sameDesignAs?: { row: typeof previews.$inferSelect }) {
  const preview = await recordPreview(t, userId, shape)
  const [recorded] = await t.db.select().from(previews).where(eq(previews.id, preview.id))
  // Its own design, or `sameDesignAs`'s: the same ornament, back side, photos as placed, and line.
  const { variantId, pseudoTemplateId, backSideId, design, text } = sameDesignAs?.row ?? recorded!
  const designed = { variantId, pseudoTemplateId, backSideId, design, text }
  const designHash = designHashOf(designed)
  const [row] = await t.db
    .update(previews)
    .set({ ...designed, designHash })
    .where(eq(previews.id, preview.id))
    .returning()
  // It has a design hash now: the placeholder print files recordPreview kept beside it (a pre-hash preview's place) go.
  for (const position of PRINT_POSITIONS) await t.storage.delete(printFileKey({ id: preview.id, designHash: null }, position))
  for (const file of besidePreview) await t.storage.put(previewKey(preview.id, file), Buffer.from(`${file} of ${preview.id}`), 'application/octet-stream')
  for (const position of PRINT_POSITIONS) await t.storage.put(printFileKey(row!, position), Buffer.from(`${position} of ${designHash}`), 'image/png')
  return { ...preview, row: row! }
}

/** How many of the files a preview may have beside it (legacy print files included) are still stored. */
const filesBeside = async (t: TestApi, id: string) =>
  (await Promise.all(previewFiles.map((file) => t.storage.get(previewKey(id, file))))).filter(Boolean).length
/** How many of a preview's design's print files are still stored. */
const printFilesOf = async (t: TestApi, preview: { row: Parameters<typeof printFileKey>[0] }) =>
  (await Promise.all(PRINT_POSITIONS.map((position) => t.storage.get(printFileKey(preview.row, position))))).filter(Boolean).length

/** Just enough of S3 (path-style PUT, GET, HEAD, DELETE) for the real S3 adapter to store and delete preview files over HTTP. */
function fakeS3() {
  const objects = new Map<string, { body: Buffer; type: string }>()
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => {
      const key = decodeURIComponent(new URL(req.url!, 'http://s3').pathname)
      const object = objects.get(key)
      if (req.method === 'PUT') {
        objects.set(key, { body: Buffer.concat(chunks), type: req.headers['content-type'] ?? 'application/octet-stream' })
        return res.writeHead(200, { etag: '"x"' }).end()
      }
      if (req.method === 'DELETE') {
        objects.delete(key)
        return res.writeHead(204).end()
      }
      if (!object) {
        const missing = '<?xml version="1.0"?><Error><Code>NoSuchKey</Code><Message>The specified key does not exist.</Message></Error>'
        return res.writeHead(404, { 'content-type': 'application/xml' }).end(req.method === 'HEAD' ? undefined : missing)
      }
      res.writeHead(200, { 'content-type': object.type, 'content-length': object.body.length })
      res.end(req.method === 'HEAD' ? undefined : object.body)
    })
  })
  return { server, objects }
}

let s3: ReturnType<typeof fakeS3>
let s3Endpoint: string
beforeAll(async () => {
  s3 = fakeS3()
  await new Promise<void>((resolve) => s3.server.listen(0, '127.0.0.1', resolve))
  s3Endpoint = `http://127.0.0.1:${(s3.server.address() as AddressInfo).port}`
})
afterAll(() => new Promise<void>((resolve) => s3.server.close(() => resolve())))

const storages = [
  { name: 'local disk', env: (): Record<string, string> => ({}) },
  {
    name: 'S3',
    env: (): Record<string, string> => ({
      S3_BUCKET: 'photos',
      S3_ENDPOINT: s3Endpoint,
      S3_ACCESS_KEY_ID: 'AKIDEXAMPLE',
      S3_SECRET_ACCESS_KEY: 'secret-example',
    }),
  },
]

describe.each(storages)('preview retention on $name', ({ env }) => {
  let t: TestApi
  let start: Date
  beforeAll(async () => {
    t = await createTestApi(env())
    start = t.now()
  })
  afterAll(() => t.close())

  const as = (cookie: string) => ({
    add: (preview: Awaited<ReturnType<typeof recordPreview>>) =>
      t.request('/v1/photo-products-cart/items', { method: 'POST', json: cartItemFor(preview), cookie }),
    checkout: () => t.request('/v1/photo-products-cart/checkout-session', { method: 'POST', cookie }),
    pay: (id: string) =>
      t.request(`/v1/checkout/local/${id}/pay`, { method: 'POST', json: { cardNumber: '4242424242424242', shippingAddress: address }, cookie }),
    abandon: () => t.request('/v1/photo-products-cart/abandon', { method: 'PATCH', cookie }),
  })

  const rowsLeft = async (ids: string[]) => new Set((await t.db.select({ id: previews.id }).from(previews).where(inArray(previews.id, ids))).map((r) => r.id))

  it('deletes old unordered previews’ rows and files and keeps ordered, carted, checking-out and recent ones, and the print files of designs still kept', async () => {
    const maya = await t.signIn(0)
    const sam = await t.signIn(1)
    const guest = await t.signInGuest()
    const [mayaId, samId] = [t.users[0].id, t.users[1].id]

    const unordered = await storedPreview(t, mayaId)
    const unorderedToo = await storedPreview(t, samId, 'tree')
    // Ordered, and its checked-out cart line removed afterwards: the order alone keeps it.
    const ordered = await storedPreview(t, mayaId, 'tree')
    // An old unordered preview of the ordered design: it goes, and the print files it shares with the ordered one stay.
    const sameAsOrdered = await storedPreview(t, mayaId, 'tree', ordered)
    expect(sameAsOrdered.row.designHash).toBe(ordered.row.designHash)
    expect((await as(maya).add(ordered)).status).toBe(201)
    const paid = await as(maya).checkout()
    expect((await as(maya).pay(paid.body.id)).status).toBe(200)
    await t.db.delete(cartItems).where(eq(cartItems.previewId, ordered.id))
    expect(await t.db.select().from(orders)).toHaveLength(1)
    // In an active cart.
    const carted = await storedPreview(t, mayaId, 'stocking')
    expect((await as(maya).add(carted)).status).toBe(201)
    // In an abandoned cart: the shopper may still resume it.
    const abandoned = await storedPreview(t, guest.user.id)
    expect((await as(guest.cookie).add(abandoned)).status).toBe(201)
    expect((await as(guest.cookie).abandon()).status).toBe(200)
    // Named only by an open checkout session (its line was removed): the session may still be paid.
    const checkingOut = await storedPreview(t, samId)
    expect((await as(sam).add(checkingOut)).status).toBe(201)
    expect((await as(sam).checkout()).status).toBe(201)
    await t.db.delete(cartItems).where(eq(cartItems.previewId, checkingOut.id))

    // A month and a day later, one preview more is made: it is recent.
    t.setNow(new Date(start.getTime() + (PREVIEW_RETENTION_DAYS + 1) * DAY_MS))
    const recent = await storedPreview(t, mayaId)
    try {
      await scheduleRecurringJobs(t.api.deps)
      await scheduleRecurringJobs(t.api.deps)
      const outcomes = await drainJobs(t.api.deps, jobHandlers)
      expect(outcomes.filter((o) => o.kind === 'prune-previews')).toEqual([expect.objectContaining({ outcome: 'done' })])
      expect(outcomes.filter((o) => o.kind === 'delete-preview-files')).toEqual([expect.objectContaining({ outcome: 'done' })])

      const all = [unordered, unorderedToo, sameAsOrdered, ordered, carted, abandoned, checkingOut, recent]
      const left = await rowsLeft(all.map((p) => p.id))
      expect(all.map((p) => left.has(p.id))).toEqual([false, false, false, true, true, true, true, true])
      for (const gone of [unordered, unorderedToo, sameAsOrdered]) expect(await filesBeside(t, gone.id)).toBe(0)
      // A design no preview is left of loses its print files; one a kept preview shares keeps them.
      expect(await printFilesOf(t, unordered)).toBe(0)
      expect(await printFilesOf(t, unorderedToo)).toBe(0)
      expect(await printFilesOf(t, sameAsOrdered)).toBe(PRINT_POSITIONS.length)
      for (const kept of [ordered, carted, abandoned, checkingOut, recent]) {
        expect(await filesBeside(t, kept.id)).toBe(besidePreview.length)
        expect(await printFilesOf(t, kept)).toBe(PRINT_POSITIONS.length)
      }
      // The ordered preview's print files are still served, for a reprint or a late fetch by the print provider.
      const file = await t.request(`/v1/media/previews/${ordered.id}/front.png`)
      expect(file.status).toBe(200)
      expect(file.body).toBe(`front of ${ordered.row.designHash}`)
      expect((await t.request(`/v1/media/previews/${unordered.id}/front.png`)).status).toBe(404)
    } finally {
      t.setNow(start)
    }
  })
})

describe('preview retention rules', () => {
  let t: TestApi
  let start: Date
  beforeAll(async () => {
    t = await createTestApi()
    start = t.now()
  })
  afterAll(async () => {
    t.setNow(start)
    await t.close()
  })
  const later = (days: number) => t.setNow(new Date(start.getTime() + days * DAY_MS))

  it('a preview is kept for the whole retention period and goes the day after', async () => {
    t.setNow(start)
    const preview = await recordPreview(t, t.users[0].id)
    later(PREVIEW_RETENTION_DAYS - 0.01)
    expect(await prunePreviews(t.api.deps)).toBe(0)
    later(PREVIEW_RETENTION_DAYS + 0.01)
    expect(await prunePreviews(t.api.deps)).toBe(1)
    expect((await rowsOf(t, [preview.id])).size).toBe(0)
  })

  it('a checkout session that expired or failed long ago no longer keeps a preview; one expired lately still does (it may yet be paid)', async () => {
    t.setNow(start)
    const cookie = await t.signIn(1)
    const made: { previewId: string; sessionId: string }[] = []
    for (let i = 0; i < 3; i++) {
      const preview = await recordPreview(t, t.users[1].id)
      expect((await t.request('/v1/photo-products-cart/items', { method: 'POST', json: cartItemFor(preview), cookie })).status).toBe(201)
      const session = await t.request('/v1/photo-products-cart/checkout-session', { method: 'POST', cookie })
      expect(session.status).toBe(201)
      // Only the session names the preview now.
      await t.db.delete(cartItems).where(eq(cartItems.previewId, preview.id))
      made.push({ previewId: preview.id, sessionId: session.body.id })
    }
    const ended = [
      { status: 'expired' as const, at: start },
      { status: 'failed' as const, at: start },
      { status: 'expired' as const, at: new Date(start.getTime() + (PREVIEW_RETENTION_DAYS + 4) * DAY_MS) },
    ]
    for (const [i, { status, at }] of ended.entries()) {
      await t.db.update(checkoutSessions).set({ status, updatedAt: at }).where(eq(checkoutSessions.id, made[i]!.sessionId))
    }
    later(PREVIEW_RETENTION_DAYS + 5)
    await prunePreviews(t.api.deps)
    const left = await rowsOf(
      t,
      made.map((m) => m.previewId),
    )
    expect(made.map((m) => left.has(m.previewId))).toEqual([false, false, true])
    await t.db.delete(checkoutSessions)
    await t.db.delete(carts)
  })

  it('deletes in batches, each with its own job for the files', async () => {
    t.setNow(start)
    await t.db.delete(jobs)
    await t.db.delete(previews)
    const made = await Promise.all(Array.from({ length: 5 }, () => recordPreview(t, t.users[0].id)))
    later(PREVIEW_RETENTION_DAYS + 1)
    expect(await prunePreviews(t.api.deps, { batch: 2 })).toBe(5)
    const fileJobs = await t.db.select().from(jobs).where(eq(jobs.kind, 'delete-preview-files'))
    expect(fileJobs.map((j) => (j.payload.previewIds as string[]).length).sort()).toEqual([1, 2, 2])
    expect(new Set(fileJobs.flatMap((j) => j.payload.previewIds as string[]))).toEqual(new Set(made.map((p) => p.id)))
  })

  it('a storage error leaves the files to the job, which retries until they are gone', async () => {
    t.setNow(start)
    await t.db.delete(jobs)
    const preview = await storedPreview(t, t.users[0].id)
    later(PREVIEW_RETENTION_DAYS + 1)
    const failing = vi.spyOn(t.storage, 'delete').mockRejectedValueOnce(new Error('storage is unreachable'))
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined)
    try {
      await scheduleRecurringJobs(t.api.deps)
      const first = await drainJobs(t.api.deps, jobHandlers)
      expect(first).toEqual(
        expect.arrayContaining([expect.objectContaining({ kind: 'delete-preview-files', outcome: 'retry', error: 'storage is unreachable' })]),
      )
      expect((await rowsOf(t, [preview.id])).size).toBe(0)
      failing.mockRestore()
      t.setNow(new Date(t.now().getTime() + 60_000))
      expect(await drainJobs(t.api.deps, jobHandlers)).toEqual([expect.objectContaining({ kind: 'delete-preview-files', outcome: 'done' })])
      expect(await filesBeside(t, preview.id)).toBe(0)
      expect(await printFilesOf(t, preview)).toBe(0)
    } finally {
      failing.mockRestore()
      warn.mockRestore()
    }
  })

  it('is scheduled once a day, whatever the number of drains, and again the next day', async () => {
    t.setNow(start)
    await t.db.delete(jobs)
    await Promise.all([scheduleRecurringJobs(t.api.deps), scheduleRecurringJobs(t.api.deps)])
    await scheduleRecurringJobs(t.api.deps)
    later(0.4)
    await scheduleRecurringJobs(t.api.deps)
    later(1)
    await scheduleRecurringJobs(t.api.deps)
    const keys = (await t.db.select({ key: jobs.dedupeKey }).from(jobs).where(eq(jobs.kind, 'prune-previews'))).map((r) => r.key).sort()
    expect(keys).toEqual([previewRetentionKey(start), previewRetentionKey(new Date(start.getTime() + DAY_MS))].sort())
  })
})

async function rowsOf(t: TestApi, ids: string[]) {
  return new Set((await t.db.select({ id: previews.id }).from(previews).where(inArray(previews.id, ids))).map((r) => r.id))
}
