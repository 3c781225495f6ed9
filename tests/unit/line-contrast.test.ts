import { describe, expect, it } from 'vitest'
import { pseudoTemplates, textCells } from '../../app/catalogue/ornaments'
import { colourIds, contrastRatio, haloColourOf, relativeLuminance } from '../../app/catalogue/personal-line'
import { cellClipRect } from '../../app/compositor/layout'
import { contrastFor, haloContrast, measureLineContrast, POOR_CONTRAST, type RgbaPixels } from '../../app/compositor/line-contrast'
import { typefaceFont } from '../../app/compositor/text-fonts.server'
import { drawLine, lineMask } from '../../app/compositor/text-line'
import { type AlphaMask } from '../../app/compositor/text-raster'

const W = 40
const H = 10

/** A W × H sheet whose pixel colour `colourAt(x, y)` gives, opaque unless said. */
function sheet(colourAt: (x: number, y: number) => [number, number, number, number?]): RgbaPixels {
  const data = new Uint8Array(W * H * 4)
  for (let y = 0; y < H; y++)
    for (let x = 0; x < W; x++) {
      const [r, g, b, a = 255] = colourAt(x, y)
      data.set([r, g, b, a], (y * W + x) * 4)
    }
  return { width: W, height: H, data }
}

/** Glyphs covering every other column fully (a striped "line") across the whole sheet. */
const stripes: AlphaMask = { width: W, height: H, alpha: Uint8Array.from({ length: W * H }, (_, i) => (i % 2 === 0 ? 255 : 0)) }
const glyphs = { rect: { left: 0, top: 0, width: W, height: H }, glyphs: stripes }

const SNOW: [number, number, number] = [255, 255, 255]
const PINE_NIGHT: [number, number, number] = [20, 40, 35]

