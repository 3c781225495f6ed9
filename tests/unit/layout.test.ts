import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import {
  applyMatrix,
  cellClipRect,
  clampTransform,
  coverScale,
  drawOrder,
  effectiveDpi,
  invertMatrix,
  normaliseRotation,
  outputSize,
  patternTileSize,
  photoMatrix,
  scaleMatrix,
  type LayoutCell,
} from '../../app/compositor/layout'
import { pseudoTemplates } from '../../app/catalogue/ornaments'

const cell: LayoutCell = {
  id: 'c',
  type: 'Image',
  absoluteCenterX: 667.5,
  absoluteCenterY: 922,
  width: 1149,
  height: 1700,
  positionRelativeToTemplate: 'Beneath',
  zIndex: 1,
}
const landscape = { width: 4000, height: 3000 }

describe('cover scale and placement', () => {
  it('a landscape photo covering a portrait cell is sized by the cell height', () => {
    expect(coverScale(cell, landscape, 0)).toBeCloseTo(1700 / 3000, 12)
    const m = photoMatrix(cell, landscape, { x: 0, y: 0, zoom: 1, rotation: 0 })
    // The photo's centre lands on the cell's centre, its top edge on the cell's top edge.
    expect(applyMatrix(m, 2000, 1500)).toEqual({ x: 667.5, y: 922 })
    expect(applyMatrix(m, 2000, 0).y).toBeCloseTo(922 - 850, 9)
    expect(applyMatrix(m, 0, 1500).x).toBeCloseTo(667.5 - (4000 * 1700) / 3000 / 2, 9)
  })

  it('a quarter turn swaps which side decides the cover', () => {
    expect(coverScale(cell, landscape, 90)).toBeCloseTo(Math.max(1700 / 4000, 1149 / 3000), 12)
  })

  it('turning needs more photo to keep the corners covered', () => {
    const s0 = coverScale(cell, landscape, 0)
    const s30 = coverScale(cell, landscape, 30)
    const rad = Math.PI / 6
    expect(s30).toBeCloseTo(Math.max((1149 * Math.cos(rad) + 1700 * Math.sin(rad)) / 4000, (1149 * Math.sin(rad) + 1700 * Math.cos(rad)) / 3000), 12)
    expect(s30).toBeGreaterThan(s0)
  })

  it('offset, zoom and rotation compose into one matrix, and scaling the output scales it', () => {
    const t = { x: 20, y: -30, zoom: 2, rotation: 90 }
    const m = photoMatrix(cell, landscape, t)
    const s = coverScale(cell, landscape, 90) * 2
    expect(m.a).toBeCloseTo(0, 12)
    expect(m.b).toBeCloseTo(s, 12)
    expect(m.c).toBeCloseTo(-s, 12)
    // Photo centre at cell centre + offset.
    const centre = applyMatrix(m, 2000, 1500)
    expect(centre.x).toBeCloseTo(687.5, 9)
    expect(centre.y).toBeCloseTo(892, 9)
    // Photo's top-left corner after a clockwise quarter turn is at the top-right.
    const corner = applyMatrix(m, 0, 0)
    expect(corner.x).toBeCloseTo(687.5 + 1500 * s, 9)
    expect(corner.y).toBeCloseTo(892 - 2000 * s, 9)
    const half = scaleMatrix(m, 0.5)
    expect(applyMatrix(half, 2000, 1500).x).toBeCloseTo(343.75, 9)
    const back = applyMatrix(invertMatrix(m), centre.x, centre.y)
    expect(back.x).toBeCloseTo(2000, 9)
    expect(back.y).toBeCloseTo(1500, 9)
  })
})

