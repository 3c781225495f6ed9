import { describe, expect, it } from 'vitest'
import { rasterise, SUBSAMPLES } from '../../app/compositor/text-raster'

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

  it('clips outlines that leave the mask and gives the same bytes every time', () => {
    const polygons = [square(-5, -5, 2.25, 1.75), [1, 0, 3.3, 0.2, 2.1, 2.9]]
    const a = rasterise(polygons, 3, 3)
    const b = rasterise(polygons, 3, 3)
    expect(a.alpha).toEqual(b.alpha)
    expect(at(a, 0, 0)).toBe(255)
    expect(at(a, 2, 0)).toBeGreaterThan(0)
  })
})