describe('how a line reads on its photo (decision 058)', () => {
  it('snow white on a snowy photo is poor and Ink reads best', () => {
    const c = measureLineContrast(
      sheet(() => [245, 248, 250]),
      glyphs,
      { colour: 'snow' },
    )!
    expect(c.ratio).toBeLessThan(1.2)
    expect(c.poor).toBe(true)
    expect(c.best).toBe('ink')
    expect(c.ratios.ink).toBeGreaterThan(12)
    expect(c).toMatchObject({ colour: 'snow', halo: false })
  })

  it('snow white on a dark photo reads well', () => {
    const c = measureLineContrast(
      sheet(() => PINE_NIGHT),
      glyphs,
      { colour: 'snow' },
    )!
    expect(c.ratio).toBeGreaterThan(10)
    expect(c.poor).toBe(false)
    expect(c.best).toBe('snow')
  })

  it('a line half over snow and half over a dark photo is poor (the poor percentile, not the mean)', () => {
    const half = sheet((x) => (x < W / 2 ? SNOW : PINE_NIGHT))
    const c = measureLineContrast(half, glyphs, { colour: 'snow' })!
    expect(c.poor).toBe(true)
    expect(c.ratio).toBeLessThan(1.1)
    // Averaged, the two halves make a mid grey that white would "read" on at better than 2:1; the percentile does not.
    const meanLuminance = (relativeLuminance(SNOW) + relativeLuminance(PINE_NIGHT)) / 2
    expect(contrastRatio(1, meanLuminance)).toBeGreaterThan(1.8)
    // Ink is as poor on the dark half as snow is on the white one: no palette colour reads on both halves.
    expect(c.ratios.ink).toBeLessThan(POOR_CONTRAST)
  })

  it('a few bright pixels under a long line do not make it poor', () => {
    const mostlyDark = sheet((x) => (x < 4 ? SNOW : PINE_NIGHT))
    expect(measureLineContrast(mostlyDark, glyphs, { colour: 'snow' })!.poor).toBe(false)
    const aThirdBright = sheet((x) => (x < 14 ? SNOW : PINE_NIGHT))
    expect(measureLineContrast(aThirdBright, glyphs, { colour: 'snow' })!.poor).toBe(true)
  })

  it('weighs pixels by glyph coverage: what lies between the letters does not count', () => {
    // Snow under the uncovered (odd) columns only: the letters sit on the dark photo.
    const between = sheet((x) => (x % 2 === 1 ? SNOW : PINE_NIGHT))
    expect(measureLineContrast(between, glyphs, { colour: 'snow' })!.poor).toBe(false)
    const under = sheet((x) => (x % 2 === 0 ? SNOW : PINE_NIGHT))
    expect(measureLineContrast(under, glyphs, { colour: 'snow' })!.poor).toBe(true)
  })

  it('ignores pixels that are not printed (outside the silhouette), and answers null when nothing printed is covered', () => {
    const outside = sheet((x) => (x < W / 2 ? [255, 255, 255, 0] : PINE_NIGHT))
    expect(measureLineContrast(outside, glyphs, { colour: 'snow' })!.poor).toBe(false)
    expect(
      measureLineContrast(
        sheet(() => [255, 255, 255, 0]),
        glyphs,
        { colour: 'snow' },
      ),
    ).toBeNull()
    const nothing = { ...glyphs, glyphs: { ...stripes, alpha: new Uint8Array(W * H) } }
    expect(
      measureLineContrast(
        sheet(() => SNOW),
        nothing,
        { colour: 'snow' },
      ),
    ).toBeNull()
  })

  it('reads premultiplied pixels (a GPU read-back) as the same colours', () => {
    const grey = [120, 130, 125] as const
    const straight = sheet(() => [...grey, 128])
    const premultipliedData = Uint8Array.from(straight.data, (v, i) => (i % 4 === 3 ? v : Math.round((v * 128) / 255)))
    const a = measureLineContrast(straight, glyphs, { colour: 'gold' })!
    const b = measureLineContrast({ ...straight, data: premultipliedData, premultiplied: true }, glyphs, { colour: 'gold' })!
    for (const id of colourIds) expect(Math.abs(a.ratios[id] - b.ratios[id])).toBeLessThanOrEqual(0.05)
  })

  it('places the glyphs by their rect on the sheet', () => {
    const right = sheet((x) => (x >= W / 2 ? SNOW : PINE_NIGHT))
    const half: AlphaMask = { width: W / 2, height: H, alpha: new Uint8Array((W / 2) * H).fill(255) }
    expect(measureLineContrast(right, { rect: { left: 0, top: 0, width: W / 2, height: H }, glyphs: half }, { colour: 'snow' })!.poor).toBe(false)
    expect(measureLineContrast(right, { rect: { left: W / 2, top: 0, width: W / 2, height: H }, glyphs: half }, { colour: 'snow' })!.poor).toBe(true)
  })

  it('a haloed line is read against its halo, and contrastFor answers for another colour or the halo without measuring again', () => {
    const snowy = measureLineContrast(
      sheet(() => SNOW),
      glyphs,
      { colour: 'snow', halo: true },
    )!
    expect(snowy.halo).toBe(true)
    expect(snowy.poor).toBe(false)
    expect(snowy.ratio).toBe(haloContrast('snow'))
    // The photo's own ratios are still given, for the suggestion.
    expect(snowy.ratios.snow).toBe(1)
    const plain = contrastFor(snowy, { colour: 'snow' })
    expect(plain).toMatchObject({ halo: false, ratio: 1, poor: true, best: 'ink' })
    expect(contrastFor(plain, { colour: 'ink' })).toMatchObject({ colour: 'ink', poor: false })
  })

  it('every colour with its halo reads at better than 3:1', () => {
    for (const id of colourIds) expect(haloContrast(id), `${id} with a ${haloColourOf(id)} halo`).toBeGreaterThanOrEqual(POOR_CONTRAST)
    expect(haloColourOf('snow')).toBe('ink')
    expect(haloColourOf('gold')).toBe('ink')
    expect(haloColourOf('ink')).toBe('snow')
    expect(haloColourOf('cranberry')).toBe('snow')
    expect(haloColourOf('pine')).toBe('snow')
  })

  it('measures a real line on a real cell: snow white over a white photo is poor, over black it is not', async () => {
    const template = pseudoTemplates.tree
    const [cell] = textCells(template)
    const scale = 0.5
    const font = await typefaceFont('lora')
    const { rect, mask } = lineMask(font, 'Ava · 2026', cell!, scale)
    const whole = cellClipRect(cell!, scale)
    expect(rect).toEqual(whole)
    const page = (v: number): RgbaPixels => ({
      width: rect.left + rect.width,
      height: rect.top + rect.height,
      data: new Uint8Array((rect.left + rect.width) * (rect.top + rect.height) * 4).fill(v),
    })
    const white = page(255)
    expect(measureLineContrast(white, { rect, glyphs: mask }, { colour: 'snow' })).toMatchObject({ poor: true, best: 'ink' })
    const black = { ...page(0) }
    for (let i = 3; i < black.data.length; i += 4) black.data[i] = 255
    expect(measureLineContrast(black, { rect, glyphs: mask }, { colour: 'snow' })).toMatchObject({ poor: false, best: 'snow' })
    // The glyphs a haloed line is measured under are its letters, not its halo.
    const haloed = drawLine(font, { line: 'Ava · 2026', typeface: 'lora', colour: 'snow', halo: true }, cell!, scale)
    const count = (m: AlphaMask) => m.alpha.reduce((n, a) => n + (a > 0 ? 1 : 0), 0)
    expect(count(haloed.mask)).toBeGreaterThan(count(haloed.glyphs) * 1.3)
  })
})
