import fs from 'node:fs'
import { describe, expect, it } from 'vitest'
import { pseudoTemplates, ornamentShapes, photoCells, textCells } from '../../app/catalogue/ornaments'
import {
  describePersonalLine,
  describePersonalText,
  linesOf,
  normalisePersonalLine,
  personalLineLength,
  personalLineProblem,
  personalLineTypefaces,
  typefaceCanDraw,
  sameLineOnBoth,
  samePersonalLine,
  samePersonalText,
  textOrNull,
  textWithYear,
  textYears,
  typefaceFileUrl,
  withYear,
  yearsIn,
} from '../../app/catalogue/personal-line'
import { typefaceCoverage } from '../../app/catalogue/typeface-coverage'
import { cellClipRect } from '../../app/compositor/layout'
import { drawLine, haloRadius, layoutLine, lineMask, linePathData, lineRgba, linesByCell, parseFont, polygonsOf } from '../../app/compositor/text-line'
import { personalLineSchema, personalTextSchema } from '../../app/contract/personal-line'
import { coverageOf, fontSourcePath } from '../../scripts/personal-line-fonts'

const fontOf = (id: string) => parseFont(fs.readFileSync(`public${typefaceFileUrl(id as never)}`))

describe('the personal line typefaces', () => {
  it('ships exactly the Fontsource files, and the coverage table is what the fonts map', () => {
    for (const t of personalLineTypefaces) {
      const shipped = fs.readFileSync(`public${typefaceFileUrl(t.id)}`)
      expect(shipped.equals(fs.readFileSync(fontSourcePath(t.source)))).toBe(true)
      expect(typefaceCoverage[t.id]).toEqual(coverageOf(shipped))
    }
  })

  it('agrees with the font: every covered character has a glyph, an emoji has none', () => {
    for (const t of personalLineTypefaces) {
      const font = fontOf(t.id)
      for (const ch of 'Ava · 2026 Noël — Łódź') expect(typefaceCanDraw(t.id, ch.codePointAt(0)!)).toBe(font.charToGlyphIndex(ch) !== 0)
      expect(typefaceCanDraw(t.id, '🎄'.codePointAt(0)!)).toBe(false)
    }
  })
})

describe('whether a line can be printed', () => {
  it('accepts everyday lines in every typeface', () => {
    for (const t of personalLineTypefaces) {
      for (const line of ['Ava · 2026', "Baby's first Christmas", 'Zoë & José — Noël', 'x'.repeat(40)]) expect(personalLineProblem(line, t.id)).toBeNull()
    }
  })

  it('refuses an emoji, naming it', () => {
    expect(personalLineProblem('Ava 🎄', 'lora')).toBe(
      'Lora cannot print “🎄”: use letters, digits and everyday punctuation (emoji and some alphabets are not available)',
    )
  })

  it('refuses Cyrillic and CJK, which our Latin fonts lack', () => {
    expect(personalLineProblem('Маша', 'montserrat')).toMatch(/^Montserrat cannot print “М”, “а”, “ш”/)
    expect(personalLineProblem('圣诞快乐', 'dancing-script')).toMatch(/^Dancing Script cannot print/)
  })

  it('refuses 41 characters and counts what a reader sees', () => {
    expect(personalLineProblem('a'.repeat(41), 'lora')).toBe('Use at most 40 characters (this has 41)')
    expect(personalLineLength('e\u0301'.repeat(40))).toBe(40)
    expect(personalLineLength(normalisePersonalLine('  Noe\u0308l  '))).toBe(4)
  })

  it('refuses control characters and line breaks, and an empty line', () => {
    expect(personalLineProblem('Ava\n2026', 'lora')).toMatch(/^Use one line of plain text/)
    expect(personalLineProblem('Ava\u0007', 'lora')).toMatch(/^Use one line of plain text/)
    expect(personalLineProblem('Ava\u200b', 'lora')).toMatch(/^Use one line of plain text/)
    expect(personalLineProblem('', 'lora')).toMatch(/^Type a line/)
  })

  it('the contract trims and normalises, and refuses what the field refuses', () => {
    expect(personalLineSchema.parse({ line: '  Noe\u0308l 2026 ', typeface: 'lora', colour: 'gold' })).toEqual({
      line: 'Noël 2026',
      typeface: 'lora',
      colour: 'gold',
    })
    const refused = personalLineSchema.safeParse({ line: 'Ava 🎄', typeface: 'lora', colour: 'gold' })
    expect(refused.success).toBe(false)
    expect(refused.error?.issues[0]?.message).toMatch(/^Lora cannot print “🎄”/)
    expect(personalLineSchema.safeParse({ line: 'Ava', typeface: 'comic-sans', colour: 'gold' }).success).toBe(false)
    expect(personalLineSchema.safeParse({ line: 'Ava', typeface: 'lora', colour: 'chartreuse' }).success).toBe(false)
  })

  it('finds the years a line names and replaces them (order again with a new year)', () => {
    expect(yearsIn('Ava · 2025')).toEqual([2025])
    expect(yearsIn('Christmas 1999 and 2025')).toEqual([1999, 2025])
    expect(yearsIn('Room 12025, 300 elves')).toEqual([])
    expect(withYear({ line: 'Ava · 2025', typeface: 'lora', colour: 'ink' }, 2026)).toEqual({ line: 'Ava · 2026', typeface: 'lora', colour: 'ink' })
  })

  it('describes the line for the cart and orders', () => {
    expect(describePersonalLine({ line: 'Ava · 2026', typeface: 'lora', colour: 'snow' })).toBe('“Ava · 2026” in Lora, snow white')
  })
})

