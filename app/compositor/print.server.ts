/**
 * The print renderer: the same layout as the pixi preview (layout.ts), drawn with sharp from the
 * photos' full-resolution originals. At scale 1 it makes the print file (template pixels, 300 dpi);
 * at the preview's scale it makes the same pixels the browser shows (the agreement test).
 *
 * A photo is placed as a GPU draws a sprite, bilinear between pixel centres and clamped at its edges
 * (place.ts, decision 050), computed for its cell's pixels only. Only a photo that would be shrunk
 * below half size is first reduced with a proper filter, so big originals do not alias.
 */
import sharp, { type OverlayOptions, type Sharp } from 'sharp'
import type { PseudoTemplate, TemplateCell } from '../catalogue/ornaments'
import type { OrnamentSide, PersonalLine, PersonalText } from '../catalogue/personal-line'
import { scaledBaseImage, scaledBaseImageRaw } from './base-images.server'
import { typefaceFont } from './text-fonts.server'
import { measureLineContrast, type LineContrast } from './line-contrast'
import { drawLine, linesByCell, type DrawnLine } from './text-line'
import { placeBilinear, placementCovers, type DecodedImage, type Extent } from './place'
import { BufferPool } from './buffer-pool'
import { PromiseCache } from './promise-cache'
import {
  cellClipRect,
  clampTransform,
  invertMatrix,
  drawOrder,
  outputSize,
  patternTileSize,
  photoMatrix,
  scaleMatrix,
  type PhotoTransform,
  type Rect,
} from './layout'

export type RawImage = { data: Buffer; width: number; height: number }

/**
 * The sheets and cells renders draw into, kept for the next render (decision 056): two renders at once of the
 * largest ornament hold about 80 MB of them.
 */
const pixelBuffers = new BufferPool(128 * 1024 * 1024)
/** Buffers the renderer took, of them reused, and bytes kept (for tests). */
export const pixelBufferStats = () => pixelBuffers.stats()

/**
 * Gives a rendered front's sheet and cells back for later renders. Only for a caller that has finished with every
 * one of them, and whose outputs (PNG, JPEG) no longer read them: a buffer given back is drawn over by the next render.
 */
export function releaseFront(front: { image: RawImage; cells: RenderedCell[] }) {
  pixelBuffers.give(front.image.data)
  for (const cell of front.cells) pixelBuffers.give(cell.image.data)
}

export type PrintPhoto = {
  /** Encoded image bytes (the stored original rendition). */
  image: Buffer
  transform: PhotoTransform
}

export type FrontDesign = {
  template: PseudoTemplate
  /** Photo per Image cell id. */
  photos: Record<string, PrintPhoto>
  /** The personal lines: each ornament's own, drawn in that ornament's Text cell. */
  text?: PersonalText | null
}

const TRANSPARENT = { r: 0, g: 0, b: 0, alpha: 0 }
const MAX_INPUT_PIXELS = 100_000_000
/** A photo shown at less than this scale is reduced first (lanczos) and then placed. */
const PRE_REDUCE_BELOW = 0.5

/**
 * How much a JPEG photo shown at `shown` may be reduced while it is decoded (libjpeg's scaled IDCT:
 * ½, ¼ or ⅛), leaving the affine step a scale between ½ and 1, as for a photo that needs no
 * reduction. Only when the size divides exactly, so the decoded pixels sit on the same grid
 * (each covers s × s original pixels); otherwise 1, and the lanczos reduction does it.
 */
export function decodeShrink(format: string | undefined, size: { width: number; height: number }, shown: number): 1 | 2 | 4 | 8 {
  if (format !== 'jpeg' || shown >= PRE_REDUCE_BELOW) return 1
  for (const s of [8, 4, 2] as const) if (shown * s <= 1 && size.width % s === 0 && size.height % s === 0) return s
  return 1
}

function blank(size: { width: number; height: number }) {
  return sharp({ create: { width: size.width, height: size.height, channels: 4, background: TRANSPARENT } })
}

async function toRaw(pipeline: Sharp): Promise<RawImage> {
  const { data, info } = await pipeline.ensureAlpha().raw().toBuffer({ resolveWithObject: true })
  return { data, width: info.width, height: info.height }
}

