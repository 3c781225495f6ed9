import { eq } from 'drizzle-orm'
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest'
import { demoAccounts } from '../../app/api/demo/accounts'
import { jobs, previews } from '../../app/api/db/schema'
import { drainJobs } from '../../app/api/services/jobs'
import { previewRetentionJobs } from '../../app/api/services/preview-retention'
import { previewFiles, previewKey, UNRECORDED_PREVIEW_FILES_AFTER_MS, unrecordedPreviewFilesKey } from '../../app/api/services/previews'
import { PRINT_POSITIONS, printFileKey } from '../../app/api/services/print-files'
import type { ObjectStorage } from '../../app/api/storage/storage'
import { pseudoTemplates } from '../../app/catalogue/ornaments'
import { addAlbumPhotos } from '../support/photos'
import { createTestApi, type TestApi } from '../support/test-api'

/**
 * Issue 43 item 7 (decision 074): a preview whose files were half written (storage refusing writes after the first)
 * leaves no file behind that nothing names. The render names its files in a job before writing the first; the row's
 * insert takes the job away, and without a row the job deletes them.
 */
let t: TestApi
let cookie: string
let photoIds: string[]
let real: ObjectStorage
beforeAll(async () => {
  t = await createTestApi()
  cookie = await t.signIn(0)
  photoIds = (await addAlbumPhotos(t, demoAccounts[0].family.id, 2, undefined, { width: 480, height: 360 })).map((p) => p.id)
  real = t.api.deps.storage
})
afterAll(() => t.close())
afterEach(() => {
  t.api.deps.storage = real
})

/** What a preview writes when it is made: its mockups (its print files are its design's, rendered when it goes into a cart). */
const made = ['mockup-front.jpg', 'mockup-back.jpg']
const generate = () =>
  t.request('/v1/printify/generate-preview', {
    method: 'POST',
    cookie,
    json: {
      variantId: 72965,
      pseudoTemplateId: pseudoTemplates.star.id,
      backSideId: '72965-3',
      cells: photoIds.map((photoId, i) => ({ cellId: i === 0 ? 'star-left' : 'star-right', photoId, transform: { x: 0, y: 0, zoom: 1, rotation: 0 } })),
    },
  })
const sweeps = () => t.db.select().from(jobs).where(eq(jobs.kind, 'delete-preview-files'))
/** Which of the files a preview may have beside it are in storage. */
const filesOf = async (previewId: string) => {
  const present: string[] = []
  for (const file of previewFiles) if ((await real.size(previewKey(previewId, file))) !== null) present.push(file)
  return present
}

it('a recorded preview keeps its files and leaves no job to delete them', async () => {
  const res = await generate()
  expect(res.status, JSON.stringify(res.body)).toBe(201)
  const previewId = res.body.previewId as string
  const [row] = await t.db.select().from(previews).where(eq(previews.id, previewId))
  expect(row).toBeDefined()
  expect(await filesOf(previewId)).toEqual(made)
  // Its design's print files are not made with it (nor anything else under its design's hash).
  for (const position of PRINT_POSITIONS) expect(await real.size(printFileKey(row!, position))).toBeNull()
  expect(await sweeps()).toEqual([])
})

it('storage refusing writes after the first (and deletes): the written file is deleted once storage is back, though no row names it', async () => {
  let writes = 0
  // S3 refusing writes after the first PUT, and every DELETE while it is down.
  t.api.deps.storage = {
    ...real,
    put: async (key, body, type) => {
      if (++writes > 1) throw new Error('S3 refused the write')
      await real.put(key, body, type)
    },
    delete: async () => {
      throw new Error('S3 refused the delete')
    },
  }
  const res = await generate()
  expect(res.status).toBeGreaterThanOrEqual(500)
  t.api.deps.storage = real

  const [sweep] = await sweeps()
  expect(sweep).toMatchObject({ status: 'queued' })
  const previewId = (sweep!.payload as { previewIds: string[] }).previewIds[0]!
  expect(sweep!.dedupeKey).toBe(unrecordedPreviewFilesKey(previewId))
  expect(await t.db.select().from(previews).where(eq(previews.id, previewId))).toEqual([])
  // The first file was written and could not be deleted then.
  expect(await filesOf(previewId)).toHaveLength(1)

  // Storage is back; the job's time comes.
  t.setNow(new Date(t.now().getTime() + UNRECORDED_PREVIEW_FILES_AFTER_MS))
  expect(await drainJobs(t.api.deps, previewRetentionJobs)).toEqual([expect.objectContaining({ kind: 'delete-preview-files', outcome: 'done' })])
  expect(await filesOf(previewId)).toEqual([])
})

it('a write that fails with storage still deleting: the files go at once, and the job later finds nothing to do', async () => {
  await t.db.delete(jobs)
  let writes = 0
  t.api.deps.storage = {
    ...real,
    put: async (key, body, type) => {
      await real.put(key, body, type)
      if (++writes === 2) throw new Error('S3 refused the write')
    },
  }
  expect((await generate()).status).toBeGreaterThanOrEqual(500)
  t.api.deps.storage = real
  const [sweep] = await sweeps()
  const previewId = (sweep!.payload as { previewIds: string[] }).previewIds[0]!
  // Every write settled before the deletes: neither mockup is left.
  expect(await filesOf(previewId)).toEqual([])
  t.setNow(new Date(t.now().getTime() + UNRECORDED_PREVIEW_FILES_AFTER_MS))
  expect(await drainJobs(t.api.deps, previewRetentionJobs)).toEqual([expect.objectContaining({ kind: 'delete-preview-files', outcome: 'done' })])
})