describe('a line on each ornament', () => {
  const ava = { line: 'Ava · 2025', typeface: 'lora', colour: 'snow' } as const
  const leo = { line: 'Leo', typeface: 'montserrat', colour: 'pine' } as const

  it('lists the lines with their ornaments, left first, and treats no line as no text', () => {
    expect(linesOf({ right: leo, left: ava })).toEqual([
      ['left', ava],
      ['right', leo],
    ])
    expect(linesOf(null)).toEqual([])
    expect(textOrNull({})).toBeNull()
    expect(textOrNull({ right: leo })).toEqual({ right: leo })
  })

  it('compares what would be printed on each ornament', () => {
    expect(samePersonalText(sameLineOnBoth(ava), { left: { ...ava }, right: { ...ava } })).toBe(true)
    expect(samePersonalText({ left: ava, right: leo }, { left: leo, right: ava })).toBe(false)
    expect(samePersonalText({ left: ava }, sameLineOnBoth(ava))).toBe(false)
    expect(samePersonalText({}, null)).toBe(true)
  })

  it('describes the same line once, one ornament’s line with its ornament, and two lines each', () => {
    expect(describePersonalText(sameLineOnBoth(ava))).toBe('“Ava · 2025” in Lora, snow white, on both ornaments')
    expect(describePersonalText({ right: leo })).toBe('“Leo” in Montserrat, pine green, on the right ornament')
    expect(describePersonalText({ left: ava, right: leo })).toBe('Left: “Ava · 2025” in Lora, snow white; Right: “Leo” in Montserrat, pine green')
  })

  it('finds and replaces the years on both ornaments, and leaves a line without one as it is', () => {
    expect(textYears({ left: ava, right: { ...leo, line: 'Leo · 2024' } })).toEqual([2025, 2024])
    expect(textWithYear({ left: ava, right: leo }, 2026)).toEqual({ left: { ...ava, line: 'Ava · 2026' }, right: leo })
    expect(textWithYear({ right: ava }, 2026)).toEqual({ right: { ...ava, line: 'Ava · 2026' } })
  })

  it('each ornament’s line goes in that ornament’s Text cell', () => {
    for (const shape of ornamentShapes) {
      const template = pseudoTemplates[shape]
      const [left, right] = textCells(template)
      expect(left!.id).toBe(`${shape}-left-text`)
      expect(linesByCell(template, { left: ava, right: leo })).toEqual([
        { cell: left, line: ava, side: 'left' },
        { cell: right, line: leo, side: 'right' },
      ])
      expect(linesByCell(template, { right: leo })).toEqual([{ cell: right, line: leo, side: 'right' }])
      expect(linesByCell(template, null)).toEqual([])
    }
  })

  it('the thumbnails’ path data is the layout the masks are drawn from, centred in the cell', () => {
    for (const shape of ornamentShapes) {
      const [cell] = textCells(pseudoTemplates[shape])
      for (const t of personalLineTypefaces) {
        const font = fontOf(t.id)
        const d = linePathData(font, 'Ava · 2026', cell!)
        // Every command's coordinates are numbers, in pairs (SVG numbers: "-1.9-2.3" is two).
        const segments = d.match(/[A-Za-z][^A-Za-z]*/g)!
        expect(segments.every((segment) => /^[MLQCZ]/.test(segment))).toBe(true)
        const numbers = segments.flatMap((segment) => (segment.slice(1).match(/-?(?:\d+\.?\d*|\.\d+)/g) ?? []).map(Number))
        expect(segments.every((segment) => (segment.slice(1).match(/-?(?:\d+\.?\d*|\.\d+)/g) ?? []).length % 2 === 0)).toBe(true)
        const xs = numbers.filter((_, i) => i % 2 === 0)
        const ys = numbers.filter((_, i) => i % 2 === 1)
        expect(d.match(/M/g)!.length).toBeGreaterThanOrEqual(8)
        const layout = layoutLine(font, 'Ava · 2026', cell!)
        // Inside the cell (a glyph's ink may reach a little past its advance), and centred across it.
        expect(Math.min(...xs)).toBeGreaterThanOrEqual(layout.left - 0.1 * cell!.width)
        expect(Math.max(...xs)).toBeLessThanOrEqual(layout.left + layout.width + 0.1 * cell!.width)
        expect(Math.abs((Math.min(...xs) + Math.max(...xs)) / 2 - cell!.absoluteCenterX)).toBeLessThan(0.05 * cell!.width)
        expect(Math.min(...ys)).toBeGreaterThanOrEqual(cell!.absoluteCenterY - cell!.height / 2 - 1)
        expect(Math.max(...ys)).toBeLessThanOrEqual(cell!.absoluteCenterY + cell!.height / 2 + 1)
      }
    }
  })

  it('the contract takes a line per ornament, each checked, and refuses text naming no ornament', () => {
    expect(personalTextSchema.parse({ left: { ...ava, line: ' Ava · 2025 ' }, right: leo })).toEqual({ left: ava, right: leo })
    expect(personalTextSchema.parse({ right: leo })).toEqual({ right: leo })
    const bad = personalTextSchema.safeParse({ left: ava, right: { ...leo, line: 'Leo 🎄' } })
    expect(bad.error?.issues[0]).toMatchObject({ path: ['right', 'line'], message: expect.stringMatching(/^Montserrat cannot print “🎄”/) })
    for (const none of [{}, ava, { left: null }, [ava, leo]]) expect(personalTextSchema.safeParse(none).success, JSON.stringify(none)).toBe(false)
    expect(personalTextSchema.safeParse({}).error?.issues[0]?.message).toBe('Give a line for the left or the right ornament, or leave the text out')
  })
})