/** One photo in its cell, at `scale` output pixels per template pixel: the cell's pixels only. */
export async function renderPhotoCell(cell: TemplateCell, photo: PrintPhoto, scale: number): Promise<{ rect: Rect; image: RawImage; opaque: boolean }> {
  const meta = await sharp(photo.image, { limitInputPixels: MAX_INPUT_PIXELS }).metadata()
  if (!meta.width || !meta.height) throw new Error('The photo has no size')
  const size = { width: meta.width, height: meta.height }
  const transform = clampTransform(cell, size, photo.transform)
  const rect = cellClipRect(cell, scale)
  let m = scaleMatrix(photoMatrix(cell, size, transform), scale)
  // Only the part of the photo that lands in the cell is decoded into memory and placed, with a
  // margin for the filter: a photo zoomed five times does not make a canvas five times the cell.
  const inverse = invertMatrix(m)
  const us: number[] = []
  const vs: number[] = []
  for (const [x, y] of [
    [rect.left, rect.top],
    [rect.left + rect.width, rect.top],
    [rect.left, rect.top + rect.height],
    [rect.left + rect.width, rect.top + rect.height],
  ] as const) {
    us.push(inverse.a * x + inverse.c * y + inverse.tx)
    vs.push(inverse.b * x + inverse.d * y + inverse.ty)
  }
  const left = Math.min(size.width - 1, Math.max(0, Math.floor(Math.min(...us)) - 2))
  const top = Math.min(size.height - 1, Math.max(0, Math.floor(Math.min(...vs)) - 2))
  const region = {
    left,
    top,
    width: Math.max(1, Math.min(size.width, Math.ceil(Math.max(...us)) + 2) - left),
    height: Math.max(1, Math.min(size.height, Math.ceil(Math.max(...vs)) + 2) - top),
  }
  let shown = Math.hypot(m.a, m.b)
  const shrink = decodeShrink(meta.format, size, shown)
  let pipeline: Sharp
  /** The size of what the pipeline decodes: the region, or its reduced counterpart. */
  let decoded: { width: number; height: number } = region
  /** The whole photo's bounds in the coordinates of what is decoded. */
  let extent: Extent = { left: -left, top: -top, right: size.width - left, bottom: size.height - top }
  if (shrink > 1) {
    // Decoded already reduced: 4096 px JPEG originals skip a full-size lanczos pass (decision 037).
    const reduced = { width: size.width / shrink, height: size.height / shrink }
    const l = Math.floor(left / shrink)
    const t = Math.floor(top / shrink)
    const part = {
      left: l,
      top: t,
      width: Math.max(1, Math.min(reduced.width, Math.ceil((left + region.width) / shrink)) - l),
      height: Math.max(1, Math.min(reduced.height, Math.ceil((top + region.height) / shrink)) - t),
    }
    // A pipeline that extracts after resizing drops a later `extend`, so the part is taken out first.
    const taken = await toRaw(
      sharp(photo.image, { limitInputPixels: MAX_INPUT_PIXELS }).resize(reduced.width, reduced.height, { fit: 'fill', fastShrinkOnLoad: true }).extract(part),
    )
    pipeline = sharp(taken.data, rawInput(taken))
    decoded = part
    extent = { left: -l, top: -t, right: reduced.width - l, bottom: reduced.height - t }
    m = {
      a: m.a * shrink,
      b: m.b * shrink,
      c: m.c * shrink,
      d: m.d * shrink,
      tx: m.tx + (m.a * l + m.c * t) * shrink,
      ty: m.ty + (m.b * l + m.d * t) * shrink,
    }
    shown *= shrink
  } else {
    m = { ...m, tx: m.tx + m.a * left + m.c * top, ty: m.ty + m.b * left + m.d * top }
    pipeline = sharp(photo.image, { limitInputPixels: MAX_INPUT_PIXELS }).extract(region)
  }
  if (shown < PRE_REDUCE_BELOW) {
    // Reduce to about twice the shown size, then let the affine step do the rest.
    const width = Math.max(1, Math.round(decoded.width * shown * 2))
    const height = Math.max(1, Math.round(decoded.height * shown * 2))
    pipeline = pipeline.resize(width, height, { fit: 'fill', kernel: 'lanczos3' })
    const sx = decoded.width / width
    const sy = decoded.height / height
    m = { a: m.a * sx, b: m.b * sx, c: m.c * sy, d: m.d * sy, tx: m.tx, ty: m.ty }
    extent = { left: extent.left / sx, top: extent.top / sy, right: extent.right / sx, bottom: extent.bottom / sy }
  }
  const source = await toDecoded(pipeline)
  // An opaque photo over the whole cell draws every pixel opaque; otherwise the pixels it does not reach are
  // transparent (a kept buffer holds an earlier cell's pixels).
  const opaque = source.channels === 3 && placementCovers(m, extent, rect)
  const buffer = pixelBuffers.take(rect.width * rect.height * 4)
  const placed = placeBilinear(source, m, extent, rect, opaque ? buffer : buffer.fill(0))
  return { rect, image: { data: placed, width: rect.width, height: rect.height }, opaque }
}

