/**
 * A design's print files: the front and back PNGs at the print area's size, which the print provider prints. A preview
 * renders only what the shopper sees (the mockups, at display size); the print files are rendered once per design, by a
 * job queued when the design goes into a cart, below the priority of shoppers' renders (cpu-slots.ts), and are kept
 * under print-files/<design hash>/. A parcel is never submitted without them: its submission renders what is missing
 * first, and fails (to be retried) when it cannot (issue 50, decision 078).
 */
import { createHash } from 'node:crypto'
import { eq, inArray } from 'drizzle-orm'
import { baseImage } from '../../compositor/base-images.server'
import { encodePng, releaseFront, renderFrontWithCells } from '../../compositor/print.server'
import { findBackSide, templateForVariant } from '../../catalogue/ornaments'
import { withCpuSlot } from '../cpu-slots'
import type { Database } from '../db/client'
import { previews } from '../db/schema'
import type { ApiDeps } from '../env'
import { photoKey } from '../media/urls'
import type { PrintFilePosition } from '../providers/print/provider'
import { metrics } from '../../observability/metrics'
import { enqueueJob, type JobHandlers } from './jobs'
import { sign, signingKey, verify } from './signing'

export type PreviewRow = typeof previews.$inferSelect
type Executor = Pick<Database, 'insert'>

/** Bumped when the print renderer changes what it draws for the same design, so old print files are not reused. */
const PRINT_RENDER_VERSION = 1
export const PRINT_POSITIONS = ['front', 'back'] as const satisfies readonly PrintFilePosition[]

/** The design's content hash: what it prints (ornament, back side, photos, their transforms, the personal line). */
export function designHashOf(design: Pick<PreviewRow, 'variantId' | 'pseudoTemplateId' | 'backSideId' | 'design' | 'text'>): string {
  const canonical = JSON.stringify([
    PRINT_RENDER_VERSION,
    design.variantId,
    design.pseudoTemplateId,
    design.backSideId,
    design.design.map((d) => [d.cellId, d.photoId, d.transform.x, d.transform.y, d.transform.zoom, d.transform.rotation]),
    design.text ?? null,
  ])
  return createHash('sha256').update(canonical).digest('hex')
}

export const printFilesFolder = (designHash: string) => `print-files/${designHash}`

/** Where a preview's print file is kept: under its design's hash, or (a preview made before issue 50) beside its other files. */
export function printFileKey(preview: Pick<PreviewRow, 'id' | 'designHash'>, position: PrintFilePosition) {
  return preview.designHash ? `${printFilesFolder(preview.designHash)}/${position}.png` : `previews/${preview.id}/${position}.png`
}

let printRenders = 0
/** How many print renders this process has made (for tests: one per design, however many ask). */
export const printFileRenders = () => printRenders

const inFlight = new Map<string, Promise<void>>()

/**
 * Makes the preview's print files unless both are kept already. Concurrent asks for one design share one render; the
 * render waits for a background CPU slot. Throws when a photo or the back side is gone (the design cannot be printed).
 */
export function ensurePrintFiles(deps: ApiDeps, preview: PreviewRow): Promise<void> {
  const key = printFileKey(preview, 'front')
  let made = inFlight.get(key)
  if (!made) {
    made = makePrintFiles(deps, preview).finally(() => inFlight.delete(key))
    inFlight.set(key, made)
  }
  return made
}

