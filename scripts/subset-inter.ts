/**
 * npm run font:inter — writes app/styles/fonts/inter-latin-wght-400-700.woff2, the face every page paints with.
 *
 * Fontsource's Latin file of Inter Variable carries the whole weight axis (100–900, 48 KB). The store draws with
 * 400–700 only (font-normal … font-bold), so the axis is cut to that range and the glyphs to the Latin unicode-range
 * Fontsource gives the face: 28 KB, downloaded before the first paint on every landing (decision 024).
 * A unit test regenerates the file and compares bytes, so the committed file cannot drift from this script.
 */
import { readFileSync, writeFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import subsetFont from 'subset-font'

export const interLatinSource = fileURLToPath(new URL('../node_modules/@fontsource-variable/inter/files/inter-latin-wght-normal.woff2', import.meta.url))
export const interLatinSubset = fileURLToPath(new URL('../app/styles/fonts/inter-latin-wght-400-700.woff2', import.meta.url))
/** Fontsource's unicode-range for the Latin face, as app/styles/inter.css declares it. */
export const interLatinRange =
  'U+0000-00FF,U+0131,U+0152-0153,U+02BB-02BC,U+02C6,U+02DA,U+02DC,U+0304,U+0308,U+0329,U+2000-206F,U+20AC,U+2122,U+2191,U+2193,U+2212,U+2215,U+FEFF,U+FFFD'
export const interWeights = { min: 400, max: 700 }

/** Every code point of a CSS unicode-range list. */
export function codePointsOf(range: string): string {
  let text = ''
  for (const part of range.split(',')) {
    const [from, to = from] = part.replace('U+', '').split('-') as [string, string?]
    for (let code = parseInt(from, 16); code <= parseInt(to, 16); code++) text += String.fromCodePoint(code)
  }
  return text
}

export async function subsetInterLatin(): Promise<Buffer> {
  return subsetFont(readFileSync(interLatinSource), codePointsOf(interLatinRange), {
    targetFormat: 'woff2',
    variationAxes: { wght: interWeights },
  })
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const font = await subsetInterLatin()
  writeFileSync(interLatinSubset, font)
  console.log(`${interLatinSubset}: ${font.length} bytes (from ${readFileSync(interLatinSource).length})`)
}
