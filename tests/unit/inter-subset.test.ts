import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { codePointsOf, interLatinRange, interLatinSource, interLatinSubset, interWeights, subsetInterLatin } from '../../scripts/subset-inter'

describe('the Latin face of Inter the pages paint with', () => {
  it('is exactly what scripts/subset-inter.ts makes from the Fontsource file (rerun npm run font:inter if not)', async () => {
    const made = await subsetInterLatin()
    expect(Buffer.compare(made, readFileSync(interLatinSubset))).toBe(0)
    expect(made.length).toBeLessThan(readFileSync(interLatinSource).length * 0.7)
  })

  it('is declared in inter.css for the same range and weights it was cut to', () => {
    const css = readFileSync(new URL('../../app/styles/inter.css', import.meta.url), 'utf8')
    const face = css.split('@font-face').find((rule) => rule.includes('inter-latin-wght-400-700.woff2'))
    // Prettier wraps the declaration; compare its value with the whitespace taken out.
    expect(face!.replace(/\s+/g, '')).toContain(`unicode-range:${interLatinRange};`)
    expect(face).toContain(`font-weight: ${interWeights.min} ${interWeights.max};`)
  })

  it('covers every weight class the markup uses', () => {
    const weights: Record<string, number> = { normal: 400, medium: 500, semibold: 600, bold: 700 }
    const used = new Set<number>()
    const sources = import.meta.glob('../../app/**/*.tsx', { query: '?raw', import: 'default', eager: true }) as Record<string, string>
    for (const source of Object.values(sources)) {
      for (const match of source.matchAll(/\bfont-(thin|extralight|light|normal|medium|semibold|bold|extrabold|black)\b/g)) {
        used.add(weights[match[1]!] ?? -1)
      }
    }
    expect(used.size).toBeGreaterThan(0)
    for (const weight of used) {
      expect(weight).toBeGreaterThanOrEqual(interWeights.min)
      expect(weight).toBeLessThanOrEqual(interWeights.max)
    }
  })

  it('reads a unicode-range list into its code points', () => {
    expect(codePointsOf('U+0041-0043,U+20AC')).toBe('ABC€')
  })
})