/** What a pipeline decodes, as 3 (RGB) or 4 (RGBA) channels: no alpha is added to an opaque photo. */
async function toDecoded(pipeline: Sharp): Promise<DecodedImage> {
  const { data, info } = await pipeline.toColourspace('srgb').raw().toBuffer({ resolveWithObject: true })
  if (info.channels === 3 || info.channels === 4) return { data, width: info.width, height: info.height, channels: info.channels }
  return toDecoded(sharp(data, { raw: { width: info.width, height: info.height, channels: info.channels } }).ensureAlpha())
}

/** A PatternImage cell: its tile repeated from the cell's top-left corner, at `scale`. */
async function renderPatternCell(cell: TemplateCell, scale: number): Promise<{ rect: Rect; image: RawImage }> {
  if (!cell.patternData) throw new Error(`Pattern cell ${cell.id} has no pattern`)
  const rect = cellClipRect(cell, scale)
  const tile = await scaledBaseImage(cell.patternData.tileUrl, patternTileSize(cell.patternData, scale))
  const image = await toRaw(blank(rect).composite([{ input: tile, tile: true, left: 0, top: 0 }]))
  return { rect, image }
}

type ColouredMask = DrawnLine & { side: OrnamentSide; line: PersonalLine }

/** Each ornament's line in its Text cell at `scale`: the shared layout and rasteriser (text-line.ts), the same bytes pixi draws. */
async function lineMasksOf(design: FrontDesign, scale: number): Promise<Map<string, ColouredMask>> {
  const drawn = await Promise.all(
    linesByCell(design.template, design.text).map(async ({ cell, line, side }) => {
      const font = await typefaceFont(line.typeface)
      return [cell.id, { ...drawLine(font, line, cell, scale), side, line }] as const
    }),
  )
  return new Map(drawn)
}

/** How each line reads on `sheet` (the front composed without the lines) under its glyphs (decision 058). */
export type LineContrastBySide = Partial<Record<OrnamentSide, LineContrast>>

function contrastOf(sheet: RawImage, lines: Iterable<ColouredMask>, into: LineContrastBySide) {
  for (const l of lines) {
    const measured = measureLineContrast(sheet, { rect: l.rect, glyphs: l.glyphs }, l.line)
    if (measured) into[l.side] = measured
  }
}

/** The line's layer (straight RGBA) laid over `image` (whose rect is `at`) with the "over" operator, in place, as a GPU blends it. */
function blendLineOver(image: RawImage, at: Rect, line: DrawnLine) {
  const { rect, mask, rgba } = line
  for (let y = 0; y < rect.height; y++) {
    const iy = rect.top + y - at.top
    if (iy < 0 || iy >= image.height) continue
    for (let x = 0; x < rect.width; x++) {
      const a = mask.alpha[y * rect.width + x]!
      const ix = rect.left + x - at.left
      if (a === 0 || ix < 0 || ix >= image.width) continue
      const s = (y * rect.width + x) * 4
      const i = (iy * image.width + ix) * 4
      const sa = rgba[s + 3]! / 255
      const da = image.data[i + 3]! / 255
      const outA = sa + da * (1 - sa)
      image.data[i] = Math.round((rgba[s]! * sa + image.data[i]! * da * (1 - sa)) / outA)
      image.data[i + 1] = Math.round((rgba[s + 1]! * sa + image.data[i + 1]! * da * (1 - sa)) / outA)
      image.data[i + 2] = Math.round((rgba[s + 2]! * sa + image.data[i + 2]! * da * (1 - sa)) / outA)
      image.data[i + 3] = Math.round(outA * 255)
    }
  }
}

function rawInput(image: RawImage) {
  return { raw: { width: image.width, height: image.height, channels: 4 as const } }
}

