/**
 * The personal lines of text on the ornaments (issue 19, part 1): on each ornament of the pair, an
 * optional line, printed on its front in a band each template defines (Text cells, ornaments.ts).
 * The three typefaces are OFL fonts shipped with the store (public/fonts/personal-line/, copied from
 * Fontsource by `npm run font:personal-line`); both renderers draw from those same files
 * (docs/decisions/034-text-line.md). This module is zod-free: the designer's field and the API's
 * contract run the same check, `personalLineProblem`.
 */
import { typefaceCoverage } from './typeface-coverage'

/** Issue 19: "up to 40 characters", counted as a reader counts them (grapheme clusters). */
export const PERSONAL_LINE_MAX_LENGTH = 40

export const personalLineTypefaces = [
  { id: 'lora', name: 'Lora', kind: 'serif', source: '@fontsource/lora/files/lora-latin-400-normal.woff', weight: 400 },
  {
    id: 'dancing-script',
    name: 'Dancing Script',
    kind: 'script',
    source: '@fontsource/dancing-script/files/dancing-script-latin-400-normal.woff',
    weight: 400,
  },
  { id: 'montserrat', name: 'Montserrat', kind: 'sans-serif', source: '@fontsource/montserrat/files/montserrat-latin-500-normal.woff', weight: 500 },
] as const

export type PersonalLineTypeface = (typeof personalLineTypefaces)[number]
export type TypefaceId = PersonalLineTypeface['id']
export const typefaceIds = personalLineTypefaces.map((t) => t.id) as [TypefaceId, ...TypefaceId[]]

/** A few colours of the palette (tailwind.config.ts), plus white for dark photos. */
export const personalLineColours = [
  { id: 'snow', name: 'Snow white', hex: '#ffffff' },
  { id: 'ink', name: 'Ink', hex: '#2b2320' },
  { id: 'cranberry', name: 'Cranberry', hex: '#a3213a' },
  { id: 'pine', name: 'Pine green', hex: '#1f5c45' },
  { id: 'gold', name: 'Gold', hex: '#c9962b' },
] as const

export type PersonalLineColour = (typeof personalLineColours)[number]
export type ColourId = PersonalLineColour['id']
export const colourIds = personalLineColours.map((c) => c.id) as [ColourId, ...ColourId[]]

/**
 * One ornament's line as the shopper typed it (trimmed, NFC), its typeface and colour, and whether a thin halo
 * of the contrasting colour (haloColourOf) is drawn around its letters so it reads over any photo (issue 32,
 * item 1; docs/decisions/058-line-contrast-and-halo.md). Absent means no halo: lines saved before it had none.
 */
export type PersonalLine = { line: string; typeface: TypefaceId; colour: ColourId; halo?: boolean }

/** The ornaments of a pair, in the order of the template's Text cells (ornaments.ts, `textCells`). */
export const ornamentSides = ['left', 'right'] as const
export type OrnamentSide = (typeof ornamentSides)[number]

/**
 * What a design carries: each ornament's own line, each optional (issue 19: "on each ornament of the
 * pair, an optional line"). A design without any line carries no text at all (null), never `{}`.
 */
export type PersonalText = { [S in OrnamentSide]?: PersonalLine }

/** The same line on both ornaments (the designer's default). */
export const sameLineOnBoth = (line: PersonalLine): PersonalText => ({ left: line, right: line })

/** The lines a design carries, with the ornament each is printed on. */
export function linesOf(text: PersonalText | null | undefined): [OrnamentSide, PersonalLine][] {
  return text ? ornamentSides.flatMap((side) => (text[side] ? [[side, text[side]] as [OrnamentSide, PersonalLine]] : [])) : []
}

export const samePersonalLine = (a: PersonalLine | null | undefined, b: PersonalLine | null | undefined) =>
  a?.line === b?.line && a?.typeface === b?.typeface && a?.colour === b?.colour && (a?.halo === true) === (b?.halo === true)

