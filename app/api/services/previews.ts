/**
 * POST /v1/printify/generate-preview: render what the shopper sees of a design — its front and back at display size,
 * as mockups — store them, and record which user made which preview. The print files (the print area's size) are
 * rendered once per design when it goes into a cart (services/print-files.ts), and no provider hears of a preview: the
 * provider sees orders (issue 50, decision 078). The cart accepts print files only from these records.
 */
import { randomUUID } from 'node:crypto'
import { and, count, eq, gt } from 'drizzle-orm'
import sharp from 'sharp'
import { crashPoint } from '../crash-points'
import { clampTransform, IDENTITY_TRANSFORM, photoScale, type PhotoTransform } from '../../compositor/layout'
import { printQuality, REFUSED_BELOW_DPI, shownDpi } from '../../compositor/print-quality'
import { releaseFront, renderFrontWithCells } from '../../compositor/print.server'
import { MOCKUP_WIDTH, mockupOf } from '../../compositor/mockup.server'
import { baseImage } from '../../compositor/base-images.server'
import { PromiseCache } from '../../compositor/promise-cache'
import type { CellPrintQuality, GeneratedPreview, GeneratePreviewRequest } from '../../contract/designs'
import {
  backSides,
  findBackSide,
  findOrnamentVariant,
  ornamentProduct,
  ornamentShapes,
  photoCells,
  pseudoTemplates,
  templateForVariant,
} from '../../catalogue/ornaments'
import { jobs, previews } from '../db/schema'
import type { ApiDeps, SessionUser } from '../env'
import { AppError, notFound } from '../errors'
import { withRenderSlot } from '../render-slot'
import { metrics } from '../../observability/metrics'
import { photoKey } from '../media/urls'
import { RENDITION_LONG_EDGE } from '../media/images'
import type { RenditionName } from '../../contract/photos'
import { withCpuSlot } from '../cpu-slots'
import { photosOfUser } from './photo-library'
import { designHashOf, printFileOf } from './print-files'
import { enqueueJob } from './jobs'
import { logger } from '../../observability/log'

/** Previews are renders that cost CPU and storage: this many per shopper per hour. */
export const PREVIEWS_PER_HOUR = 30

export const previewKey = (previewId: string, file: string) => `previews/${previewId}/${file}`
export const previewFiles = ['front.png', 'back.png', 'mockup-front.jpg', 'mockup-back.jpg', 'source-0.jpg', 'source-1.jpg'] as const
/**
 * The files a preview stores when it is made: its mockups. The source crops are made the first time one is asked for
 * (decision 056); front.png and back.png are its design's print files, kept under the design's hash (print-files.ts).
 */
type FileMadeWithPreview = 'mockup-front.jpg' | 'mockup-back.jpg'

/** The scale a preview renders a template at: the mockup's width, so what the shopper sees is drawn once, at its size. */
export const displayScaleOf = (template: { width: number }) => MOCKUP_WIDTH / template.width
/** A template's front silhouette (its mask) names the mockup's backdrop: the same for every design of it. */
const frontSilhouette = (template: { id: string }) => `front:${template.id}`

/**
 * The rendition a preview draws a cell's photo from: the smartphone one (1280 px, a fraction of the original's bytes
 * to decode) when it still holds at least one of its pixels for each pixel the shopper sees; otherwise the original.
 * The print file is always drawn from the original; the fidelity test holds the two to the same picture.
 */
export function displayRenditionOf(
  cell: { width: number; height: number },
  photo: { width: number; height: number },
  transform: PhotoTransform,
  scale: number,
): RenditionName {
  const shownPerOriginalPixel = photoScale(cell, photo, transform) * scale
  const smartphonePerOriginalPixel = Math.min(1, RENDITION_LONG_EDGE.smartphone / Math.max(photo.width, photo.height))
  return shownPerOriginalPixel <= smartphonePerOriginalPixel ? 'smartphone' : 'original'
}

/**
 * How long after a render starts the files of a preview that was never recorded are deleted (far longer than any render
 * takes). The job that does it is written before the first file and taken away with the row's insert (decision 074).
 */
export const UNRECORDED_PREVIEW_FILES_AFTER_MS = 60 * 60_000
/** The key of the job that deletes a render's files unless its preview is recorded. */
export const unrecordedPreviewFilesKey = (previewId: string) => `delete-unrecorded-preview-files:${previewId}`

/** The shopper's render slot (one at a time on every instance, render-slot.ts), then one of this process's CPU slots. */
function renderingFor<T>(deps: ApiDeps, userId: string, work: () => Promise<T>): Promise<T> {
  return withRenderSlot(deps.renderSlots, userId, () => withCpuSlot('shopper', () => timedRender(work)))
}