/**
 * The front print sheet at `scale` (1 = print resolution), as raw RGBA: cells beneath (by zIndex),
 * clipped by the mask; the frame; cells on top, clipped by the mask.
 */
export async function renderFront(design: FrontDesign, scale = 1): Promise<RawImage> {
  return (await renderFrontWithCells(design, scale)).image
}

/** `opaque`: every pixel of the cell's image is opaque (an opaque photo covering the whole cell). */
export type RenderedCell = { cellId: string; rect: Rect; image: RawImage; opaque?: boolean }

/**
 * A rendered front: the sheet, each photo cell as drawn (its pixels before the mask, for source crops), and how
 * each line reads on its photo, measured on the sheet before the line is laid on it (decision 058).
 */
export type RenderedFront = { image: RawImage; cells: RenderedCell[]; lineContrast: LineContrastBySide }

/** renderFront, also answering each photo cell as drawn and each line's contrast. */
export async function renderFrontWithCells(design: FrontDesign, scale = 1): Promise<RenderedFront> {
  if (hasStaticUnderlay(design.template)) return renderFrontFast(design, scale)
  return renderFrontGeneral(design, scale)
}

/**
 * A template whose pattern cells all lie beneath its photo cells and which has nothing on top of
 * the frame (all of ours): everything but the photos is the same for every design, so it is drawn
 * once per scale and cached, and each design only composites its photo cells' rectangles.
 */
function hasStaticUnderlay(template: PseudoTemplate): boolean {
  const photos = template.cells.filter((c) => c.type === 'Image')
  const patterns = template.cells.filter((c) => c.type === 'PatternImage')
  const overlap = (a: TemplateCell, b: TemplateCell) =>
    Math.abs(a.absoluteCenterX - b.absoluteCenterX) * 2 < a.width + b.width && Math.abs(a.absoluteCenterY - b.absoluteCenterY) * 2 < a.height + b.height
  const texts = template.cells.filter((c) => c.type === 'Text')
  const inside = (inner: TemplateCell, outer: TemplateCell) =>
    Math.abs(inner.absoluteCenterX - outer.absoluteCenterX) * 2 <= outer.width - inner.width &&
    Math.abs(inner.absoluteCenterY - outer.absoluteCenterY) * 2 <= outer.height - inner.height
  return (
    template.cells.every((c) => c.positionRelativeToTemplate === 'Beneath') &&
    texts.every((t) => photos.some((p) => inside(t, p) && t.zIndex > p.zIndex)) &&
    patterns.every((p) => photos.every((ph) => p.zIndex < ph.zIndex)) &&
    photos.every((a) => photos.every((b) => a === b || !overlap(a, b)))
  )
}

type Underlay = { size: { width: number; height: number }; patterns: RawImage; sheet: RawImage; mask: RawImage; frame: RawImage }
/** A handful of templates at a handful of scales; the most recent few are kept. */
const underlays = new PromiseCache<Underlay>(12)
let underlaysMade = 0
/** How many underlays this process has drawn (for tests: one per template and scale). */
export const underlayRenders = () => underlaysMade

/** Pattern cells cut to the silhouettes, and the same with the frame over them, for one template at one scale. */
function underlayOf(template: PseudoTemplate, scale: number): Promise<Underlay> {
  return underlays.get(`${template.id}@${scale}`, async () => {
    underlaysMade++
    const size = outputSize(template, scale)
    const [mask, frame] = await Promise.all([scaledBaseImageRaw(template.maskImageUrl, size), scaledBaseImageRaw(template.templateImageUrl, size)])
    const overlays = await Promise.all(
      drawOrder(template.cells).flatMap((layer) =>
        layer.kind === 'cell' && layer.cell.type === 'PatternImage' ? [patternOverlay(layer.cell, scale, size)] : [],
      ),
    )
    const patterns = await toRaw(blank(size).composite([...overlays, { input: mask.data, ...rawInput(mask), blend: 'dest-in' }]))
    const sheet = await toRaw(sharp(patterns.data, rawInput(patterns)).composite([{ input: frame.data, ...rawInput(frame) }]))
    return { size, patterns, sheet, mask, frame }
  })
}

