/**
 * The personal line laid out and drawn once for both renderers (docs/decisions/034-text-line.md):
 * glyphs from the typeface's font file (opentype.js reads the same WOFF in the browser and on the
 * server), placed by advance widths and kerning, fitted into the template's Text cell and centred,
 * then filled by the shared rasteriser into an alpha mask over exactly the output pixels the cell
 * owns (cellClipRect). pixi draws that mask 1:1 as a texture; sharp composites the same bytes.
 */
import opentype, { type Font, type Glyph, type PathCommand } from 'opentype.js'
import { textCells, type PseudoTemplate, type TemplateCell } from '../catalogue/ornaments'
import { colourRgb, haloColourOf, ornamentSides, type OrnamentSide, type PersonalLine, type PersonalText } from '../catalogue/personal-line'
import { cellClipRect, type LayoutCell, type Rect } from './layout'
import { dilate, rasterise, type AlphaMask, type Polygon } from './text-raster'

export { colourRgb } from '../catalogue/personal-line'

export type { Font as LineFont } from 'opentype.js'

export function parseFont(bytes: ArrayBuffer | Uint8Array): Font {
  const buffer = bytes instanceof Uint8Array ? (bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer) : bytes
  return opentype.parse(buffer)
}

/** Each Text cell with the line of its ornament, for the cells whose ornament has one: what every renderer draws. */
export function linesByCell(template: PseudoTemplate, text: PersonalText | null | undefined): { cell: TemplateCell; line: PersonalLine; side: OrnamentSide }[] {
  if (!text) return []
  return textCells(template).flatMap((cell, i) => {
    const side = ornamentSides[i]!
    const line = text[side]
    return line ? [{ cell, line, side }] : []
  })
}

export type PlacedGlyph = { glyph: Glyph; x: number }

/** The line in template pixels: glyph origins along one baseline at one font size. */
export type LineLayout = { glyphs: PlacedGlyph[]; fontSize: number; baseline: number; left: number; width: number }

/** Kerning of a pair when the font's tables give it (opentype.js reads kern and simple GPOS pairs), else none. */
function kerning(font: Font, left: Glyph, right: Glyph): number {
  try {
    return font.getKerningValue(left, right) || 0
  } catch {
    return 0
  }
}

/**
 * Glyph by glyph (one per code point; no shaping, which our Latin faces do not need): the advance
 * widths and kerning in font units, then a size at which the font's ascender-to-descender height
 * fills the cell's height, reduced if the line is wider than the cell; centred both ways.
 */
export function layoutLine(font: Font, line: string, cell: LayoutCell): LineLayout {
  const glyphs = [...line].map((ch) => font.charToGlyph(ch))
  const offsets: number[] = []
  let units = 0
  glyphs.forEach((glyph, i) => {
    if (i > 0) units += kerning(font, glyphs[i - 1]!, glyph)
    offsets.push(units)
    units += glyph.advanceWidth ?? 0
  })
  const em = font.unitsPerEm
  const lineHeight = (font.ascender - font.descender) / em
  const byHeight = cell.height / lineHeight
  const byWidth = units > 0 ? (cell.width * em) / units : byHeight
  const fontSize = Math.min(byHeight, byWidth)
  const k = fontSize / em
  const width = units * k
  const left = cell.absoluteCenterX - width / 2
  const baseline = cell.absoluteCenterY + ((font.ascender + font.descender) / 2) * k
  return { glyphs: glyphs.map((glyph, i) => ({ glyph, x: left + offsets[i]! * k })), fontSize, baseline, left, width }
}

/** How far (output pixels) a flattened curve may stray from the true one: far below what anti-aliasing can show. */
const FLATNESS = 0.05

/** Straight pieces for a curve whose second differences reach `deviation` pixels (the classic flatness bound). */
function pieces(deviation: number, cubic: boolean) {
  return Math.max(1, Math.min(64, Math.ceil(Math.sqrt(((cubic ? 0.75 : 0.25) * deviation) / FLATNESS))))
}