/** The render's own time, slots already held (keepsake_preview_render_duration_seconds, decision 045). */
async function timedRender<T>(work: () => Promise<T>): Promise<T> {
  const started = performance.now()
  let outcome = 'failed'
  try {
    const result = await work()
    outcome = 'rendered'
    return result
  } finally {
    metrics().previewRender.observe({ outcome }, (performance.now() - started) / 1000)
  }
}

/**
 * A back side's mockup depends on its art alone, not on the design: made once per back side and kept (a few hundred
 * KB each, a handful of back sides), instead of a decode, a resize, a blur and a JPEG encode on every preview.
 */
const backSideFiles = new PromiseCache<{ mockup: Buffer }>(32 * 1024 * 1024, ({ mockup }) => mockup.length)
let backMockupsMade = 0
/** How many back-side mockups this process has rendered (for tests: one per back side). */
export const backMockupRenders = () => backMockupsMade

function backSideFilesOf(backsideUrl: string) {
  return backSideFiles.get(backsideUrl, async () => {
    const png = await baseImage(backsideUrl)
    const raw = await sharp(png).ensureAlpha().raw().toBuffer({ resolveWithObject: true })
    const mockup = await mockupOf({ data: raw.data, width: raw.info.width, height: raw.info.height })
    backMockupsMade++
    return { mockup }
  })
}

/**
 * What every preview of an ornament reuses, made before the process says it is ready (server.ts) rather than by
 * the first shoppers after a start: each template's underlay and cell map, its mockup backdrop, the PNG and JPEG
 * codecs, and each ornament's default back side's mockup. About a second of CPU per ornament,
 * kept for the process's life (decision 056). `stop` is asked between ornaments (a signal during warm-up).
 */
export async function warmPreviewRenderer(stop: () => void = () => {}) {
  const photo = await sharp({ create: { width: 1200, height: 900, channels: 3, background: { r: 128, g: 128, b: 128 } } })
    .jpeg()
    .toBuffer()
  for (const shape of ornamentShapes) {
    stop()
    const template = pseudoTemplates[shape]
    const photos = Object.fromEntries(photoCells(template).map((cell) => [cell.id, { image: photo, transform: IDENTITY_TRANSFORM }]))
    const front = await renderFrontWithCells({ template, photos, text: null }, displayScaleOf(template))
    await Promise.all([mockupOf(front.image, frontSilhouette(template)), backSideFilesOf(backSides[shape][0]!.backsideUrl)])
    releaseFront(front)
  }
}

function assertDesign(input: GeneratePreviewRequest) {
  const variant = findOrnamentVariant(input.variantId)
  if (!variant) throw notFound(`Product variant ${input.variantId}`)
  const template = templateForVariant(variant.id)!
  if (input.pseudoTemplateId !== template.id) {
    throw new AppError('rule_broken', `Template ${input.pseudoTemplateId} is not a template of the ${variant.name} ornament (use ${template.id})`)
  }
  const backSide = findBackSide(input.backSideId)
  if (!backSide || backSide.template !== template.id) {
    throw new AppError('rule_broken', `Back side ${input.backSideId} is not one of the ${variant.name} ornament's back sides`)
  }
  const cells = photoCells(template)
  const given = new Map(input.cells.map((c) => [c.cellId, c]))
  if (given.size !== input.cells.length) throw new AppError('validation_failed', 'Each cell may be given only once')
  for (const c of input.cells) {
    if (!cells.some((cell) => cell.id === c.cellId)) throw new AppError('validation_failed', `Cell ${c.cellId} is not a photo cell of ${template.id}`)
  }
  if (given.size < ornamentProduct.numberOfUserImages || cells.some((cell) => !given.has(cell.id))) {
    throw new AppError('validation_failed', `Choose ${ornamentProduct.numberOfUserImages} photos, one for each ornament`)
  }
  return { variant, template, backSide, cells: cells.map((cell) => ({ cell, given: given.get(cell.id)! })) }
}

