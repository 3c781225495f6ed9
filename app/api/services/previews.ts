/**
 * POST /v1/printify/generate-preview: render a shopper's design into print files and mockups,
 * store them, create the provider's product, and record which user made which preview. The cart
 * (a later issue) accepts print files only from these records.
 */
import { randomUUID } from 'node:crypto'
import { and, count, eq, gt } from 'drizzle-orm'
import sharp from 'sharp'
import { crashPoint } from '../crash-points'
import { clampTransform, IDENTITY_TRANSFORM } from '../../compositor/layout'
import { printQuality, REFUSED_BELOW_DPI, shownDpi } from '../../compositor/print-quality'
import { encodePng, releaseFront, renderFrontWithCells } from '../../compositor/print.server'
import { mockupOf } from '../../compositor/mockup.server'
import { baseImage } from '../../compositor/base-images.server'
import { PromiseCache } from '../../compositor/promise-cache'
import type { CellPrintQuality, GeneratedPreview, GeneratePreviewRequest } from '../../contract/designs'
import { describePersonalText } from '../../catalogue/personal-line'
import {
  backSides,
  findBackSide,
  findOrnamentVariant,
  ornamentProduct,
  ornamentShapes,
  photoCells,
  pseudoTemplates,
  templateForVariant,
  variantTitle,
} from '../../catalogue/ornaments'
import { previews } from '../db/schema'
import type { ApiDeps, SessionUser } from '../env'
import { AppError, notFound } from '../errors'
import { withRenderSlot } from '../render-slot'
import { metrics } from '../../observability/metrics'
import { photoKey } from '../media/urls'
import type { Mockup, PrintProvider } from '../providers/print/provider'
import { PrintProviderError } from '../providers/print/provider'
import { photosOfUser } from './photo-library'

/** Previews are renders that cost CPU and storage: this many per shopper per hour. */
export const PREVIEWS_PER_HOUR = 30

export const previewKey = (previewId: string, file: string) => `previews/${previewId}/${file}`
export const previewFiles = ['front.png', 'back.png', 'mockup-front.jpg', 'mockup-back.jpg', 'source-0.jpg', 'source-1.jpg'] as const
/** The files a preview stores when it is made; the source crops are made the first time one is asked for (decision 056). */
type FileMadeWithPreview = Exclude<(typeof previewFiles)[number], `source-${number}.jpg`>

/** At most two renders at once in this process (they are CPU-bound, so this is per machine by design). */
const MAX_CONCURRENT_RENDERS = 2
let running = 0
const waiting: (() => void)[] = []

async function withCpuSlot<T>(work: () => Promise<T>): Promise<T> {
  if (running >= MAX_CONCURRENT_RENDERS) await new Promise<void>((resolve) => waiting.push(resolve))
  running++
  try {
    return await work()
  } finally {
    running--
    waiting.shift()?.()
  }
}

