/**
 * How sharp a photo will print in its cell, graded (issue 32, item 3; docs/decisions/060-print-quality-grades.md).
 * Pure, and used by both the designer (as the shopper zooms) and the server (which refuses below the floor and
 * answers each cell's grade with the preview), so the two cannot disagree.
 *
 * The grade comes from the effective resolution at print size (`effectiveDpi`: photo pixels per printed inch,
 * from the size of the original that is printed). The sheet prints at PRINT_DPI (300):
 * - great ≥ GREAT_PRINT_DPI (240): at most 1.25 print pixels per photo pixel; no softness to see on the glossy print;
 * - good ≥ MIN_PRINT_DPI (150): up to two print pixels per photo pixel; fine at arm's length (decision 007);
 * - soft below that, down to MIN_PRINTABLE_DPI (30): it prints, but edges and faces look soft;
 * - refused below MIN_PRINTABLE_DPI: a few smeared pixels; the server will not print it.
 */
import { clampTransform, effectiveDpi, MIN_PRINT_DPI, MIN_PRINTABLE_DPI, normaliseRotation, type PhotoTransform, type Size } from './layout'

export type PrintGrade = 'great' | 'good' | 'soft' | 'refused'

/** Grades from best to worst; a grade's index is its rank (a larger index is worse). */
export const PRINT_GRADES = ['great', 'good', 'soft', 'refused'] as const satisfies readonly PrintGrade[]

/** At or above this many photo pixels per printed inch a photo prints as sharp as the sheet allows to the eye. */
export const GREAT_PRINT_DPI = 240
/** At or above this a photo prints well; below it the designer says it may look soft (the old warning's line). */
export const GOOD_PRINT_DPI = MIN_PRINT_DPI
/** Below this the server refuses to print (unchanged). */
export const REFUSED_BELOW_DPI = MIN_PRINTABLE_DPI

export type PrintQuality = {
  grade: PrintGrade
  /** Photo pixels per printed inch at this placement (exactly `effectiveDpi` of the clamped transform). */
  dpi: number
  /** Why it may look soft or cannot be printed: the photo's size, the zoom, the dpi. Soft and refused only. */
  reason?: string
  /** What to do about it: zoom out (to how far), straighten, or another photo. Soft and refused only. */
  advice?: string
}

/** The grade of an effective resolution. */
export function gradeOfDpi(dpi: number): PrintGrade {
  if (dpi >= GREAT_PRINT_DPI) return 'great'
  if (dpi >= GOOD_PRINT_DPI) return 'good'
  if (dpi >= REFUSED_BELOW_DPI) return 'soft'
  return 'refused'
}

/** The dpi as said to the shopper: rounded down, so a photo below a threshold is never said to reach it. */
export const shownDpi = (dpi: number) => Math.floor(dpi)

/** Rounded down to one decimal, as the zoom control shows it. */
const zoomDown = (zoom: number) => Math.floor(zoom * 10 + 1e-9) / 10

/** Degrees the photo is turned away from upright or on its side (0 to 45). */
const tilt = (rotation: number) => {
  const r = Math.abs(normaliseRotation(rotation)) % 90
  return Math.min(r, 90 - r)
}

function describe(photo: Size, t: PhotoTransform, dpi: number): string {
  const how = [t.zoom > 1 ? `zoomed to ${t.zoom.toFixed(1)}×` : null, tilt(t.rotation) >= 1 ? `turned ${Math.round(Math.abs(t.rotation))}°` : null]
    .filter(Boolean)
    .join(' and ')
  return `This photo is ${photo.width} × ${photo.height}${how ? ` and ${how}` : ''}: about ${shownDpi(dpi)} dpi at print size (${GOOD_PRINT_DPI} or more prints sharp).`
}

function adviseOn(cell: Size, photo: Size, t: PhotoTransform, dpi: number): string {
  // dpi is inversely proportional to the zoom: the furthest zoom that still prints well.
  const dpiAtOne = dpi * t.zoom
  if (t.zoom > 1 && dpiAtOne >= GOOD_PRINT_DPI) {
    const most = zoomDown(Math.min(t.zoom, dpiAtOne / GOOD_PRINT_DPI))
    return most <= 1 ? 'Zoom out all the way, or choose a larger photo.' : `Zoom out to ${most.toFixed(1)}× or less, or choose a larger photo.`
  }
  // A turned photo must be larger to cover its cell; upright it may be enough.
  const upright = [0, 90, 180, -90].map((rotation) => effectiveDpi(cell, photo, { x: 0, y: 0, zoom: 1, rotation }))
  if (tilt(t.rotation) >= 1 && Math.max(...upright) >= GOOD_PRINT_DPI) {
    return t.zoom > 1 ? 'Zoom out and straighten it, or choose a larger photo.' : 'Straighten it, or choose a larger photo.'
  }
  return 'Choose a larger photo: this one has too few pixels for the ornament.'
}

/**
 * The print quality of `photo` (the original's size) placed in `cell` with `transform` (clamped first, as the
 * renderers clamp it). Reason and advice are given when the grade is soft or refused.
 */
export function printQuality(cell: Size, photo: Size, transform: PhotoTransform): PrintQuality {
  const t = clampTransform(cell, photo, transform)
  const dpi = effectiveDpi(cell, photo, t)
  const grade = gradeOfDpi(dpi)
  if (grade === 'great' || grade === 'good') return { grade, dpi }
  return { grade, dpi, reason: describe(photo, t, dpi), advice: adviseOn(cell, photo, t, dpi) }
}

/** What the grade is called, to the shopper (the chip's text). */
export const gradeLabels: Record<PrintGrade, string> = {
  great: 'Great for print',
  good: 'Good for print',
  soft: 'May look soft',
  refused: 'Too small to print',
}