export async function generatePreview(deps: ApiDeps, user: SessionUser, input: GeneratePreviewRequest): Promise<GeneratedPreview> {
  const { variant, template, backSide, cells } = assertDesign(input)
  const text = input.text ?? null
  const owned = await photosOfUser(
    deps.db,
    user.id,
    cells.map((c) => c.given.photoId),
  )
  for (const { given } of cells) if (!owned.has(given.photoId)) throw notFound(`Photo ${given.photoId}`)
  // The grades the designer showed, from the same function: below the floor nothing is printed.
  const quality: CellPrintQuality[] = cells.map(({ cell, given }) => {
    const { grade, dpi, reason, advice } = printQuality(cell, owned.get(given.photoId)!, given.transform)
    if (grade === 'refused') {
      throw new AppError(
        'rule_broken',
        `The photo for the ${cell.order === 0 ? 'left' : 'right'} ornament is too small to print at this size: about ${shownDpi(dpi)} dpi, at least ${REFUSED_BELOW_DPI} is needed. ${advice}`,
      )
    }
    return { cellId: cell.id, grade, dpi: shownDpi(dpi), ...(reason ? { reason, advice } : {}) }
  })
  const since = new Date(deps.now().getTime() - 60 * 60 * 1000)
  const [recent] = await deps.db
    .select({ n: count() })
    .from(previews)
    .where(and(eq(previews.userId, user.id), gt(previews.createdAt, since)))
  if ((recent?.n ?? 0) >= PREVIEWS_PER_HOUR) {
    // The oldest of the hour's previews leaves the window first; a rough wait is enough for Retry-After.
    throw new AppError('rate_limited', `You have made ${PREVIEWS_PER_HOUR} previews in the last hour; try again a little later`, undefined, 10 * 60 * 1000)
  }

  // The render slot covers the CPU work only; storing the files happens outside it.
  const { previewId, files, design, lineContrast } = await renderingFor(deps, user.id, async () => {
    // Tests hold a render here (a slow render) to stop the process while it is in flight.
    await crashPoint('preview:render')
    const previewId = randomUUID()
    const design = cells.map(({ cell, given }) => {
      const row = owned.get(given.photoId)!
      return { cellId: cell.id, photoId: given.photoId, transform: clampTransform(cell, row, given.transform) }
    })
    const scale = displayScaleOf(template)
    const originals = await Promise.all(
      cells.map(async ({ cell, given }, i) => {
        const rendition = displayRenditionOf(cell, owned.get(given.photoId)!, design[i]!.transform, scale)
        const stored = await deps.storage.get(photoKey(given.photoId, rendition))
        if (!stored) throw notFound(`Photo ${given.photoId}`)
        return stored.body
      }),
    )
    // At display size, from the same renderer and design as the print file (which, scaled down, is these pixels).
    const front = await renderFrontWithCells({ template, photos: photosOf(design, originals), text }, scale)
    const [{ mockup: mockupBack }, mockupFront] = await Promise.all([backSideFilesOf(backSide.backsideUrl), mockupOf(front.image, frontSilhouette(template))])
    // The encode is done with the sheet and the cells: the next render draws into them (a failed one leaves them).
    releaseFront(front)
    const files: [FileMadeWithPreview, Buffer, string][] = [
      ['mockup-front.jpg', mockupFront, 'image/jpeg'],
      ['mockup-back.jpg', mockupBack, 'image/jpeg'],
    ]
    return { previewId, files, design, lineContrast: text ? front.lineContrast : null }
  })
  // The files are named before the first is written: a job that deletes them unless the preview's row is written, and
  // the row's insert takes the job away in its transaction. A render that fails half-way (storage refusing the second
  // file), or a process that dies in one, leaves no file that nothing names (issue 43, item 7).
  await enqueueJob(deps.db, {
    kind: 'delete-preview-files',
    dedupeKey: unrecordedPreviewFilesKey(previewId),
    payload: { previewIds: [previewId] },
    runAt: new Date(deps.now().getTime() + UNRECORDED_PREVIEW_FILES_AFTER_MS),
  })
  try {
    // Every write settles before a failure is answered, so the deletes below come after the last of them.
    const written = await Promise.allSettled(files.map(([name, body, type]) => deps.storage.put(previewKey(previewId, name), body, type)))
    const refused = written.find((result) => result.status === 'rejected')
    if (refused) throw refused.reason
    const url = (name: string) => deps.media.previewUrl(previewId, name)
    const images = [url('mockup-front.jpg'), url('mockup-back.jpg')]
    const record = {
      id: previewId,
      userId: user.id,
      variantId: variant.id,
      pseudoTemplateId: template.id,
      backSideId: backSide.id,
      design,
      text,
      // The print files are the API's URLs even beside a bucket: the API serves them from the design's files (print-files.ts).
      printAreas: [
        { position: 'front' as const, imageUrl: deps.media.printFileUrl(previewId, 'front') },
        { position: 'back' as const, imageUrl: deps.media.printFileUrl(previewId, 'back') },
      ],
      sourceImages: design.map((d, i) => ({ cropped: deps.media.sourceCropUrl(previewId, i), original: deps.media.photoUrl(d.photoId, 'smartphone') })),
      images,
      provider: deps.print.name,
      // The store's own product: no provider makes one for a preview (the order makes it).
      providerProductId: previewId,
      designHash: designHashOf({ variantId: variant.id, pseudoTemplateId: template.id, backSideId: backSide.id, design, text }),
      createdAt: deps.now(),
    }
    await deps.db.transaction(async (tx) => {
      const [sweep] = await tx
        .delete(jobs)
        .where(and(eq(jobs.dedupeKey, unrecordedPreviewFilesKey(previewId)), eq(jobs.status, 'queued')))
        .returning({ id: jobs.id })
      // The job has run or runs now (a render slower than UNRECORDED_PREVIEW_FILES_AFTER_MS): the files are going, so the preview is no good.
      if (!sweep) throw new Error(`Preview ${previewId}: its files were deleted before it was recorded`)
      await tx.insert(previews).values(record)
    })
    return {
      productId: previewId,
      images: record.images,
      previewId,
      provider: deps.print.name,
      variantId: variant.id,
      pseudoTemplateId: template.id,
      backSideId: backSide.id,
      printAreas: record.printAreas,
      sourceImages: record.sourceImages,
      text,
      printQuality: quality,
      lineContrast,
    }
  } catch (error) {
    // Nothing is kept of a preview that was not recorded: its files go now, and what storage refuses to delete now the
    // job written above deletes later (a missing file is no error to it).
    const deleted = await Promise.allSettled(files.map(([name]) => deps.storage.delete(previewKey(previewId, name))))
    const left = deleted.filter((result): result is PromiseRejectedResult => result.status === 'rejected')
    if (left.length > 0)
      logger().warn(
        { previewId, err: left[0]!.reason },
        `[previews] ${left.length} file(s) of the unrecorded preview ${previewId} could not be deleted now; the delete-preview-files job deletes them later`,
      )
    throw error
  }
}