describe('clampTransform', () => {
  it('keeps zoom within 1..5 and folds rotation into (-180, 180]', () => {
    expect(clampTransform(cell, landscape, { x: 0, y: 0, zoom: 0.2, rotation: 540 })).toMatchObject({ zoom: 1, rotation: 180 })
    expect(clampTransform(cell, landscape, { x: 0, y: 0, zoom: 99, rotation: -190 })).toMatchObject({ zoom: 5, rotation: 170 })
    expect(normaliseRotation(-180)).toBe(180)
    expect(clampTransform(cell, landscape, { x: Number.NaN, y: Infinity, zoom: Number.NaN, rotation: Number.NaN })).toEqual({
      x: 0,
      y: 0,
      zoom: 1,
      rotation: 0,
    })
  })

  it('a photo at cover size cannot move across the tight axis but slides along the loose one', () => {
    const t = clampTransform(cell, landscape, { x: 5000, y: 5000, zoom: 1, rotation: 0 })
    const photoWidth = (4000 * 1700) / 3000
    expect(t.y).toBeCloseTo(0, 9)
    expect(t.x).toBeCloseTo((photoWidth - 1149) / 2, 9)
  })

  it('never leaves a corner of the cell uncovered (property)', () => {
    fc.assert(
      fc.property(
        fc.record({
          pw: fc.integer({ min: 50, max: 6000 }),
          ph: fc.integer({ min: 50, max: 6000 }),
          x: fc.double({ min: -1e5, max: 1e5, noNaN: true }),
          y: fc.double({ min: -1e5, max: 1e5, noNaN: true }),
          zoom: fc.double({ min: -3, max: 10, noNaN: true }),
          rotation: fc.double({ min: -720, max: 720, noNaN: true }),
        }),
        ({ pw, ph, ...raw }) => {
          const photo = { width: pw, height: ph }
          const t = clampTransform(cell, photo, raw)
          const inverse = invertMatrix(photoMatrix(cell, photo, t))
          const l = cell.absoluteCenterX - cell.width / 2
          const top = cell.absoluteCenterY - cell.height / 2
          for (const [cx, cy] of [
            [l, top],
            [l + cell.width, top],
            [l, top + cell.height],
            [l + cell.width, top + cell.height],
          ] as const) {
            const p = applyMatrix(inverse, cx, cy)
            const eps = 1e-6 * Math.max(pw, ph)
            expect(p.x).toBeGreaterThanOrEqual(-eps)
            expect(p.y).toBeGreaterThanOrEqual(-eps)
            expect(p.x).toBeLessThanOrEqual(pw + eps)
            expect(p.y).toBeLessThanOrEqual(ph + eps)
          }
          // Clamping is idempotent.
          const again = clampTransform(cell, photo, t)
          expect(again.x).toBeCloseTo(t.x, 6)
          expect(again.y).toBeCloseTo(t.y, 6)
        },
      ),
      { numRuns: 300 },
    )
  })
})

describe('pixels, order and tiles', () => {
  it('cell clip rects land on whole pixels and neighbouring cells never overlap', () => {
    expect(cellClipRect(cell, 1)).toEqual({ left: 93, top: 72, width: 1149, height: 1700 })
    expect(cellClipRect(cell, 0.25)).toEqual({ left: 23, top: 18, width: 288, height: 425 })
    for (const template of Object.values(pseudoTemplates)) {
      const [left, right] = template.cells.filter((c) => c.type === 'Image').map((c) => cellClipRect(c, 0.3))
      expect(left!.left + left!.width).toBeLessThanOrEqual(right!.left)
    }
    expect(outputSize({ width: 2670, height: 1519 }, 0.25)).toEqual({ width: 668, height: 380 })
  })

  it('draws Beneath cells by zIndex, then the template, then OnTop cells by zIndex', () => {
    const mk = (id: string, position: 'OnTop' | 'Beneath', zIndex: number): LayoutCell => ({ ...cell, id, positionRelativeToTemplate: position, zIndex })
    const order = drawOrder([mk('top2', 'OnTop', 2), mk('b3', 'Beneath', 3), mk('top1', 'OnTop', 1), mk('b0', 'Beneath', 0)])
    expect(order.map((l) => (l.kind === 'template' ? 'template' : l.cell.id))).toEqual(['b0', 'b3', 'template', 'top1', 'top2'])
    expect(drawOrder(pseudoTemplates.star.cells).map((l) => (l.kind === 'template' ? 'template' : l.cell.type))).toEqual([
      'PatternImage',
      'Image',
      'Image',
      'Text',
      'Text',
      'template',
    ])
  })

  it('pattern tiles are whole pixels at every scale, so both renderers repeat them identically', () => {
    const pattern = pseudoTemplates.tree.cells.find((c) => c.type === 'PatternImage')!.patternData!
    expect(patternTileSize(pattern, 0.25)).toEqual({ width: 40, height: 40 })
    expect(patternTileSize(pattern, 640 / 2670)).toEqual({ width: 38, height: 38 })
    expect(patternTileSize(pattern, 0.001)).toEqual({ width: 1, height: 1 })
  })
})

describe('effective resolution', () => {
  it('is PRINT_DPI over template pixels per photo pixel, and zooming in spends it', () => {
    const t = { x: 0, y: 0, zoom: 1, rotation: 0 }
    expect(effectiveDpi(cell, landscape, t)).toBeCloseTo(300 / (1700 / 3000), 6)
    expect(effectiveDpi(cell, landscape, { ...t, zoom: 3.6 })).toBeCloseTo(300 / (1700 / 3000) / 3.6, 6)
  })
})
