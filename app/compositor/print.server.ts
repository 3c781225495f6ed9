/**
 * The print renderer: the same layout as the pixi preview (layout.ts), drawn with sharp from the
 * photos' full-resolution originals. At scale 1 it makes the print file (template pixels, 300 dpi);
 * at the preview's scale it makes the same pixels the browser shows (the agreement test).
 *
 * Placement of a photo is one libvips affine step (enlarging and rotation together, bilinear),
 * because sharp's resize shifts content by half a pixel when enlarging. Only a photo that would be
 * shrunk below half size is first reduced with a proper filter, so big originals do not alias.
 */
import sharp, { type OverlayOptions, type Sharp } from 'sharp'
import type { PseudoTemplate, TemplateCell } from '../lib/ornaments'
import { scaledBaseImage } from './base-images.server'
import {
  cellClipRect,
  clampTransform,
  drawOrder,
  outputSize,
  patternTileSize,
  photoMatrix,
  scaleMatrix,
  type Matrix,
  type PhotoTransform,
  type Rect,
} from './layout'

export type RawImage = { data: Buffer; width: number; height: number }

export type PrintPhoto = {
  /** Encoded image bytes (the stored original rendition). */
  image: Buffer
  transform: PhotoTransform
}

export type FrontDesign = {
  template: PseudoTemplate
  /** Photo per Image cell id. */
  photos: Record<string, PrintPhoto>
}

const TRANSPARENT = { r: 0, g: 0, b: 0, alpha: 0 }
const MAX_INPUT_PIXELS = 100_000_000
/**
 * A transparent border around the photo before it is placed. libvips sizes its output window from
 * the photo's corners but positions pixels by their centres, so along a mirrored or turned axis the
 * last pixel row can fall just outside the window; the border keeps every real pixel inside it.
 * It repeats the edge pixels, as a GPU clamps a texture, so an exactly covering photo has no seam.
 */
const PAD = { top: 4, bottom: 4, left: 4, right: 4, extendWith: 'copy' as const }
/** A photo shown at less than this scale is reduced first (lanczos) and then placed. */
const PRE_REDUCE_BELOW = 0.5

function blank(size: { width: number; height: number }) {
  return sharp({ create: { width: size.width, height: size.height, channels: 4, background: TRANSPARENT } })
}

async function toRaw(pipeline: Sharp): Promise<RawImage> {
  const { data, info } = await pipeline.ensureAlpha().raw().toBuffer({ resolveWithObject: true })
  return { data, width: info.width, height: info.height }
}

const roundHalfAway = (n: number) => Math.sign(n) * Math.round(Math.abs(n))

/**
 * Draw `source` through `m` (source pixels → output pixels, continuous corner coordinates, as pixi
 * draws a sprite) and keep only the output pixels in `rect`. libvips places pixel centres on whole
 * numbers and starts its output window at the transformed corners' minimum rounded half away from
 * zero (C's round), without the offset; both are accounted for here and pinned by
 * tests/unit/print-placement.test.ts.
 */
async function placeThroughMatrix(source: RawImage, m: Matrix, rect: Rect): Promise<RawImage> {
  // Centre convention: X + ½ = M·(x + ½)  ⇒  X = L·x + (t + L·(½, ½) − (½, ½)).
  const odx = m.tx + (m.a + m.c) / 2 - 0.5
  const ody = m.ty + (m.b + m.d) / 2 - 0.5
  const kx = Math.floor(odx)
  const ky = Math.floor(ody)
  const corners = [
    [0, 0],
    [source.width, 0],
    [0, source.height],
    [source.width, source.height],
  ].map(([u, v]) => ({ x: m.a * u! + m.c * v!, y: m.b * u! + m.d * v! }))
  const windowLeft = roundHalfAway(Math.min(...corners.map((p) => p.x))) + kx
  const windowTop = roundHalfAway(Math.min(...corners.map((p) => p.y))) + ky
  const placed = await toRaw(
    sharp(source.data, { raw: { width: source.width, height: source.height, channels: 4 } }).affine(
      [
        [m.a, m.c],
        [m.b, m.d],
      ],
      { odx: odx - kx, ody: ody - ky, interpolator: sharp.interpolators.bilinear, background: TRANSPARENT },
    ),
  )
  // Copy the rect out of the placed window, leaving anything the window does not reach transparent.
  const out = Buffer.alloc(rect.width * rect.height * 4)
  const fromX = Math.max(rect.left, windowLeft)
  const toX = Math.min(rect.left + rect.width, windowLeft + placed.width)
  for (let y = Math.max(rect.top, windowTop); y < Math.min(rect.top + rect.height, windowTop + placed.height); y++) {
    if (toX <= fromX) break
    const src = ((y - windowTop) * placed.width + (fromX - windowLeft)) * 4
    const dst = ((y - rect.top) * rect.width + (fromX - rect.left)) * 4
    placed.data.copy(out, dst, src, src + (toX - fromX) * 4)
  }
  return { data: out, width: rect.width, height: rect.height }
}