async function patternOverlay(cell: TemplateCell, scale: number, size: { width: number; height: number }): Promise<OverlayOptions> {
  const rect = cellClipRect(cell, scale)
  const pattern = cell.patternData
  if (!pattern) throw new Error(`Pattern cell ${cell.id} has no pattern`)
  // A pattern over the whole sheet tiles straight onto it; a smaller one is tiled to its cell first.
  if (rect.left === 0 && rect.top === 0 && rect.width === size.width && rect.height === size.height) {
    return { input: await scaledBaseImage(pattern.tileUrl, patternTileSize(pattern, scale)), tile: true, gravity: 'northwest' }
  }
  const { image } = await renderPatternCell(cell, scale)
  return { input: image.data, ...rawInput(image), left: rect.left, top: rect.top }
}

async function renderFrontFast(design: FrontDesign, scale: number): Promise<RenderedFront> {
  const { template } = design
  const [underlay, lines] = await Promise.all([underlayOf(template, scale), lineMasksOf(design, scale)])
  const data = pixelBuffers.take(underlay.sheet.data.length)
  underlay.sheet.data.copy(data)
  const image: RawImage = { data, width: underlay.size.width, height: underlay.size.height }
  const cells = await Promise.all(
    photoCellsOf(template).map(async (cell) => {
      const photo = design.photos[cell.id]
      if (!photo) throw new Error(`No photo for cell ${cell.id}`)
      return { cellId: cell.id, ...(await renderPhotoCell(cell, photo, scale)) }
    }),
  )
  const textCellsOf = template.cells.filter((c) => c.type === 'Text')
  const lineContrast: LineContrastBySide = {}
  for (const cell of cells) {
    const photoCell = template.cells.find((c) => c.id === cell.cellId)!
    const over = textCellsOf.flatMap((text) => {
      const line = lines.get(text.id)
      return line && cellContains(cell.rect, line.rect) && text.zIndex >= photoCell.zIndex ? [line] : []
    })
    // (photo ∩ mask) with the patterns behind it and the frame over it, for this cell's pixels only.
    composeCell(image, cell, underlay, cellPixelsOf(underlay, cell.rect))
    if (over.length > 0) {
      // The sheet holds this cell composed without its lines: what the lines are read against.
      contrastOf(image, over, lineContrast)
      composeLines(image, cell, over, underlay)
    }
  }
  return { image, cells, lineContrast }
}

/**
 * The personal lines over a cell's photo: the pixels they cover are composed again (as composeCell does,
 * pixel by pixel) from a copy of just that part of the photo with the lines on it. The cell as drawn stays
 * the photo, for the source crops, and no copy of the whole cell is made.
 */
function composeLines(image: RawImage, cell: RenderedCell, over: ColouredMask[], underlay: Underlay) {
  const left = Math.min(...over.map((l) => l.rect.left))
  const top = Math.min(...over.map((l) => l.rect.top))
  const at: Rect = {
    left,
    top,
    width: Math.max(...over.map((l) => l.rect.left + l.rect.width)) - left,
    height: Math.max(...over.map((l) => l.rect.top + l.rect.height)) - top,
  }
  const patch: RawImage = { data: Buffer.allocUnsafe(at.width * at.height * 4), width: at.width, height: at.height }
  for (let y = 0; y < at.height; y++) {
    const from = ((at.top - cell.rect.top + y) * cell.rect.width + (at.left - cell.rect.left)) * 4
    cell.image.data.copy(patch.data, y * at.width * 4, from, from + at.width * 4)
  }
  for (const line of over) blendLineOver(patch, at, line)
  const { mask, patterns, frame } = underlay
  for (const { rect, mask: lineMask } of over) {
    for (let y = 0; y < rect.height; y++) {
      for (let x = 0; x < rect.width; x++) {
        if (lineMask.alpha[y * rect.width + x] === 0) continue
        const o = ((rect.top + y) * image.width + rect.left + x) * 4
        const maskAlpha = mask.data[o + 3]!
        // Outside the silhouette the sheet keeps its own pixel, as composeCell leaves it.
        if (maskAlpha === 0) continue
        blendPixel(image.data, o, patch.data, ((rect.top + y - at.top) * at.width + rect.left + x - at.left) * 4, maskAlpha, patterns.data, o, frame.data, o)
      }
    }
  }
}

/**
 * Where a cell's pixels need blending, from the template alone (decision 047): outside the silhouette
 * (mask alpha 0) the sheet already holds the answer; inside it, where the frame is clear, an opaque photo
 * pixel is the answer; only the rest (the silhouette's soft edge and under the frame) is blended.
 */
