/**
 * The one layout both renderers draw: pure maths from (template, cell, photo size, the shopper's
 * transform) to exact placement and draw order. The pixi preview (pixi-preview.ts) and the sharp
 * print renderer (print.server.ts) both take their numbers from here, so what the shopper sees is
 * what is printed.
 *
 * Coordinates are template pixels (the print sheet is 2670 px wide), continuous, with (0, 0) at the
 * top-left corner of the top-left pixel. A photo's own coordinates are its pixels, likewise.
 */
import { ORIGINAL_LONG_EDGE } from '../catalogue/photo-constants'
import { MAX_ZOOM, PRINT_DPI, type CellPosition, type CellType } from '../catalogue/ornaments'

export type Size = { width: number; height: number }

export type LayoutCell = {
  id: string
  type: CellType
  absoluteCenterX: number
  absoluteCenterY: number
  width: number
  height: number
  positionRelativeToTemplate: CellPosition
  zIndex: number
}

/**
 * The shopper's adjustment of one photo inside its cell: `x`, `y` move the photo's centre away from
 * the cell's centre (template pixels); `zoom` ≥ 1 enlarges it beyond the smallest size that covers
 * the cell; `rotation` turns it clockwise, in degrees.
 */
export type PhotoTransform = { x: number; y: number; zoom: number; rotation: number }

export const IDENTITY_TRANSFORM: PhotoTransform = Object.freeze({ x: 0, y: 0, zoom: 1, rotation: 0 })

/** 2-D affine matrix in pixi's layout: X = a·u + c·v + tx, Y = b·u + d·v + ty. */
export type Matrix = { a: number; b: number; c: number; d: number; tx: number; ty: number }

export type Rect = { left: number; top: number; width: number; height: number }

const RAD = Math.PI / 180

/** Degrees folded into (-180, 180]. */
export function normaliseRotation(degrees: number): number {
  const r = ((((degrees + 180) % 360) + 360) % 360) - 180
  return r === -180 ? 180 : r
}

/** Width and height of the cell's bounding box seen in the photo's rotated frame. */
function cellExtentInPhotoFrame(cell: Size, rotation: number): Size {
  const cos = Math.abs(Math.cos(rotation * RAD))
  const sin = Math.abs(Math.sin(rotation * RAD))
  return { width: cell.width * cos + cell.height * sin, height: cell.width * sin + cell.height * cos }
}

/** The smallest scale (template px per photo px) at which the photo, turned by `rotation`, covers the cell. */
export function coverScale(cell: Size, photo: Size, rotation: number): number {
  const extent = cellExtentInPhotoFrame(cell, rotation)
  return Math.max(extent.width / photo.width, extent.height / photo.height)
}

/** Template px per photo px for this transform. */
export function photoScale(cell: Size, photo: Size, t: PhotoTransform): number {
  return coverScale(cell, photo, t.rotation) * t.zoom
}

/**
 * The nearest transform that keeps the photo covering its whole cell: zoom within [1, MAX_ZOOM],
 * rotation normalised, and the offset pulled back so no corner of the cell is left empty.
 */
export function clampTransform(cell: Size, photo: Size, t: PhotoTransform): PhotoTransform {
  const finite = (n: number, fallback: number) => (Number.isFinite(n) ? n : fallback)
  const rotation = normaliseRotation(finite(t.rotation, 0))
  const zoom = Math.min(MAX_ZOOM, Math.max(1, finite(t.zoom, 1)))
  const scale = coverScale(cell, photo, rotation) * zoom
  const extent = cellExtentInPhotoFrame(cell, rotation)
  const slackX = Math.max(0, (photo.width * scale - extent.width) / 2)
  const slackY = Math.max(0, (photo.height * scale - extent.height) / 2)
  // The cell's centre relative to the photo's centre, in the photo's (rotated) frame, must stay within the slack.
  const cos = Math.cos(rotation * RAD)
  const sin = Math.sin(rotation * RAD)
  const x = finite(t.x, 0)
  const y = finite(t.y, 0)
  const qx = -(cos * x + sin * y)
  const qy = -(-sin * x + cos * y)
  const cx = Math.min(slackX, Math.max(-slackX, qx))
  const cy = Math.min(slackY, Math.max(-slackY, qy))
  // Back to the template frame: offset = -R(θ)·q.
  // (+ 0 turns a negative zero into zero.)
  return { x: -(cos * cx - sin * cy) + 0, y: -(sin * cx + cos * cy) + 0, zoom, rotation }
}

