/**
 * Smart placement (issue 32, item 2; decision 059): the transform a photo starts with in a cell, so that
 * its subject — the focal point the API found when the photo was stored — sits where the cell wants a
 * subject (the cell's `focus`). Pure maths over layout.ts: what it returns is an ordinary PhotoTransform,
 * already clamped, so the shopper moves it like any other and Reset returns to it.
 *
 * The photo starts unrotated. Its zoom stays 1 (the plain cover crop) unless the subject cannot be brought
 * within FOCUS_TOLERANCE of its target by moving alone; then it is the least zoom that can, at most
 * SMART_MAX_ZOOM and never so much that the print drops below MIN_PRINT_DPI when zoom 1 is above it. When
 * even that limit cannot, the photo is zoomed to the limit only if that at least halves how far off the
 * subject lands (across plus down); otherwise it stays at zoom 1, moved as near as it goes.
 */
import { MAX_ZOOM } from '../catalogue/ornaments'
import { readFocalPoint, type FocalPoint } from '../catalogue/focal-point'
import { clampTransform, coverScale, effectiveDpi, IDENTITY_TRANSFORM, MIN_PRINT_DPI, type PhotoTransform, type Size } from './layout'

/** Where a cell wants a photo's subject, as fractions 0–1 of the cell's width (x) and height (y). */
export type CellFocus = FocalPoint

/** A cell without a focus of its own wants the subject at its centre. */
export const CENTRE_FOCUS: CellFocus = Object.freeze({ x: 0.5, y: 0.5 })

/**
 * Near enough, as a fraction of the cell's width or height: a subject this close to its target is not
 * worth zooming in for (it is moved as close as it goes at zoom 1).
 */
export const FOCUS_TOLERANCE = 0.1

/** The most smart placement zooms in: enough to bring an edge subject inwards, not so much that the photo is lost. */
export const SMART_MAX_ZOOM = 1.6

export { readFocalPoint, type FocalPoint }

export type FocalCell = Size & { focus?: CellFocus }
export type FocalPhoto = Size & { focalPoint?: FocalPoint | null }

/**
 * The least scale (template px per photo px) at which, along one axis, the subject at fraction `f` of the
 * photo's `length` can sit within `slack` (a fraction of the cell) of fraction `t` of the cell's `cell`
 * length while the photo still covers the cell: the cell on either side of the target must be covered by
 * the photo on that side of the subject. Infinity when no scale can (a subject on the photo's very edge).
 */
function leastScale(f: number, t: number, slack: number, length: number, cell: number): number {
  const before = Math.max(0, t - slack) * cell
  const after = Math.max(0, 1 - t - slack) * cell
  const need = (cellPart: number, photoPart: number) => (cellPart === 0 ? 0 : photoPart === 0 ? Infinity : cellPart / photoPart)
  return Math.max(need(before, f * length), need(after, (1 - f) * length))
}

/** The most this photo may be zoomed in this cell by smart placement. */
export function smartZoomLimit(cell: Size, photo: Size): number {
  const atOne = effectiveDpi(cell, photo, IDENTITY_TRANSFORM)
  // Zoom divides the dpi; a photo already soft at zoom 1 is not zoomed at all.
  const byDpi = Math.max(1, atOne / MIN_PRINT_DPI)
  return Math.min(SMART_MAX_ZOOM, MAX_ZOOM, byDpi)
}

/**
 * The transform a photo starts with in a cell: its focal point at the cell's focus when that can be
 * reached, else as near as it goes. A photo without a focal point (stored before they were found) starts
 * centred, as before: IDENTITY_TRANSFORM.
 */
export function smartTransform(cell: FocalCell, photo: FocalPhoto): PhotoTransform {
  const focal = readFocalPoint(photo.focalPoint)
  if (!focal || !(photo.width > 0) || !(photo.height > 0) || !(cell.width > 0) || !(cell.height > 0)) return IDENTITY_TRANSFORM
  const target = readFocalPoint(cell.focus) ?? CENTRE_FOCUS
  const cover = coverScale(cell, photo, 0)
  const wanted = Math.max(
    leastScale(focal.x, target.x, FOCUS_TOLERANCE, photo.width, cell.width),
    leastScale(focal.y, target.y, FOCUS_TOLERANCE, photo.height, cell.height),
  )
  const limit = smartZoomLimit(cell, photo)
  const wantedZoom = Math.max(1, wanted / cover)
  if (wantedZoom <= limit) return placedAt(cell, photo, focal, target, wantedZoom)
  // Out of reach even at the limit: zoom that far only when it at least halves how far off the subject is,
  // across plus down (a subject on the photo's very edge comes no nearer however far the photo is zoomed).
  const atOne = placedAt(cell, photo, focal, target, 1)
  const atLimit = placedAt(cell, photo, focal, target, limit)
  const off = (t: PhotoTransform) => distanceFromTarget(cell, photo, focal, target, t)
  return off(atLimit) <= off(atOne) / 2 ? atLimit : atOne
}

/** The focal point moved as near the target as the cell's cover allows at `zoom`. */
function placedAt(cell: Size, photo: Size, focal: FocalPoint, target: CellFocus, zoom: number): PhotoTransform {
  const scale = coverScale(cell, photo, 0) * zoom
  // The photo's centre moves from the cell's centre by the target's offset less the subject's offset from the photo's centre.
  const x = (target.x - 0.5) * cell.width - (focal.x - 0.5) * photo.width * scale
  const y = (target.y - 0.5) * cell.height - (focal.y - 0.5) * photo.height * scale
  return clampTransform(cell, photo, { x, y, zoom, rotation: 0 })
}

/** How far the focal point lands from the target: across plus down, as fractions of the cell's width and height. */
function distanceFromTarget(cell: Size, photo: Size, focal: FocalPoint, target: CellFocus, t: PhotoTransform): number {
  const landed = focalPointInCell(cell, { ...photo, focalPoint: focal }, t)
  return Math.abs(landed.x - target.x) + Math.abs(landed.y - target.y)
}

/** Where the photo's focal point lands for transform `t` (unrotated), as fractions of the cell: for tests and screenshots. */
export function focalPointInCell(cell: Size, photo: Size & { focalPoint: FocalPoint }, t: PhotoTransform): FocalPoint {
  const scale = coverScale(cell, photo, 0) * t.zoom
  return {
    x: 0.5 + (t.x + (photo.focalPoint.x - 0.5) * photo.width * scale) / cell.width,
    y: 0.5 + (t.y + (photo.focalPoint.y - 0.5) * photo.height * scale) / cell.height,
  }
}
