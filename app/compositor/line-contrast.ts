/**
 * How well a personal line reads on its photo (issue 32, item 1; docs/decisions/058-line-contrast-and-halo.md).
 * One pure function, no platform APIs, run the same way by the live preview (on the pixels pixi drew without
 * the line) and by the print render (on the sheet sharp composed before the line is laid on it): the photo under
 * the line's glyphs, weighted by how much of each pixel the glyphs cover, against every palette colour.
 *
 * The statistic is WCAG 2's contrast ratio taken at a poor percentile of the glyphs' coverage, not at the mean:
 * the ratio that all but POOR_SHARE of the ink beats. A mean luminance lets a line half over snow and half over
 * pine average to a mid grey that white "reads" on, while half its letters vanish; the 20th percentile says what
 * the worst-placed fifth of the letters look like, so a line a fifth or more over a background it cannot be read
 * on is poor, and a few bright pixels (a catch-light, a twinkle) under a long line are not.
 */
import {
  colourIds,
  colourRgb,
  contrastRatio,
  haloColourOf,
  linearChannel,
  relativeLuminance,
  type ColourId,
  type PersonalLine,
} from '../catalogue/personal-line'
import type { Rect } from './layout'
import type { AlphaMask } from './text-raster'

/** WCAG 2's minimum for large text (and for graphics): a printed line of 5–7 mm is large text. Below it: poor. */
export const POOR_CONTRAST = 3

/** The share of the glyphs' coverage allowed to sit on a background worse than the ratio reported. */
export const POOR_SHARE = 0.2

/** Luminance bins: 1/1024 of the range is far finer than any contrast that matters. */
const BINS = 1024

/** How a line reads where it is printed; all ratios are WCAG 2 contrast ratios, 1–21, rounded to 2 decimals. */
export type LineContrast = {
  /** The line's colour as measured. */
  colour: ColourId
  /** Whether the line has a halo: then its letters are read against the halo, not the photo. */
  halo: boolean
  /** The contrast the line has: its colour against the photo (at the poor percentile), or against its halo. */
  ratio: number
  /** ratio < POOR_CONTRAST: the designer and the preview dialog warn. */
  poor: boolean
  /** Every palette colour's contrast against the photo under these glyphs (at the poor percentile), without a halo. */
  ratios: Record<ColourId, number>
  /** The palette colour with the highest of `ratios` (the first in palette order on a tie). */
  best: ColourId
}

/** Pixels as RGBA bytes, top row first; `premultiplied` when colour is already multiplied by alpha (a GPU's read-back). */
export type RgbaPixels = { width: number; height: number; data: Uint8Array | Uint8ClampedArray | Buffer; premultiplied?: boolean }

/** A line's glyph coverage placed on the sheet: `rect` in the sheet's pixels, `glyphs` one byte per pixel of it. */
export type PlacedGlyphs = { rect: Rect; glyphs: AlphaMask }

const round2 = (v: number) => Math.round(v * 100) / 100

/** sRGB byte → linear light, as a table: the same numbers wherever it runs. */
const LINEAR = Array.from({ length: 256 }, (_, v) => linearChannel(v))

/**
 * A weighted histogram of the luminance of `sheet` under the glyphs: each pixel weighted by glyph coverage ×
 * the sheet's alpha (what is not printed, outside the silhouette, does not count). Null when nothing is covered.
 */
export function luminanceUnderGlyphs(sheet: RgbaPixels, { rect, glyphs }: PlacedGlyphs): Float64Array | null {
  const histogram = new Float64Array(BINS)
  let total = 0
  for (let y = 0; y < rect.height; y++) {
    const sy = rect.top + y
    if (sy < 0 || sy >= sheet.height) continue
    for (let x = 0; x < rect.width; x++) {
      const coverage = glyphs.alpha[y * glyphs.width + x]!
      const sx = rect.left + x
      if (coverage === 0 || sx < 0 || sx >= sheet.width) continue
      const i = (sy * sheet.width + sx) * 4
      const a = sheet.data[i + 3]!
      if (a === 0) continue
      // Straight colour: a read-back of premultiplied pixels is divided by its alpha first.
      const k = sheet.premultiplied ? 255 / a : 1
      const channel = (v: number) => LINEAR[Math.min(255, Math.round(v * k))]!
      const luminance = 0.2126 * channel(sheet.data[i]!) + 0.7152 * channel(sheet.data[i + 1]!) + 0.0722 * channel(sheet.data[i + 2]!)
      const weight = coverage * a
      histogram[Math.min(BINS - 1, Math.floor(luminance * BINS))]! += weight
      total += weight
    }
  }
  return total > 0 ? histogram : null
}

/** The contrast that all but `share` of the histogram's weight beats, for a colour of luminance `colour`. */
function contrastAtShare(histogram: Float64Array, colour: number, share: number): number {
  const bins: [number, number][] = []
  let total = 0
  for (let b = 0; b < BINS; b++) {
    const w = histogram[b]!
    if (w === 0) continue
    bins.push([contrastRatio(colour, (b + 0.5) / BINS), w])
    total += w
  }
  bins.sort((p, q) => p[0] - q[0])
  let seen = 0
  for (const [ratio, w] of bins) {
    seen += w
    if (seen > share * total) return ratio
  }
  return bins[bins.length - 1]![0]
}

/**
 * How `line` reads on `sheet` (the composed front without the line, straight or premultiplied RGBA) under its
 * glyphs (the shared rasteriser's coverage at the same resolution), or null when no printed pixel lies under them.
 */
export function measureLineContrast(sheet: RgbaPixels, glyphs: PlacedGlyphs, line: Pick<PersonalLine, 'colour' | 'halo'>): LineContrast | null {
  const histogram = luminanceUnderGlyphs(sheet, glyphs)
  if (!histogram) return null
  const ratios = Object.fromEntries(colourIds.map((id) => [id, round2(contrastAtShare(histogram, relativeLuminance(colourRgb(id)), POOR_SHARE))])) as Record<
    ColourId,
    number
  >
  const best = colourIds.reduce((a, b) => (ratios[b] > ratios[a] ? b : a))
  const halo = line.halo === true
  const ratio = halo ? haloContrast(line.colour) : ratios[line.colour]
  return { colour: line.colour, halo, ratio, poor: ratio < POOR_CONTRAST, ratios, best }
}

/** A line with a halo is read against its halo: the contrast between its colour and haloColourOf(colour). */
export function haloContrast(colour: ColourId): number {
  return round2(contrastRatio(relativeLuminance(colourRgb(colour)), relativeLuminance(colourRgb(haloColourOf(colour)))))
}

/**
 * The same measurement for a line whose colour or halo the shopper has changed since it was measured: the photo
 * under the glyphs is unchanged, so `ratios` answer for any colour.
 */
export function contrastFor(measured: LineContrast, line: Pick<PersonalLine, 'colour' | 'halo'>): LineContrast {
  const halo = line.halo === true
  const ratio = halo ? haloContrast(line.colour) : measured.ratios[line.colour]
  return { ...measured, colour: line.colour, halo, ratio, poor: ratio < POOR_CONTRAST }
}