type CellPixels = { runs: Int32Array; blended: Int32Array }

const cellPixelsCache = new WeakMap<Underlay, Map<string, CellPixels>>()

function cellPixelsOf(underlay: Underlay, rect: Rect): CellPixels {
  let byRect = cellPixelsCache.get(underlay)
  if (!byRect) cellPixelsCache.set(underlay, (byRect = new Map()))
  const key = `${rect.left},${rect.top},${rect.width},${rect.height}`
  const known = byRect.get(key)
  if (known) return known
  const runs: number[] = []
  const blended: number[] = []
  const { mask, frame } = underlay
  for (let y = 0; y < rect.height; y++) {
    let start = -1
    for (let x = 0; x <= rect.width; x++) {
      let clear = false
      if (x < rect.width) {
        const i = ((rect.top + y) * mask.width + rect.left + x) * 4 + 3
        const m = mask.data[i]!
        const f = frame.data[i]!
        clear = m === 255 && f === 0
        if (!clear && m !== 0) blended.push(y * rect.width + x)
      }
      if (clear && start < 0) start = x
      else if (!clear && start >= 0) {
        runs.push(y, start, x)
        start = -1
      }
    }
  }
  const pixels = { runs: Int32Array.from(runs), blended: Int32Array.from(blended) }
  byRect.set(key, pixels)
  return pixels
}

/**
 * frame over (patterns dest-over (photo dest-in mask)) for one pixel, as sharp's composite draws it, into
 * `out` at `o`: straight (not premultiplied) RGBA bytes in, the same out.
 */
function blendPixel(out: Buffer, o: number, photo: Buffer, p: number, maskAlpha: number, patterns: Buffer, t: number, frame: Buffer, f: number) {
  const a1 = (photo[p + 3]! / 255) * (maskAlpha / 255)
  const at = patterns[t + 3]! / 255
  const a2 = a1 + at * (1 - a1)
  const af = frame[f + 3]! / 255
  const a3 = af + a2 * (1 - af)
  if (a3 <= 0) {
    out.writeUInt32LE(0, o)
    return
  }
  for (let c = 0; c < 3; c++) {
    // Premultiplied: the photo under the mask, the patterns behind it, the frame over both.
    const c2 = photo[p + c]! * a1 + patterns[t + c]! * at * (1 - a1)
    const c3 = frame[f + c]! * af + c2 * (1 - af)
    out[o + c] = Math.min(255, Math.max(0, Math.round(c3 / a3)))
  }
  out[o + 3] = Math.round(a3 * 255)
}

/** The cell's photo (`drawn`, rect-sized RGBA) masked and framed into the sheet `image`, in place. */
function composeCell(image: RawImage, cell: Pick<RenderedCell, 'image' | 'rect' | 'opaque'>, underlay: Underlay, pixels: CellPixels) {
  const { image: drawn, rect } = cell
  const { mask, patterns, frame } = underlay
  const at = (x: number, y: number) => ((rect.top + y) * image.width + rect.left + x) * 4
  const { runs, blended } = pixels
  for (let r = 0; r < runs.length; r += 3) {
    const y = runs[r]!
    const from = runs[r + 1]!
    const to = runs[r + 2]!
    const src = (y * rect.width + from) * 4
    // A cell known to be opaque needs no look at its alpha.
    let opaque = true
    if (!cell.opaque)
      for (let i = src + 3; i < src + (to - from) * 4; i += 4) {
        if (drawn.data[i] !== 255) {
          opaque = false
          break
        }
      }
    if (opaque) {
      drawn.data.copy(image.data, at(from, y), src, src + (to - from) * 4)
      continue
    }
    for (let x = from; x < to; x++) {
      const o = at(x, y)
      blendPixel(image.data, o, drawn.data, (y * rect.width + x) * 4, 255, patterns.data, o, frame.data, o)
    }
  }
  for (let k = 0; k < blended.length; k++) {
    const local = blended[k]!
    const x = local % rect.width
    const y = (local - x) / rect.width
    const o = at(x, y)
    blendPixel(image.data, o, drawn.data, local * 4, mask.data[o + 3]!, patterns.data, o, frame.data, o)
  }
}

function cellContains(outer: Rect, inner: Rect) {
  return (
    inner.left >= outer.left &&
    inner.top >= outer.top &&
    inner.left + inner.width <= outer.left + outer.width &&
    inner.top + inner.height <= outer.top + outer.height
  )
}