/** Whether two designs' text prints the same (no text and `{}` are the same: nothing printed). */
export const samePersonalText = (a: PersonalText | null | undefined, b: PersonalText | null | undefined) =>
  ornamentSides.every((side) => samePersonalLine(a?.[side], b?.[side]))

/** The design's text, or null when it carries no line (a `{}` becomes null). */
export const textOrNull = (text: PersonalText | null | undefined): PersonalText | null => (linesOf(text).length > 0 ? text! : null)

export const DEFAULT_TYPEFACE: TypefaceId = 'lora'
export const DEFAULT_COLOUR: ColourId = 'snow'

/** The CSS family the designer shows a typeface's name in (app/styles/personal-line.css). */
export const typefaceCssFamily = (typeface: PersonalLineTypeface) => `'Keepsake ${typeface.name}', ${typeface.kind === 'script' ? 'cursive' : typeface.kind}`

/** Public path of a typeface's font file: the browser fetches it, the server reads it from disk. */
export const typefaceFileUrl = (id: TypefaceId) => `/fonts/personal-line/${id}.woff`

export function findTypeface(id: string): PersonalLineTypeface | undefined {
  return personalLineTypefaces.find((t) => t.id === id)
}

export function findColour(id: string): PersonalLineColour | undefined {
  return personalLineColours.find((c) => c.id === id)
}

/** A palette colour as 0–255 red, green and blue (white for an unknown id). */
export function colourRgb(colourId: string): [number, number, number] {
  const hex = findColour(colourId)?.hex ?? '#ffffff'
  return [parseInt(hex.slice(1, 3), 16), parseInt(hex.slice(3, 5), 16), parseInt(hex.slice(5, 7), 16)]
}

/** An sRGB channel (0–255) as linear light, as WCAG 2's relative luminance defines it. */
export function linearChannel(value: number): number {
  const c = value / 255
  return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4
}

/** WCAG 2's relative luminance of an sRGB colour (0 black – 1 white). */
export function relativeLuminance([r, g, b]: readonly [number, number, number]): number {
  return 0.2126 * linearChannel(r) + 0.7152 * linearChannel(g) + 0.0722 * linearChannel(b)
}

/** WCAG 2's contrast ratio between two relative luminances: 1 (none) to 21 (black on white). */
export function contrastRatio(a: number, b: number): number {
  return (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05)
}

/**
 * The colour of a line's halo: of Snow white and Ink, the one that contrasts more with the line's colour (Ink
 * around white and gold, Snow white around ink, cranberry and pine). Fixed by the colour alone, so both
 * renderers, the designer and the API agree on it without sending it.
 */
export function haloColourOf(colourId: ColourId): ColourId {
  const line = relativeLuminance(colourRgb(colourId))
  const ink = contrastRatio(line, relativeLuminance(colourRgb('ink')))
  const snow = contrastRatio(line, relativeLuminance(colourRgb('snow')))
  return ink >= snow ? 'ink' : 'snow'
}

/** How the line is stored and drawn: Unicode NFC, no surrounding spaces. */
export function normalisePersonalLine(line: string): string {
  return line.normalize('NFC').trim()
}

const segmenter = typeof Intl !== 'undefined' && 'Segmenter' in Intl ? new Intl.Segmenter('en', { granularity: 'grapheme' }) : null

/** Characters as a reader counts them: "é" written as e + accent is one, so is a flag. */
export function personalLineLength(line: string): number {
  if (!segmenter) return [...line].length
  let n = 0
  for (const _ of segmenter.segment(line)) n++
  return n
}

/** Whether the typeface's font maps this code point to a glyph (glyph index ≠ 0). */
export function typefaceCanDraw(id: TypefaceId, codePoint: number): boolean {
  const ranges = typefaceCoverage[id] ?? []
  let lo = 0
  let hi = ranges.length - 1
  while (lo <= hi) {
    const mid = (lo + hi) >> 1
    const [from, to] = ranges[mid]!
    if (codePoint < from) hi = mid - 1
    else if (codePoint > to) lo = mid + 1
    else return true
  }
  return false
}

