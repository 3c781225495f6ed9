import { createHash } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { pseudoTemplates, textCells } from '../../app/catalogue/ornaments'
import { typefaceIds } from '../../app/catalogue/personal-line'
import { cellClipRect } from '../../app/compositor/layout'
import { typefaceFont } from '../../app/compositor/text-fonts.server'
import { layoutLine, polygonsOf } from '../../app/compositor/text-line'
import { dilate, rasterise, SUBSAMPLES } from '../../app/compositor/text-raster'

const square = (x0: number, y0: number, x1: number, y1: number) => [x0, y0, x1, y0, x1, y1, x0, y1]
const at = (mask: { width: number; alpha: Uint8Array }, x: number, y: number) => mask.alpha[y * mask.width + x]

describe('the shared text rasteriser', () => {
  it('fills a pixel-aligned square fully and nothing around it', () => {
    const mask = rasterise([square(1, 1, 3, 3)], 4, 4)
    expect([...mask.alpha]).toEqual([0, 0, 0, 0, 0, 255, 255, 0, 0, 255, 255, 0, 0, 0, 0, 0])
  })

  it('covers half a pixel along a vertical edge at x = 0.5', () => {
    const mask = rasterise([square(0.5, 0, 2, 1)], 2, 1)
    expect([at(mask, 0, 0), at(mask, 1, 0)]).toEqual([128, 255])
  })

  it('covers half a pixel along a horizontal edge at y = 0.5', () => {
    const mask = rasterise([square(0, 0.5, 1, 2)], 1, 2)
    expect([at(mask, 0, 0), at(mask, 0, 1)]).toEqual([128, 255])
  })

  it('covers a quarter of a pixel under a quarter square, in either winding direction', () => {
    const clockwise = rasterise([square(0.5, 0.5, 1, 1)], 1, 1)
    const anticlockwise = rasterise([[0.5, 0.5, 0.5, 1, 1, 1, 1, 0.5]], 1, 1)
    expect(at(clockwise, 0, 0)).toBe(64)
    expect(at(anticlockwise, 0, 0)).toBe(64)
  })

  it('covers half a pixel under its diagonal, within the vertical sampling', () => {
    const mask = rasterise([[0, 0, 1, 1, 0, 1]], 1, 1)
    expect(Math.abs(at(mask, 0, 0)! - 128)).toBeLessThanOrEqual(Math.ceil(255 / SUBSAMPLES / 2))
  })

  it('leaves the hole of a letter empty (an inner outline wound the other way) and fills overlapping outlines once', () => {
    const ring = rasterise([square(0, 0, 4, 4), [1, 1, 1, 3, 3, 3, 3, 1]], 4, 4)
    expect(at(ring, 0, 0)).toBe(255)
    expect(at(ring, 1, 1)).toBe(0)
    const overlapping = rasterise([square(0, 0, 2, 1), square(1, 0, 3, 1)], 3, 1)
    expect([...overlapping.alpha]).toEqual([255, 255, 255])
  })

  it('grows a mask by a radius for the halo: the outline pushed out, anti-aliased at its rim, nothing beyond', () => {
    const dot = { width: 13, height: 13, alpha: new Uint8Array(169) }
    const at13 = (m: { alpha: Uint8Array }, x: number, y: number) => m.alpha[y * 13 + x]
    dot.alpha[6 * 13 + 6] = 255
    const grown = dilate(dot, 3)
    // A full pixel's outline is its edge, ½ px from its centre: pushed out by 3 it runs 3.5 px from the centre.
    expect([at13(grown, 6, 6), at13(grown, 9, 6), at13(grown, 6, 3), at13(grown, 8, 8)]).toEqual([255, 255, 255, 255]) // 0, 3, 3, 2.83
    expect(at13(grown, 10, 6)).toBe(0) // 4: beyond
    expect(at13(grown, 9, 8)).toBe(Math.round((4 - Math.sqrt(13)) * 255)) // 3.61: two fifths
    expect(at13(grown, 9, 7)).toBe(Math.round((4 - Math.sqrt(10)) * 255)) // 3.16: most of it
    // A half-covered pixel holds the outline at its centre: the halo's rim runs through the pixel 3 px away.
    dot.alpha[6 * 13 + 6] = 128
    expect(at13(dilate(dot, 3), 9, 6)).toBe(Math.round((128 / 255) * 255))
    expect(at13(dilate(dot, 3), 8, 6)).toBe(255)
    // A thin stroke (a column of half-covered pixels) gets a full halo beside it, not a half one: its rim is 2 px out.
    const stroke = { width: 13, height: 13, alpha: new Uint8Array(169) }
    for (let y = 0; y < 13; y++) stroke.alpha[y * 13 + 6] = 128
    const haloed = dilate(stroke, 2)
    expect([3, 4, 5, 6, 7, 8, 9].map((x) => at13(haloed, x, 6))).toEqual([0, 128, 255, 255, 255, 128, 0])
    const square4 = rasterise([square(4, 4, 7, 7)], 11, 11)
    const grownSquare = dilate(square4, 1.5)
    for (let i = 0; i < square4.alpha.length; i++) expect(grownSquare.alpha[i]!).toBeGreaterThanOrEqual(square4.alpha[i]!)
    // The square's left edge at x = 4 moves to 2.5: pixel 3 is covered, pixel 2 half, pixel 1 not at all.
    expect([1, 2, 3].map((x) => at(grownSquare, x, 5))).toEqual([0, 128, 255])
    expect(dilate(square4, 0).alpha).toEqual(square4.alpha)
    expect(dilate(square4, 1.5).alpha).toEqual(grownSquare.alpha)
  })

  it('clips outlines that leave the mask and gives the same bytes every time', () => {
    const polygons = [square(-5, -5, 2.25, 1.75), [1, 0, 3.3, 0.2, 2.1, 2.9]]
    const a = rasterise(polygons, 3, 3)
    const b = rasterise(polygons, 3, 3)
    expect(a.alpha).toEqual(b.alpha)
    expect(at(a, 0, 0)).toBe(255)
    expect(at(a, 2, 0)).toBeGreaterThan(0)
  })
})