function photoCellsOf(template: PseudoTemplate) {
  return drawOrder(template.cells).flatMap((layer) => (layer.kind === 'cell' && layer.cell.type === 'Image' ? [layer.cell] : []))
}

/** Any template: every layer composited over the whole sheet. */
export async function renderFrontGeneral(design: FrontDesign, scale: number): Promise<RenderedFront> {
  const { template } = design
  const size = outputSize(template, scale)
  const [mask, frame] = await Promise.all([scaledBaseImageRaw(template.maskImageUrl, size), scaledBaseImageRaw(template.templateImageUrl, size)])
  const layers = drawOrder(template.cells)
  const lines = await lineMasksOf(design, scale)
  const rendered = await Promise.all(
    layers.map(async (layer): Promise<{ overlay: OverlayOptions; cell?: RenderedCell; text?: boolean } | null> => {
      if (layer.kind === 'template') return null
      const { cell } = layer
      if (cell.type === 'PatternImage') return { overlay: await patternOverlay(cell, scale, size) }
      if (cell.type === 'Text') {
        const line = lines.get(cell.id)
        if (!line) return null
        const rgba = Buffer.from(line.rgba)
        return {
          overlay: { input: rgba, raw: { width: line.rect.width, height: line.rect.height, channels: 4 }, left: line.rect.left, top: line.rect.top },
          text: true,
        }
      }
      const photo = design.photos[cell.id]
      if (!photo) throw new Error(`No photo for cell ${cell.id}`)
      const { rect, image } = await renderPhotoCell(cell, photo, scale)
      return { overlay: { input: image.data, ...rawInput(image), left: rect.left, top: rect.top }, cell: { cellId: cell.id, rect, image } }
    }),
  )
  // One pass: cells beneath, the mask cutting them to the silhouettes, the frame; cells on top
  // (none of our templates has one) are masked on their own and laid over that.
  const at = layers.findIndex((l) => l.kind === 'template')
  const beneath = rendered.slice(0, at).flatMap((r) => (r ? [r.overlay] : []))
  const onTop = rendered.slice(at + 1).flatMap((r) => (r ? [r.overlay] : []))
  const maskOverlay: OverlayOptions = { input: mask.data, ...rawInput(mask), blend: 'dest-in' }
  const overlays: OverlayOptions[] = [...beneath, maskOverlay, { input: frame.data, ...rawInput(frame) }]
  if (onTop.length > 0) {
    const masked = await toRaw(blank(size).composite([...onTop, maskOverlay]))
    overlays.push({ input: masked.data, ...rawInput(masked) })
  }
  const cells = rendered.flatMap((r) => (r?.cell ? [r.cell] : []))
  const lineContrast: LineContrastBySide = {}
  if (lines.size > 0) {
    // The same sheet without the lines, to read them against (a second composite; none of our templates takes this path).
    const texts = new Set(rendered.flatMap((r) => (r?.text ? [r.overlay] : [])))
    const plainOnTop = onTop.filter((o) => !texts.has(o))
    const plain: OverlayOptions[] = [...beneath.filter((o) => !texts.has(o)), maskOverlay, { input: frame.data, ...rawInput(frame) }]
    if (plainOnTop.length > 0) {
      const masked = await toRaw(blank(size).composite([...plainOnTop, maskOverlay]))
      plain.push({ input: masked.data, ...rawInput(masked) })
    }
    contrastOf(await toRaw(blank(size).composite(plain)), lines.values(), lineContrast)
  }
  return { image: await toRaw(blank(size).composite(overlays)), cells, lineContrast }
}

/**
 * zlib level 1 for print files: lossless as any level (the printed pixels are the same). Level 4 was chosen when the
 * encode was the largest part of a preview (decision 056); print files are now made once per design bought, in the
 * background (decision 078), where the encode is still a fifth of a trip's CPU: level 1 takes 60 % less CPU than 4
 * for 65 % more bytes (a tree sheet 145 → 57 ms, 3.1 → 5.1 MB on this machine), which the printer fetches once.
 */
export const PRINT_PNG_COMPRESSION = 1

export async function encodePng(image: RawImage, compressionLevel = PRINT_PNG_COMPRESSION): Promise<Buffer> {
  return sharp(image.data, rawInput(image)).png({ compressionLevel }).toBuffer()
}