/** The shopper's render slot (one at a time on every instance, render-slot.ts), then one of this process's CPU slots. */
function renderingFor<T>(deps: ApiDeps, userId: string, work: () => Promise<T>): Promise<T> {
  return withRenderSlot(deps.renderSlots, userId, () => withCpuSlot(() => timedRender(work)))
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
 * A back side's print file and mockup depend on its art alone, not on the design: made once per back
 * side and kept (a few hundred KB each, a handful of back sides), instead of a decode, a resize, a blur
 * and a JPEG encode on every preview.
 */
const backSideFiles = new PromiseCache<{ png: Buffer; mockup: Buffer }>(32 * 1024 * 1024, ({ png, mockup }) => png.length + mockup.length)
let backMockupsMade = 0
/** How many back-side mockups this process has rendered (for tests: one per back side). */
export const backMockupRenders = () => backMockupsMade

function backSideFilesOf(backsideUrl: string) {
  return backSideFiles.get(backsideUrl, async () => {
    const png = await baseImage(backsideUrl)
    const raw = await sharp(png).ensureAlpha().raw().toBuffer({ resolveWithObject: true })
    const mockup = await mockupOf({ data: raw.data, width: raw.info.width, height: raw.info.height })
    backMockupsMade++
    return { png, mockup }
  })
}

/**
 * What every preview of an ornament reuses, made before the process says it is ready (server.ts) rather than by
 * the first shoppers after a start: each template's underlay and cell map, its mockup backdrop, the PNG and JPEG
 * codecs, and each ornament's default back side (print file and mockup). About a second of CPU per ornament,
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
    const front = await renderFrontWithCells({ template, photos, text: null })
    await Promise.all([encodePng(front.image), mockupOf(front.image), backSideFilesOf(backSides[shape][0]!.backsideUrl)])
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

export async function generatePreview(deps: ApiDeps, provider: PrintProvider, user: SessionUser, input: GeneratePreviewRequest): Promise<GeneratedPreview> {
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

  // The render slot covers the CPU work only; storing the files and the provider's calls happen outside it.
  const { previewId, files, design, frontPng, backPng, lineContrast } = await renderingFor(deps, user.id, async () => {
    // Tests hold a render here (a slow render) to stop the process while it is in flight.
    await crashPoint('preview:render')
    const previewId = randomUUID()
    const originals = await Promise.all(
      cells.map(async ({ given }) => {
        const stored = await deps.storage.get(photoKey(given.photoId, 'original'))
        if (!stored) throw notFound(`Photo ${given.photoId}`)
        return stored.body
      }),
    )
    const design = cells.map(({ cell, given }) => {
      const row = owned.get(given.photoId)!
      return { cellId: cell.id, photoId: given.photoId, transform: clampTransform(cell, row, given.transform) }
    })
    const front = await renderFrontWithCells({ template, photos: photosOf(design, originals), text })
    const [{ png: backPng, mockup: mockupBack }, frontPng, mockupFront] = await Promise.all([
      backSideFilesOf(backSide.backsideUrl),
      encodePng(front.image),
      mockupOf(front.image),
    ])
    // Both encodes are done with the sheet and the cells: the next render draws into them (a failed one leaves them).
    releaseFront(front)
    const files: [FileMadeWithPreview, Buffer, string][] = [
      ['front.png', frontPng, 'image/png'],
      ['back.png', backPng, 'image/png'],
      ['mockup-front.jpg', mockupFront, 'image/jpeg'],
      ['mockup-back.jpg', mockupBack, 'image/jpeg'],
    ]
    return { previewId, files, design, frontPng, backPng, lineContrast: text ? front.lineContrast : null }
  })
  try {
    await Promise.all(files.map(([name, body, type]) => deps.storage.put(previewKey(previewId, name), body, type)))
    const url = (name: string) => deps.media.previewUrl(previewId, name)
    const localMockups: Mockup[] = [
      { url: url('mockup-front.jpg'), position: 'front', isDefault: true },
      { url: url('mockup-back.jpg'), position: 'back', isDefault: false },
    ]
    let product
    try {
      product = await provider.createPreviewProduct(
        {
          previewId,
          title: variantTitle(variant),
          description: text ? `${ornamentProduct.description} Personal text: ${describePersonalText(text)}.` : ornamentProduct.description,
          blueprintId: ornamentProduct.providerProductId,
          printProviderId: ornamentProduct.printProviderId,
          variantId: variant.id,
          priceCents: Math.round(variant.salePrice * 100),
          printFiles: [
            { position: 'front', fileName: `${previewId}-front.png`, url: deps.media.absolute(url('front.png')), png: frontPng },
            { position: 'back', fileName: `${previewId}-back.png`, url: deps.media.absolute(url('back.png')), png: backPng },
          ],
        },
        localMockups,
      )
    } catch (error) {
      if (error instanceof PrintProviderError) throw new AppError('provider_failed', `The print provider could not make the preview: ${error.message}`)
      throw error
    }
    const mockups = [...product.mockups].sort((a, b) => Number(b.isDefault) - Number(a.isDefault))
    const record = {
      id: previewId,
      userId: user.id,
      variantId: variant.id,
      pseudoTemplateId: template.id,
      backSideId: backSide.id,
      design,
      text,
      printAreas: [
        { position: 'front' as const, imageUrl: url('front.png') },
        { position: 'back' as const, imageUrl: url('back.png') },
      ],
      sourceImages: design.map((d, i) => ({ cropped: deps.media.sourceCropUrl(previewId, i), original: deps.media.photoUrl(d.photoId, 'smartphone') })),
      images: mockups.map((m) => m.url),
      provider: provider.name,
      providerProductId: product.productId,
      createdAt: deps.now(),
    }
    await deps.db.insert(previews).values(record)
    return {
      productId: product.productId,
      images: record.images,
      previewId,
      provider: provider.name,
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
    // Nothing is kept of a preview that was not recorded.
    await Promise.all(files.map(([name]) => deps.storage.delete(previewKey(previewId, name)).catch(() => undefined)))
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
  const body = await withCpuSlot(async () => {
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

/** A preview's stored file, for GET /v1/media/previews/{id}/{file}; a source crop is made on its first request. */
export async function previewFile(deps: ApiDeps, previewId: string, file: string) {
  // Stored before the record is written (the provider fetches print files while the preview is made);
  // the id is a random UUID, so storage alone answers.
  if (!(previewFiles as readonly string[]).includes(file)) return null
  const stored = await deps.storage.get(previewKey(previewId, file))
  const crop = /^source-(\d)\.jpg$/.exec(file)
  if (stored || !crop) return stored
  const body = await sourceCrop(deps, previewId, Number(crop[1]))
  return body && { body }
}