async function makePrintFiles(deps: ApiDeps, preview: PreviewRow) {
  const sizes = await Promise.all(PRINT_POSITIONS.map((position) => deps.storage.size(printFileKey(preview, position))))
  if (sizes.every((size) => size !== null && size > 0)) return
  const template = templateForVariant(preview.variantId)
  const backSide = findBackSide(preview.backSideId)
  if (!template || !backSide) throw new Error(`Preview ${preview.id}: its ornament or back side is no longer in the catalogue`)
  const originals = await Promise.all(
    preview.design.map(async (d) => {
      const stored = await deps.storage.get(photoKey(d.photoId, 'original'))
      if (!stored) throw new Error(`Preview ${preview.id}: photo ${d.photoId} is gone, so its print file cannot be rendered`)
      return stored.body
    }),
  )
  const photos = Object.fromEntries(preview.design.map((d, i) => [d.cellId, { image: originals[i]!, transform: d.transform }]))
  const started = performance.now()
  const front = await withCpuSlot('background', async () => {
    const rendered = await renderFrontWithCells({ template, photos, text: preview.text ?? null })
    try {
      return await encodePng(rendered.image)
    } finally {
      releaseFront(rendered)
    }
  })
  printRenders++
  metrics().printFileRender.observe({}, (performance.now() - started) / 1000)
  // The back print file is the back side's art at the print area's size, the same for every design with that back.
  const back = await baseImage(backSide.backsideUrl)
  await Promise.all([deps.storage.put(printFileKey(preview, 'front'), front, 'image/png'), deps.storage.put(printFileKey(preview, 'back'), back, 'image/png')])
}

/** The print files of these previews, made where missing (a parcel's submission). */
export async function ensurePrintFilesOf(deps: ApiDeps, previewIds: string[]) {
  const rows = previewIds.length ? await deps.db.select().from(previews).where(inArray(previews.id, previewIds)) : []
  const missing = previewIds.filter((id) => !rows.some((r) => r.id === id))
  if (missing.length > 0) throw new Error(`Preview(s) ${missing.join(', ')} are gone, so their print files cannot be made`)
  for (const row of rows) await ensurePrintFiles(deps, row)
  return rows
}

/** Queues the render of a design's print files (when it goes into a cart); one job per design, however many carts hold it. */
export async function queuePrintFiles(db: Executor, preview: Pick<PreviewRow, 'id' | 'designHash'>, now: Date) {
  await enqueueJob(db, {
    kind: 'render-print-files',
    dedupeKey: `render-print-files:${preview.designHash ?? preview.id}`,
    payload: { previewId: preview.id },
    runAt: now,
  })
}

/** A preview's print file, made if it is not kept yet (the provider or a client asked before the job ran). */
export async function printFileOf(deps: ApiDeps, previewId: string, position: PrintFilePosition) {
  const [preview] = await deps.db.select().from(previews).where(eq(previews.id, previewId))
  if (!preview) return null
  const key = printFileKey(preview, position)
  const kept = await deps.storage.get(key)
  if (kept) return kept
  if (!preview.designHash) return null
  await ensurePrintFiles(deps, preview)
  return deps.storage.get(key)
}

// ---------------------------------------------------------------------------------------------
// Signed print file URLs: what the print provider fetches, days later, from a private bucket too

const DAY_MS = 24 * 3600_000
const signedPayload = (previewId: string, position: string, expires: number) => `print-file:${previewId}:${position}:${expires}`

/** An absolute URL of a preview's print file, signed, good for PRINT_FILE_URL_DAYS: served by the API from storage. */
export async function signedPrintFileUrl(deps: ApiDeps, previewId: string, position: PrintFilePosition): Promise<string> {
  const expires = Math.floor((deps.now().getTime() + deps.config.printFileUrlDays * DAY_MS) / 1000)
  const signature = sign(await signingKey(deps.db, deps.config), signedPayload(previewId, position, expires))
  return deps.media.absolute(`/v1/media/print-files/${previewId}/${position}.png?expires=${expires}&signature=${signature}`)
}

/** Whether a signed print file URL's `expires` and `signature` are ours and still good. */
export async function printFileUrlIsGood(deps: ApiDeps, previewId: string, position: string, expires: number, signature: string) {
  if (expires * 1000 < deps.now().getTime()) return false
  return verify(await signingKey(deps.db, deps.config), signedPayload(previewId, position, expires), signature)
}

export const printFileJobs: JobHandlers = {
  'render-print-files': {
    // Its own lane: a burst of renders holds back neither the orders' submissions nor the e-mails.
    lane: 'render',
    run: async (deps, job) => {
      const [preview] = await deps.db
        .select()
        .from(previews)
        .where(eq(previews.id, String(job.payload.previewId ?? '')))
      // A preview pruned since (nothing holds it any more) needs no print file.
      if (preview) await ensurePrintFiles(deps, preview)
    },
  },
}
