import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { MAX_ZOOM, pseudoTemplates } from '../../app/catalogue/ornaments'
import { clampTransform, effectiveDpi, MIN_PRINT_DPI, MIN_PRINTABLE_DPI, type PhotoTransform } from '../../app/compositor/layout'
import { GREAT_PRINT_DPI, gradeOfDpi, PRINT_GRADES, printQuality } from '../../app/compositor/print-quality'

/** The star's left cell: 1097 × 1214 template pixels (3.66 × 4.05 inches at 300 dpi). */
const star = pseudoTemplates.star.cells.find((c) => c.id === 'star-left')!
const upright = (zoom = 1): PhotoTransform => ({ x: 0, y: 0, zoom, rotation: 0 })
const rank = (grade: (typeof PRINT_GRADES)[number]) => PRINT_GRADES.indexOf(grade)

describe('grading an effective resolution', () => {
  it('draws the lines at 240 (great), 150 (good, the old warning) and 30 (the refusal floor)', () => {
    expect(GREAT_PRINT_DPI).toBe(240)
    expect(MIN_PRINT_DPI).toBe(150)
    expect(MIN_PRINTABLE_DPI).toBe(30)
    expect([600, 240, 239.99, 150, 149.99, 30, 29.99, 1].map(gradeOfDpi)).toEqual(['great', 'great', 'good', 'good', 'soft', 'soft', 'refused', 'refused'])
  })
})

describe('printQuality', () => {
  it('a 1600 × 1200 photo in the star is great at 1×, good at 1.5×, may look soft at 2.5×', () => {
    const photo = { width: 1600, height: 1200 }
    // Sized by the cell's height: 1214 / 1200 template pixels per photo pixel.
    expect(printQuality(star, photo, upright()).dpi).toBeCloseTo(300 / (1214 / 1200), 6)
    expect(printQuality(star, photo, upright())).toEqual({ grade: 'great', dpi: expect.any(Number) })
    expect(printQuality(star, photo, upright(1.5))).toEqual({ grade: 'good', dpi: expect.any(Number) })
    const soft = printQuality(star, photo, upright(2.5))
    expect(soft.grade).toBe('soft')
    expect(soft.reason).toBe('This photo is 1600 × 1200 and zoomed to 2.5×: about 118 dpi at print size (150 or more prints sharp).')
    // 296.5 dpi at 1× over 150: good up to 1.97×, said as the zoom control shows it.
    expect(soft.advice).toBe('Zoom out to 1.9× or less, or choose a larger photo.')
  })

  it('says why a small photo at 1× looks soft, and that only a larger photo helps', () => {
    const q = printQuality(star, { width: 640, height: 480 }, upright())
    expect(q.grade).toBe('soft')
    expect(q.reason).toBe('This photo is 640 × 480: about 118 dpi at print size (150 or more prints sharp).')
    expect(q.advice).toBe('Choose a larger photo: this one has too few pixels for the ornament.')
  })

  it('zoomed in, a photo that is good at 1× is told to zoom out, not to be replaced', () => {
    const q = printQuality(star, { width: 800, height: 600 }, upright(1.4))
    expect(q.grade).toBe('soft')
    // 148.3 dpi at 1×: below good even zoomed all the way out, so zooming is not the fix.
    expect(q.advice).toMatch(/^Choose a larger photo/)
    const bigger = printQuality(star, { width: 1000, height: 750 }, upright(1.4))
    // 185 dpi at 1×: good up to 1.2×.
    expect(bigger).toMatchObject({ grade: 'soft', advice: 'Zoom out to 1.2× or less, or choose a larger photo.' })
  })

  it('a turned photo that would be good upright is told to straighten', () => {
    const photo = { width: 800, height: 800 }
    expect(printQuality(star, photo, upright()).grade).toBe('good')
    const turned = printQuality(star, photo, { x: 0, y: 0, zoom: 1, rotation: 40 })
    expect(turned.grade).toBe('soft')
    expect(turned.reason).toContain('and turned 40°')
    expect(turned.advice).toBe('Straighten it, or choose a larger photo.')
    expect(printQuality(star, photo, { x: 0, y: 0, zoom: 1.2, rotation: 40 }).advice).toBe('Zoom out and straighten it, or choose a larger photo.')
  })

  it('refuses below 30 dpi with the same reason and advice shape', () => {
    const q = printQuality(star, { width: 24, height: 18 }, upright())
    expect(q.grade).toBe('refused')
    expect(q.reason).toMatch(/^This photo is 24 × 18: about \d dpi at print size/)
    expect(q.advice).toMatch(/^Choose a larger photo/)
  })

  it('never says a dpi that reaches the next grade when it does not (rounded down)', () => {
    // A 606-pixel-tall photo covers the 1214-pixel cell at 2.003×: 149.75 dpi, which rounds to 150.
    const q = printQuality(star, { width: 900, height: 606 }, upright())
    expect(q.dpi).toBeLessThan(150)
    expect(q.grade).toBe('soft')
    expect(q.reason).toContain('about 149 dpi')
  })

  const photos = fc.record({ width: fc.integer({ min: 8, max: 6000 }), height: fc.integer({ min: 8, max: 6000 }) })
  const zooms = fc.double({ min: 1, max: MAX_ZOOM, noNaN: true })
  const rotations = fc.double({ min: -360, max: 360, noNaN: true })
  const cells = fc.constantFrom(...Object.values(pseudoTemplates).flatMap((t) => t.cells.filter((c) => c.type === 'Image')))

  it('zooming in never improves the grade, and the dpi is effectiveDpi of the clamped transform', () => {
    fc.assert(
      fc.property(cells, photos, zooms, zooms, rotations, (cell, photo, z1, z2, rotation) => {
        const [lo, hi] = z1 <= z2 ? [z1, z2] : [z2, z1]
        const near = printQuality(cell, photo, { x: 0, y: 0, zoom: lo, rotation })
        const far = printQuality(cell, photo, { x: 0, y: 0, zoom: hi, rotation })
        expect(rank(far.grade)).toBeGreaterThanOrEqual(rank(near.grade))
        expect(far.dpi).toBeLessThanOrEqual(near.dpi * (1 + 1e-12))
        const t = { x: 0, y: 0, zoom: hi, rotation }
        expect(far.dpi).toBe(effectiveDpi(cell, photo, clampTransform(cell, photo, t)))
        expect(far.grade).toBe(gradeOfDpi(far.dpi))
      }),
    )
  })

  it('explains and advises exactly when the grade is soft or refused, and "Zoom out to Z×" reaches good at Z', () => {
    fc.assert(
      fc.property(cells, photos, zooms, rotations, (cell, photo, zoom, rotation) => {
        const q = printQuality(cell, photo, { x: 0, y: 0, zoom, rotation })
        const bad = q.grade === 'soft' || q.grade === 'refused'
        expect(q.reason !== undefined).toBe(bad)
        expect(q.advice !== undefined).toBe(bad)
        const to = /^Zoom out to (\d+\.\d)×/.exec(q.advice ?? '')
        if (to) {
          const there = printQuality(cell, photo, { x: 0, y: 0, zoom: Number(to[1]), rotation })
          expect(rank(there.grade)).toBeLessThanOrEqual(rank('good'))
          expect(Number(to[1])).toBeLessThan(zoom)
        }
      }),
    )
  })
})