/** One photo in its cell, at `scale` output pixels per template pixel: the cell's pixels only. */
export async function renderPhotoCell(cell: TemplateCell, photo: PrintPhoto, scale: number): Promise<{ rect: Rect; image: RawImage }> {
  const input = sharp(photo.image, { limitInputPixels: MAX_INPUT_PIXELS })
  const meta = await input.metadata()
  if (!meta.width || !meta.height) throw new Error('The photo has no size')
  const size = { width: meta.width, height: meta.height }
  const transform = clampTransform(cell, size, photo.transform)
  let m = scaleMatrix(photoMatrix(cell, size, transform), scale)
  const shown = Math.hypot(m.a, m.b)
  let source: RawImage
  if (shown < PRE_REDUCE_BELOW) {
    // Reduce to about twice the shown size, then let the affine step do the rest.
    const width = Math.max(1, Math.round(size.width * shown * 2))
    const height = Math.max(1, Math.round(size.height * shown * 2))
    source = await toRaw(input.resize(width, height, { fit: 'fill', kernel: 'lanczos3' }).extend(PAD))
    const sx = size.width / width
    const sy = size.height / height
    m = { a: m.a * sx, b: m.b * sx, c: m.c * sy, d: m.d * sy, tx: m.tx, ty: m.ty }
  } else {
    source = await toRaw(input.extend(PAD))
  }
  // The padding moves the photo's pixels by PAD.top along both axes of the source.
  m = { ...m, tx: m.tx - (m.a + m.c) * PAD.top, ty: m.ty - (m.b + m.d) * PAD.top }
  const rect = cellClipRect(cell, scale)
  return { rect, image: await placeThroughMatrix(source, m, rect) }
}

/** A PatternImage cell: its tile repeated from the cell's top-left corner, at `scale`. */
async function renderPatternCell(cell: TemplateCell, scale: number): Promise<{ rect: Rect; image: RawImage }> {
  if (!cell.patternData) throw new Error(`Pattern cell ${cell.id} has no pattern`)
  const rect = cellClipRect(cell, scale)
  const tile = await scaledBaseImage(cell.patternData.tileUrl, patternTileSize(cell.patternData, scale))
  const image = await toRaw(blank(rect).composite([{ input: tile, tile: true, left: 0, top: 0 }]))
  return { rect, image }
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

export type RenderedCell = { cellId: string; rect: Rect; image: RawImage }

/** renderFront, also answering each photo cell as drawn (its pixels before the mask), for source crops. */
export async function renderFrontWithCells(design: FrontDesign, scale = 1): Promise<{ image: RawImage; cells: RenderedCell[] }> {
  const { template } = design
  const size = outputSize(template, scale)
  const [mask, frame] = await Promise.all([scaledBaseImage(template.maskImageUrl, size), scaledBaseImage(template.templateImageUrl, size)])
  const layers = drawOrder(template.cells)
  const rendered = await Promise.all(
    layers.map(async (layer) => {
      if (layer.kind === 'template') return null
      const { cell } = layer
      if (cell.type === 'PatternImage') return renderPatternCell(cell, scale)
      const photo = design.photos[cell.id]
      if (!photo) throw new Error(`No photo for cell ${cell.id}`)
      return renderPhotoCell(cell, photo, scale)
    }),
  )
  const groups: OverlayOptions[][] = [[]]
  const composites: OverlayOptions[] = []
  layers.forEach((layer, i) => {
    const r = rendered[i]
    if (layer.kind === 'template') groups.push([], [])
    else if (r) groups[groups.length - 1]!.push({ input: r.image.data, ...rawInput(r.image), left: r.rect.left, top: r.rect.top })
  })
  // groups: [beneath cells], [] (template slot), [on-top cells]
  const masked = async (overlays: OverlayOptions[]) =>
    overlays.length === 0 ? null : toRaw(blank(size).composite([...overlays, { input: mask, blend: 'dest-in' }]))
  const [beneath, onTop] = await Promise.all([masked(groups[0]!), masked(groups[2] ?? [])])
  if (beneath) composites.push({ input: beneath.data, ...rawInput(beneath) })
  composites.push({ input: frame })
  if (onTop) composites.push({ input: onTop.data, ...rawInput(onTop) })
  const cells = layers.flatMap((layer, i) => {
    const r = rendered[i]
    return layer.kind === 'cell' && layer.cell.type === 'Image' && r ? [{ cellId: layer.cell.id, ...r }] : []
  })
  return { image: await toRaw(blank(size).composite(composites)), cells }
}

/** A back-side design at `scale`, as raw RGBA. */
export async function renderBack(backsideUrl: string, template: { width: number; height: number }, scale = 1): Promise<RawImage> {
  const size = outputSize(template, scale)
  return toRaw(sharp(await scaledBaseImage(backsideUrl, size)))
}

export async function encodePng(image: RawImage, compressionLevel = 6): Promise<Buffer> {
  return sharp(image.data, rawInput(image)).png({ compressionLevel }).toBuffer()
}