const CONTROL = /\p{C}/u

/**
 * Why this line cannot be printed in this typeface, in words for the shopper, or null when it can.
 * Run on the normalised line (normalisePersonalLine), in the designer's field and in the API.
 */
export function personalLineProblem(line: string, typefaceId: TypefaceId): string | null {
  const typeface = findTypeface(typefaceId)
  if (!typeface) return 'Choose one of the typefaces'
  if (line.length === 0) return 'Type a line of text, or leave the text out'
  if (CONTROL.test(line)) return 'Use one line of plain text: line breaks, tabs and invisible characters cannot be printed'
  const length = personalLineLength(line)
  if (length > PERSONAL_LINE_MAX_LENGTH) return `Use at most ${PERSONAL_LINE_MAX_LENGTH} characters (this has ${length})`
  const missing = [...new Set([...line].filter((ch) => !typefaceCanDraw(typeface.id, ch.codePointAt(0)!)))]
  if (missing.length > 0) {
    const shown = missing
      .slice(0, 3)
      .map((ch) => `“${ch}”`)
      .join(', ')
    return `${typeface.name} cannot print ${shown}: use letters, digits and everyday punctuation (emoji and some alphabets are not available)`
  }
  return null
}

/**
 * A line as typed, checked: what it prints (trimmed, NFC; null when empty or refused) and why it
 * cannot be printed, or null. The designer's fields and a kept draft read lines through this.
 */
export function checkPersonalLine(typed: PersonalLine): { line: PersonalLine | null; problem: string | null } {
  const line = normalisePersonalLine(typed.line)
  const problem = line ? personalLineProblem(line, typed.typeface) : null
  const { halo, ...rest } = typed
  return { line: line && !problem ? { ...rest, line, ...(halo ? { halo: true } : {}) } : null, problem }
}

/** A year in a line ("Ava · 2025"): 1900–2099 standing alone. */
const YEAR = /(?<!\d)(?:19|20)\d{2}(?!\d)/g

/** The years a line names, in order (issue 19, part 4: ordering again offers to change them). */
export function yearsIn(line: string): number[] {
  return [...line.matchAll(YEAR)].map((m) => Number(m[0]))
}

/** The years the design's lines name, in order, left then right. */
export function textYears(text: PersonalText | null | undefined): number[] {
  return linesOf(text).flatMap(([, l]) => yearsIn(l.line))
}

/** The line with every year it names replaced by `year`. */
export function withYear(text: PersonalLine, year: number): PersonalLine {
  return { ...text, line: text.line.replace(YEAR, String(year)) }
}

/** Every line of the design with its years replaced by `year`. */
export function textWithYear(text: PersonalText, year: number): PersonalText {
  return Object.fromEntries(linesOf(text).map(([side, l]) => [side, withYear(l, year)]))
}

/** One line as the cart and orders describe it, e.g. “Ava · 2026” in Lora, snow white (with an ink halo). */
export function describePersonalLine(text: PersonalLine): string {
  const halo = text.halo ? ` with a${haloColourOf(text.colour) === 'ink' ? 'n ink' : ' snow white'} halo` : ''
  return `“${text.line}” in ${findTypeface(text.typeface)?.name ?? text.typeface}, ${findColour(text.colour)?.name.toLowerCase() ?? text.colour}${halo}`
}

/**
 * The design's text in words: “Ava · 2026” in Lora, snow white, on both ornaments — or each ornament's
 * own line (“Left: … Right: …”), or the one ornament that has a line.
 */
export function describePersonalText(text: PersonalText): string {
  const lines = linesOf(text)
  if (lines.length === 2 && samePersonalLine(text.left, text.right)) return `${describePersonalLine(text.left!)}, on both ornaments`
  if (lines.length === 1) return `${describePersonalLine(lines[0]![1])}, on the ${lines[0]![0]} ornament`
  return lines.map(([side, l]) => `${side === 'left' ? 'Left' : 'Right'}: ${describePersonalLine(l)}`).join('; ')
}