describe('the halo around a line (decision 058)', () => {
  const ava = { line: 'Ava · 2026', typeface: 'lora', colour: 'snow' } as const

  it('the contract takes halo true or false, keeps it only when on, and refuses anything else with a clear message', () => {
    expect(personalLineSchema.parse({ ...ava, halo: true })).toEqual({ ...ava, halo: true })
    expect(personalLineSchema.parse({ ...ava, halo: false })).toEqual(ava)
    expect(personalLineSchema.parse(ava)).toEqual(ava)
    for (const bad of ['yes', 1, null, 'halo']) {
      const refused = personalLineSchema.safeParse({ ...ava, halo: bad })
      expect(refused.error?.issues[0], JSON.stringify(bad)).toMatchObject({ path: ['halo'], message: 'halo must be true or false' })
    }
    expect(personalTextSchema.parse({ left: { ...ava, halo: true }, right: { ...ava, halo: false } })).toEqual({ left: { ...ava, halo: true }, right: ava })
  })

  it('a line with a halo is another line: compared, described and told apart from one without', () => {
    expect(samePersonalLine(ava, { ...ava, halo: false })).toBe(true)
    expect(samePersonalLine(ava, { ...ava, halo: true })).toBe(false)
    expect(samePersonalText({ left: ava }, { left: { ...ava, halo: true } })).toBe(false)
    expect(describePersonalLine({ ...ava, halo: true })).toBe('“Ava · 2026” in Lora, snow white with an ink halo')
    expect(describePersonalLine({ ...ava, colour: 'pine', halo: true })).toBe('“Ava · 2026” in Lora, pine green with a snow white halo')
    expect(describePersonalLine(ava)).toBe('“Ava · 2026” in Lora, snow white')
  })

  it('draws the letters inside their halo, both within the cell; without a halo the same bytes as before', () => {
    for (const shape of ornamentShapes) {
      const template = pseudoTemplates[shape]
      const [cell] = textCells(template)
      for (const scale of [1, 640 / template.width]) {
        const font = fontOf('lora')
        const plain = drawLine(font, ava, cell!, scale)
        const { mask } = lineMask(font, ava.line, cell!, scale)
        expect(plain.glyphs.alpha).toEqual(mask.alpha)
        expect(plain.mask).toBe(plain.glyphs)
        expect(plain.rgba).toEqual(lineRgba(mask, 'snow', false))

        const haloed = drawLine(font, { ...ava, halo: true }, cell!, scale)
        const { width, height } = haloed.rect
        // The letters are fitted a halo's width inside the cell, so the halo is not cut off at its edges.
        const edge = Math.floor(haloRadius(cell!) * scale) - 1
        for (let y = 0; y < height; y++)
          for (let x = 0; x < width; x++) {
            if (x >= edge && y >= edge && x < width - edge && y < height - edge) continue
            expect(haloed.glyphs.alpha[y * width + x], `${shape} @${scale} (${x}, ${y})`).toBe(0)
          }
        // Where the halo shows alone it is opaque ink; where the letters are solid they are snow white.
        let ink = 0
        let snow = 0
        for (let i = 0; i < haloed.glyphs.alpha.length; i++) {
          const px = [...haloed.rgba.subarray(i * 4, i * 4 + 4)]
          if (haloed.glyphs.alpha[i] === 0 && haloed.mask.alpha[i]! > 0) {
            expect(px).toEqual([0x2b, 0x23, 0x20, haloed.mask.alpha[i]])
            if (px[3] === 255 || scale < 1) ink++
          }
          if (haloed.glyphs.alpha[i] === 255) {
            expect(px).toEqual([255, 255, 255, 255])
            snow++
          }
          expect(haloed.mask.alpha[i]!).toBeGreaterThanOrEqual(haloed.glyphs.alpha[i]!)
          expect(px[3]).toBe(haloed.mask.alpha[i]! === 0 ? 0 : px[3])
        }
        expect(ink).toBeGreaterThan(0)
        expect(snow).toBeGreaterThan(0)
      }
    }
  })
})