type DesignCell = (typeof previews.$inferSelect)['design'][number]

/** The design's photos as the renderer takes them, by cell. */
const photosOf = (design: DesignCell[], originals: Buffer[]) =>
  Object.fromEntries(design.map((d, i) => [d.cellId, { image: originals[i]!, transform: d.transform }]))

/**
 * A source crop: the photo as its cell draws it (before the mask and the frame, without the personal line), a
 * JPEG on white. Nothing in the shopper's path reads one, so it is made the first time it is asked for, from the
 * preview's record and its photos' originals, with the same renderer and so the same pixels as the print file,
 * and then kept beside the preview's other files (decision 056). Null when the preview or a photo is gone.
 */
const cropsInFlight = new Map<string, Promise<Buffer | null>>()
let cropsMade = 0
/** How many source crops this process has rendered (for tests). */
export const sourceCropRenders = () => cropsMade
function sourceCrop(deps: ApiDeps, previewId: string, index: number): Promise<Buffer | null> {
  const key = previewKey(previewId, `source-${index}.jpg`)
  let crop = cropsInFlight.get(key)
  if (!crop) {
    crop = makeSourceCrop(deps, previewId, index, key).finally(() => cropsInFlight.delete(key))
    cropsInFlight.set(key, crop)
  }
  return crop
}

async function makeSourceCrop(deps: ApiDeps, previewId: string, index: number, key: string): Promise<Buffer | null> {
  const [record] = await deps.db.select().from(previews).where(eq(previews.id, previewId))
  const template = record && templateForVariant(record.variantId)
  const cell = record?.design[index]
  if (!record || !template || !cell) return null
  const originals = await Promise.all(record.design.map(async (d) => (await deps.storage.get(photoKey(d.photoId, 'original')))?.body))
  if (originals.some((o) => !o)) return null
  cropsMade++
  const body = await withCpuSlot('shopper', async () => {
    const front = await renderFrontWithCells({ template, photos: photosOf(record.design, originals as Buffer[]), text: record.text })
    const { image } = front.cells.find((rendered) => rendered.cellId === cell.cellId)!
    const jpeg = await sharp(image.data, { raw: { width: image.width, height: image.height, channels: 4 } })
      .flatten({ background: '#ffffff' })
      .jpeg({ quality: 90 })
      .toBuffer()
    releaseFront(front)
    return jpeg
  })
  await deps.storage.put(key, body, 'image/jpeg')
  return body
}

/**
 * A preview's stored file, for GET /v1/media/previews/{id}/{file}: a mockup, a source crop (made on its first request),
 * or a print file (front.png, back.png: its design's, rendered now if the cart's job has not yet made it).
 */
export async function previewFile(deps: ApiDeps, previewId: string, file: string) {
  if (!(previewFiles as readonly string[]).includes(file)) return null
  if (file === 'front.png' || file === 'back.png') return printFileOf(deps, previewId, file === 'front.png' ? 'front' : 'back')
  // The id is a random UUID, so storage alone answers.
  const stored = await deps.storage.get(previewKey(previewId, file))
  const crop = /^source-(\d)\.jpg$/.exec(file)
  if (stored || !crop) return stored
  const body = await sourceCrop(deps, previewId, Number(crop[1]))
  return body && { body }
}