/** A glyph path's commands as closed polygons (curves flattened). */
export function polygonsOf(commands: readonly PathCommand[]): Polygon[] {
  const polygons: Polygon[] = []
  let current: Polygon = []
  let x = 0
  let y = 0
  const close = () => {
    if (current.length >= 6) polygons.push(current)
    current = []
  }
  for (const c of commands) {
    if (c.type === 'M') {
      close()
      current.push(c.x, c.y)
      ;[x, y] = [c.x, c.y]
    } else if (c.type === 'L') {
      current.push(c.x, c.y)
      ;[x, y] = [c.x, c.y]
    } else if (c.type === 'Q') {
      const n = pieces(Math.hypot(x - 2 * c.x1 + c.x, y - 2 * c.y1 + c.y), false)
      for (let i = 1; i <= n; i++) {
        const t = i / n
        const u = 1 - t
        current.push(u * u * x + 2 * u * t * c.x1 + t * t * c.x, u * u * y + 2 * u * t * c.y1 + t * t * c.y)
      }
      ;[x, y] = [c.x, c.y]
    } else if (c.type === 'C') {
      const n = pieces(Math.max(Math.hypot(x - 2 * c.x1 + c.x2, y - 2 * c.y1 + c.y2), Math.hypot(c.x1 - 2 * c.x2 + c.x, c.y1 - 2 * c.y2 + c.y)), true)
      for (let i = 1; i <= n; i++) {
        const t = i / n
        const u = 1 - t
        current.push(
          u * u * u * x + 3 * u * u * t * c.x1 + 3 * u * t * t * c.x2 + t * t * t * c.x,
          u * u * u * y + 3 * u * u * t * c.y1 + 3 * u * t * t * c.y2 + t * t * t * c.y,
        )
      }
      ;[x, y] = [c.x, c.y]
    } else if (c.type === 'Z') {
      close()
    }
  }
  close()
  return polygons
}

export type LineMask = { rect: Rect; mask: AlphaMask }

/**
 * The halo's width as a share of the Text cell's height (template pixels): 0.06 of the 140–150 px bands is
 * 8–9 px, about 0.75 mm at 300 dpi and 2 px in a 640 px preview — a thin rim, wide enough to part the letters
 * from any photo (docs/decisions/058-line-contrast-and-halo.md).
 */
export const HALO_WIDTH = 0.06

/** The halo's width in template pixels for a line in `cell`. */
export const haloRadius = (cell: LayoutCell) => cell.height * HALO_WIDTH

/** The cell a line is fitted into: shrunk by `inset` template pixels on every side (room for a halo). */
const fittedCell = (cell: LayoutCell, inset: number): LayoutCell =>
  inset > 0 ? { ...cell, width: Math.max(1, cell.width - 2 * inset), height: Math.max(1, cell.height - 2 * inset) } : cell

/**
 * The line drawn into one Text cell at `scale` output pixels per template pixel: an alpha mask over the cell's
 * own pixels. With `inset` (template pixels) the line is fitted into the cell shrunk by that much on every side,
 * leaving room for its halo.
 */
export function lineMask(font: Font, line: string, cell: LayoutCell, scale: number, inset = 0): LineMask {
  const rect = cellClipRect(cell, scale)
  const layout = layoutLine(font, line, fittedCell(cell, inset))
  const size = layout.fontSize * scale
  const polygons = layout.glyphs.flatMap(({ glyph, x }) => polygonsOf(glyph.getPath(x * scale - rect.left, layout.baseline * scale - rect.top, size).commands))
  return { rect, mask: rasterise(polygons, rect.width, rect.height) }
}

/** A coordinate for SVG path data: a hundredth of a template pixel is far below what a thumbnail shows. */
const svgNumber = (v: number) => String(Math.round(v * 100) / 100)

/** Glyph outlines as SVG path data (opentype.js's own toPathData writes "NaN" for some Dancing Script curves). */
function svgPathData(commands: readonly PathCommand[]): string {
  return commands
    .map((c) => {
      if (c.type === 'M' || c.type === 'L') return `${c.type}${svgNumber(c.x)} ${svgNumber(c.y)}`
      if (c.type === 'Q') return `Q${svgNumber(c.x1)} ${svgNumber(c.y1)} ${svgNumber(c.x)} ${svgNumber(c.y)}`
      if (c.type === 'C') return `C${svgNumber(c.x1)} ${svgNumber(c.y1)} ${svgNumber(c.x2)} ${svgNumber(c.y2)} ${svgNumber(c.x)} ${svgNumber(c.y)}`
      return 'Z'
    })
    .join('')
}

/**
 * The line as SVG path data in template pixels: the same layout and glyph outlines the masks are
 * rasterised from, for drawings that scale (the saved-design thumbnails).
 */