describe('the text cells and the line layout', () => {
  it('every shape has one Text cell over each photo, inside it', () => {
    for (const shape of ornamentShapes) {
      const template = pseudoTemplates[shape]
      const texts = textCells(template)
      expect(texts).toHaveLength(2)
      photoCells(template).forEach((photo, i) => {
        const outer = cellClipRect(photo, 1)
        const inner = cellClipRect(texts[i]!, 1)
        expect(inner.left).toBeGreaterThanOrEqual(outer.left)
        expect(inner.left + inner.width).toBeLessThanOrEqual(outer.left + outer.width)
        expect(texts[i]!.zIndex).toBeGreaterThan(photo.zIndex)
      })
      // The right band is the left one mirrored across the sheet.
      expect(texts[0]!.absoluteCenterX + texts[1]!.absoluteCenterX).toBe(template.width)
    }
  })

  const band = textCells(pseudoTemplates.tree)[0]!

  it('a short line fills the band height and is centred', () => {
    const font = fontOf('lora')
    const layout = layoutLine(font, 'Ava', band)
    expect(layout.fontSize).toBeCloseTo(band.height / ((font.ascender - font.descender) / font.unitsPerEm), 6)
    expect(layout.left + layout.width / 2).toBeCloseTo(band.absoluteCenterX, 6)
    expect(layout.width).toBeLessThan(band.width)
  })

  it('a long line shrinks to the band width', () => {
    const layout = layoutLine(fontOf('montserrat'), 'W'.repeat(40), band)
    expect(layout.width).toBeCloseTo(band.width, 6)
    expect(layout.left).toBeCloseTo(band.absoluteCenterX - band.width / 2, 6)
  })

  it('draws ink only inside the band, at whole output pixels, the same at every call', () => {
    const font = fontOf('dancing-script')
    const a = lineMask(font, "Baby's first Christmas", band, 640 / 2670)
    const b = lineMask(font, "Baby's first Christmas", band, 640 / 2670)
    expect(a.rect).toEqual(cellClipRect(band, 640 / 2670))
    expect(a.mask.alpha).toEqual(b.mask.alpha)
    const inked = a.mask.alpha.reduce((n, v) => n + (v > 0 ? 1 : 0), 0)
    expect(inked / a.mask.alpha.length).toBeGreaterThan(0.05)
    expect(inked / a.mask.alpha.length).toBeLessThan(0.6)
  })

  it('flattens curves into closed polygons', () => {
    const polys = polygonsOf(fontOf('lora').charToGlyph('O').getPath(0, 100, 100).commands)
    expect(polys).toHaveLength(2)
    for (const p of polys) expect(p.length % 2).toBe(0)
  })
})