/**
 * The mask of the longest line in every typeface, on every shape, at print scale and at a preview scale, as
 * sha256 of its bytes: recorded from the rasteriser before its crossings were insertion-sorted (issue 31,
 * item 3), which must not change one byte (the live preview draws from the same function, decision 034).
 */
const RECORDED: Record<string, string> = {
  'lora tree 1': '373096bea6937a8002bf3fff2c76692fe49f0ffda261ca01beb38409f8b44ad8',
  'lora tree 0.37': 'acd2f98ad74c55eee7965c0773b686fd04fbe441d1d6b6508b8796520b074efe',
  'lora star 1': '3b854a4c8b4afbe2f70be6a61d6859191b71d3b32c53f419e06b7041de98f824',
  'lora star 0.37': '43aa4cc64232cc4877879d604315ba0a5ad0654f3258ee30ae0ffabf7e3a6175',
  'lora stocking 1': '90624ed1eb5b3e8abaddf2bf83b87a6d54eff12a738e892a05b703ecf6d47bb9',
  'lora stocking 0.37': '4da9955a58dab23e288bc7dff23d63f9d8b340b5621bf8529ec579b9b8de3aaa',
  'dancing-script tree 1': '1b8dc8f0909db132faa3158e4d30959234bdf2a5b26f3b60860ecea424b66e21',
  'dancing-script tree 0.37': 'b4b8ed93fb51a089bfd708d64278a994b8252eb644e8e45c0201c9f7769b685f',
  'dancing-script star 1': 'c5225111b94e3ccffe11a26d26118ba2898d7ebffadfc26617a8b3b40727a03e',
  'dancing-script star 0.37': 'ad294bb347d936c5550e1e4cf9e5a8d3dda48c1056b114a0090b2276f8045508',
  'dancing-script stocking 1': '39f9dcc5b6e59897f2a8b1c643929ef4b5499b96cb32cdedd0b4b192a8e032e7',
  'dancing-script stocking 0.37': '73ad5dfb8d5fba5ef90caf4341915ae8bb4b4402558760948911e08ba8779c88',
  'montserrat tree 1': '76b99e9b16eb256420658aae2430c085f1177621446074820874be9a07e043d9',
  'montserrat tree 0.37': '556c5379da7e4ede173b3da17f64737c4e2102de0b2de45b00b15e4fceca622a',
  'montserrat star 1': '94b0e8009a08ae5ffc0bd546022f361e184601189ea5dce87167ee0a78255925',
  'montserrat star 0.37': 'dacc391c8fc71e96d2bd4805342db9415942820470e212ba4438822ad00c721f',
  'montserrat stocking 1': 'fd20c78f972a081f0fb64c5591b6cb1598a04e6a5ab612ec973d3faa0e910db6',
  'montserrat stocking 0.37': '4b43c8a88b1fcf8ca6606b7a74009e41d39c1f6984089d8696f2752241c02a8a',
}

describe('the rasteriser on real lines', () => {
  it('gives the recorded bytes for every typeface, shape and scale', async () => {
    const seen: Record<string, string> = {}
    for (const face of typefaceIds) {
      const font = await typefaceFont(face)
      for (const shape of ['tree', 'star', 'stocking'] as const) {
        const cell = textCells(pseudoTemplates[shape])[0]!
        for (const scale of [1, 0.37]) {
          const rect = cellClipRect(cell, scale)
          const layout = layoutLine(font, "Baby's first Christmas · 2026", cell)
          const polygons = layout.glyphs.flatMap(({ glyph, x }) =>
            polygonsOf(glyph.getPath(x * scale - rect.left, layout.baseline * scale - rect.top, layout.fontSize * scale).commands),
          )
          seen[`${face} ${shape} ${scale}`] = createHash('sha256')
            .update(rasterise(polygons, rect.width, rect.height).alpha)
            .digest('hex')
        }
      }
    }
    expect(seen).toEqual(RECORDED)
  })
})