export function linePathData(font: Font, line: string, cell: LayoutCell, inset = 0): string {
  const layout = layoutLine(font, line, fittedCell(cell, inset))
  return layout.glyphs.map(({ glyph, x }) => svgPathData(glyph.getPath(x, layout.baseline, layout.fontSize).commands)).join('')
}

/**
 * A line as both renderers draw it (docs/decisions/058-line-contrast-and-halo.md): `glyphs`, the letters' own
 * coverage (what the contrast is measured under); `mask`, what the layer covers (the letters and their halo);
 * and `rgba`, the layer's straight-alpha pixels — the letters in the line's colour over the halo in
 * haloColourOf(colour), or the letters alone. pixi uploads `premultiplied(rgba)`; sharp blends `rgba`.
 */
export type DrawnLine = LineMask & { glyphs: AlphaMask; rgba: Uint8Array }

/** One ornament's line in its Text cell at `scale`: the glyphs (fitted inside the halo when it has one), the halo grown from them by the shared rasteriser. */
export function drawLine(font: Font, line: PersonalLine, cell: LayoutCell, scale: number): DrawnLine {
  const radius = line.halo ? haloRadius(cell) : 0
  const { rect, mask: glyphs } = lineMask(font, line.line, cell, scale, radius)
  const halo = line.halo ? dilate(glyphs, radius * scale) : null
  const rgba = lineLayerRgba(glyphs, line.colour, halo, haloColourOf(line.colour))
  const mask = halo ?? glyphs
  return { rect, glyphs, mask, rgba }
}

/**
 * The letters of colour `colourId` over their halo of colour `haloColourId` (the "over" operator), as straight
 * RGBA; without a halo, the letters alone (the same bytes lineRgba makes).
 */
export function lineLayerRgba(glyphs: AlphaMask, colourId: PersonalLine['colour'], halo: AlphaMask | null, haloColourId: PersonalLine['colour']): Uint8Array {
  if (!halo) return lineRgba(glyphs, colourId, false)
  const [r, g, b] = colourRgb(colourId)
  const [hr, hg, hb] = colourRgb(haloColourId)
  const out = new Uint8Array(glyphs.width * glyphs.height * 4)
  for (let i = 0; i < glyphs.alpha.length; i++) {
    const ta = glyphs.alpha[i]! / 255
    const ha = Math.max(halo.alpha[i]!, glyphs.alpha[i]!) / 255
    const a = ta + ha * (1 - ta)
    if (a === 0) continue
    out[i * 4] = Math.round((r * ta + hr * ha * (1 - ta)) / a)
    out[i * 4 + 1] = Math.round((g * ta + hg * ha * (1 - ta)) / a)
    out[i * 4 + 2] = Math.round((b * ta + hb * ha * (1 - ta)) / a)
    out[i * 4 + 3] = Math.round(a * 255)
  }
  return out
}

/** Straight RGBA as premultiplied (a GPU texture blends premultiplied colour). */
export function premultiplied(rgba: Uint8Array): Uint8Array {
  const out = new Uint8Array(rgba.length)
  for (let i = 0; i < rgba.length; i += 4) {
    const a = rgba[i + 3]!
    if (a === 0) continue
    const k = a / 255
    out[i] = Math.round(rgba[i]! * k)
    out[i + 1] = Math.round(rgba[i + 1]! * k)
    out[i + 2] = Math.round(rgba[i + 2]! * k)
    out[i + 3] = a
  }
  return out
}

/**
 * The mask as RGBA pixels of the line's colour. `premultiplied` for a GPU texture (pixi blends
 * premultiplied colour); straight alpha for sharp.
 */
export function lineRgba(mask: AlphaMask, colourId: PersonalLine['colour'], premultiplied: boolean): Uint8Array {
  const [r, g, b] = colourRgb(colourId)
  const out = new Uint8Array(mask.width * mask.height * 4)
  for (let i = 0; i < mask.alpha.length; i++) {
    const a = mask.alpha[i]!
    if (a === 0) continue
    const k = premultiplied ? a / 255 : 1
    out[i * 4] = Math.round(r * k)
    out[i * 4 + 1] = Math.round(g * k)
    out[i * 4 + 2] = Math.round(b * k)
    out[i * 4 + 3] = a
  }
  return out
}
