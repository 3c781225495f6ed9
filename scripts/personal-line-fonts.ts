/**
 * npm run font:personal-line — copies the three typefaces of the personal line from Fontsource into
 * public/fonts/personal-line/ (served to the browser, read from disk by the print renderer) and writes
 * app/catalogue/typeface-coverage.ts: the code points each font maps to a glyph, which the field and
 * the API check a line against. A unit test compares both with what this script would write.
 */
import { readFileSync, writeFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import opentype from 'opentype.js'
import { personalLineTypefaces, typefaceFileUrl } from '../app/catalogue/personal-line'

const root = new URL('../', import.meta.url)
export const fontSourcePath = (source: string) => fileURLToPath(new URL(`node_modules/${source}`, root))
export const fontPublicPath = (id: string) => fileURLToPath(new URL(`public${typefaceFileUrl(id as never)}`, root))
export const coveragePath = fileURLToPath(new URL('app/catalogue/typeface-coverage.ts', root))

/** Code points with a glyph (index ≠ 0), as inclusive ranges, skipping control characters. */
export function coverageOf(bytes: Buffer): [number, number][] {
  const font = opentype.parse(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.length) as ArrayBuffer)
  const map = (font.tables.cmap as unknown as { glyphIndexMap: Record<string, number> }).glyphIndexMap
  const codes = Object.keys(map)
    .map(Number)
    .filter((c) => map[c] !== 0 && !/\p{C}/u.test(String.fromCodePoint(c)))
    .sort((a, b) => a - b)
  const ranges: [number, number][] = []
  for (const c of codes) {
    const last = ranges.at(-1)
    if (last && last[1] === c - 1) last[1] = c
    else ranges.push([c, c])
  }
  return ranges
}

export function coverageModule(): string {
  const hex = (n: number) => `0x${n.toString(16)}`
  const entries = personalLineTypefaces.map((t) => {
    const ranges = coverageOf(readFileSync(fontSourcePath(t.source)))
    return `  '${t.id}': [${ranges.map(([a, b]) => `[${hex(a)}, ${hex(b)}]`).join(', ')}],`
  })
  return [
    '// Written by `npm run font:personal-line` (scripts/personal-line-fonts.ts) from the font files; do not edit.',
    '/** Code points each personal-line typeface maps to a glyph, as sorted inclusive ranges. */',
    'export const typefaceCoverage: Record<string, readonly (readonly [number, number])[]> = {',
    ...entries,
    '}',
    '',
  ].join('\n')
}

if (import.meta.url === `file://${process.argv[1]}`) {
  for (const t of personalLineTypefaces) writeFileSync(fontPublicPath(t.id), readFileSync(fontSourcePath(t.source)))
  writeFileSync(coveragePath, coverageModule())
  console.log(`copied ${personalLineTypefaces.length} fonts to public/fonts/personal-line/ and wrote ${coveragePath}`)
}