/** Photo pixels → template pixels for a photo placed in its cell with transform `t` (assumed clamped). */
export function photoMatrix(cell: LayoutCell, photo: Size, t: PhotoTransform): Matrix {
  const s = photoScale(cell, photo, t)
  const cos = Math.cos(t.rotation * RAD)
  const sin = Math.sin(t.rotation * RAD)
  const a = s * cos
  const b = s * sin
  const c = -s * sin
  const d = s * cos
  const centreX = cell.absoluteCenterX + t.x
  const centreY = cell.absoluteCenterY + t.y
  const u = photo.width / 2
  const v = photo.height / 2
  return { a, b, c, d, tx: centreX - (a * u + c * v), ty: centreY - (b * u + d * v) }
}

/** The same mapping drawn at `scale` output pixels per template pixel. */
export function scaleMatrix(m: Matrix, scale: number): Matrix {
  return { a: m.a * scale, b: m.b * scale, c: m.c * scale, d: m.d * scale, tx: m.tx * scale, ty: m.ty * scale }
}

export function applyMatrix(m: Matrix, u: number, v: number): { x: number; y: number } {
  return { x: m.a * u + m.c * v + m.tx, y: m.b * u + m.d * v + m.ty }
}

export function invertMatrix(m: Matrix): Matrix {
  const det = m.a * m.d - m.b * m.c
  const a = m.d / det
  const b = -m.b / det
  const c = -m.c / det
  const d = m.a / det
  return { a, b, c, d, tx: -(a * m.tx + c * m.ty), ty: -(b * m.tx + d * m.ty) }
}

/** Output size of a template drawn at `scale`. */
export function outputSize(template: Size, scale: number): Size {
  return { width: Math.round(template.width * scale), height: Math.round(template.height * scale) }
}

/**
 * The output pixels a cell owns at `scale`: its edges rounded to whole pixels, so both renderers
 * clip to exactly the same pixels (a pixel belongs to the cell when its centre is inside).
 */
export function cellClipRect(cell: LayoutCell, scale: number): Rect {
  const left = Math.round((cell.absoluteCenterX - cell.width / 2) * scale)
  const top = Math.round((cell.absoluteCenterY - cell.height / 2) * scale)
  const right = Math.round((cell.absoluteCenterX + cell.width / 2) * scale)
  const bottom = Math.round((cell.absoluteCenterY + cell.height / 2) * scale)
  return { left, top, width: right - left, height: bottom - top }
}

export type Layer<C extends LayoutCell = LayoutCell> = { kind: 'cell'; cell: C } | { kind: 'template' }

/** Draw order: Beneath cells by zIndex, the template image, then OnTop cells by zIndex. */
export function drawOrder<C extends LayoutCell>(cells: readonly C[]): Layer<C>[] {
  const byZ = (a: C, b: C) => a.zIndex - b.zIndex
  const beneath = cells.filter((c) => c.positionRelativeToTemplate === 'Beneath').sort(byZ)
  const onTop = cells.filter((c) => c.positionRelativeToTemplate === 'OnTop').sort(byZ)
  return [...beneath.map((cell) => ({ kind: 'cell' as const, cell })), { kind: 'template' as const }, ...onTop.map((cell) => ({ kind: 'cell' as const, cell }))]
}

/** A pattern tile's size in output pixels at `scale`: whole pixels, so both renderers repeat it identically. */
export function patternTileSize(pattern: { tileWidth: number; tileHeight: number }, scale: number): Size {
  return { width: Math.max(1, Math.round(pattern.tileWidth * scale)), height: Math.max(1, Math.round(pattern.tileHeight * scale)) }
}

// ---------------------------------------------------------------------------------------------
// Print quality

/**
 * Below this many photo pixels per printed inch the print looks soft; the designer says so. The
 * sheet prints at PRINT_DPI (300), so 150 dpi means each photo pixel is stretched over two print
 * pixels. See docs/decisions/007-one-layout-two-renderers.md; the grades built on it are in
 * print-quality.ts (decision 060).
 */
export const MIN_PRINT_DPI = 150

/** Below this the server refuses to print at all: the photo would be a few smeared pixels. */
export const MIN_PRINTABLE_DPI = 30

/** The size of the stored original that is printed: the photo's size, at most ORIGINAL_LONG_EDGE on its long edge. */
export function printedSize(photo: Size): Size {
  const k = Math.min(1, ORIGINAL_LONG_EDGE / Math.max(photo.width, photo.height))
  return { width: Math.round(photo.width * k), height: Math.round(photo.height * k) }
}

/** Photo pixels per printed inch for this placement, from the size of the original that is printed. */
export function effectiveDpi(cell: Size, photo: Size, t: PhotoTransform): number {
  return PRINT_DPI / photoScale(cell, printedSize(photo), t)
}
