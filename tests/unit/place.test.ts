import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { invertMatrix, type Matrix, type Rect } from '../../app/compositor/layout'
import { placeBilinear, placementCovers, type DecodedImage, type Extent } from '../../app/compositor/place'

/** A GPU's texture read: bilinear between pixel centres, clamped at the texture's edges (no rounding). */
function gpuSample(img: DecodedImage, u: number, v: number, channel: number) {
  if (channel === 3 && img.channels === 3) return 255
  const sx = u - 0.5
  const sy = v - 0.5
  const x0 = Math.floor(sx)
  const y0 = Math.floor(sy)
  const fx = sx - x0
  const fy = sy - y0
  const at = (x: number, y: number) =>
    img.data[(Math.min(img.height - 1, Math.max(0, y)) * img.width + Math.min(img.width - 1, Math.max(0, x))) * img.channels + channel]!
  return (at(x0, y0) * (1 - fx) + at(x0 + 1, y0) * fx) * (1 - fy) + (at(x0, y0 + 1) * (1 - fx) + at(x0 + 1, y0 + 1) * fx) * fy
}

const image = fc
  .record({ width: fc.integer({ min: 1, max: 24 }), height: fc.integer({ min: 1, max: 24 }), channels: fc.constantFrom(3 as const, 4 as const) })
  .chain(({ width, height, channels }) =>
    fc
      .uint8Array({ minLength: width * height * channels, maxLength: width * height * channels })
      .map((data): DecodedImage => ({ data, width, height, channels })),
  )

/** Unturned or turned by any angle, mirrored or not, scaled 0.3–4 on each axis, moved anywhere near the rectangle. */
const placement = fc
  .record({
    // Unturned half the time: the common case has a path of its own (placeAxisAligned).
    angle: fc.oneof(fc.constant(0), fc.double({ min: -Math.PI, max: Math.PI, noNaN: true })),
    sx: fc.double({ min: 0.3, max: 4, noNaN: true }),
    sy: fc.double({ min: 0.3, max: 4, noNaN: true }),
    flip: fc.boolean(),
    tx: fc.double({ min: -20, max: 40, noNaN: true }),
    ty: fc.double({ min: -20, max: 40, noNaN: true }),
  })
  .map(({ angle, sx, sy, flip, tx, ty }): Matrix => {
    const cos = Math.cos(angle)
    const sin = Math.sin(angle)
    const fx = flip ? -sx : sx
    return { a: cos * fx, b: sin * fx, c: -sin * sy, d: cos * sy, tx, ty }
  })

const rectangle = fc.record({
  left: fc.integer({ min: -10, max: 20 }),
  top: fc.integer({ min: -10, max: 20 }),
  width: fc.integer({ min: 1, max: 30 }),
  height: fc.integer({ min: 1, max: 30 }),
})

/** Every pixel of `rect` against the GPU: inside the photo's quad the sample rounded, outside it transparent. */
function check(source: DecodedImage, m: Matrix, extent: Extent, rect: Rect) {
  const out = placeBilinear(source, m, extent, rect)
  expect(out.length).toBe(rect.width * rect.height * 4)
  const inverse = invertMatrix(m)
  for (let y = 0; y < rect.height; y++) {
    for (let x = 0; x < rect.width; x++) {
      const X = rect.left + x + 0.5
      const Y = rect.top + y + 0.5
      const u = inverse.a * X + inverse.c * Y + inverse.tx
      const v = inverse.b * X + inverse.d * Y + inverse.ty
      const i = (y * rect.width + x) * 4
      // A centre within a rounding error of the quad's edge may fall either side of it.
      const margin = 1e-6
      const inside = u >= extent.left + margin && u < extent.right - margin && v >= extent.top + margin && v < extent.bottom - margin
      const outside = u < extent.left - margin || u >= extent.right + margin || v < extent.top - margin || v >= extent.bottom + margin
      if (outside) expect([...out.subarray(i, i + 4)]).toEqual([0, 0, 0, 0])
      if (!inside) continue
      for (let channel = 0; channel < 4; channel++) {
        expect(Math.abs(out[i + channel]! - gpuSample(source, u, v, channel))).toBeLessThanOrEqual(0.5 + 1e-6)
      }
    }
  }
}

describe('a photo is placed as a GPU draws a sprite (decision 050)', () => {
  it('every pixel of generated placements: the bilinear sample rounded inside the quad, transparent outside it', () => {
    fc.assert(
      fc.property(image, placement, rectangle, (source, m, rect) => {
        check(source, m, { left: 0, top: 0, right: source.width, bottom: source.height }, rect)
      }),
      { numRuns: 300 },
    )
  })

  it('a part of a larger photo draws what the whole photo draws, inside the part less a margin of two pixels', () => {
    fc.assert(
      fc.property(
        image.filter((img) => img.width >= 8 && img.height >= 8),
        placement,
        rectangle,
        fc.integer({ min: 0, max: 3 }),
        fc.integer({ min: 0, max: 3 }),
        (whole, m, rect, left, top) => {
          // The part: columns and rows from (left, top) to the far edges less 1, as the renderer decodes a region.
          const width = whole.width - left - 1
          const height = whole.height - top - 1
          const part = new Uint8Array(width * height * whole.channels)
          for (let y = 0; y < height; y++) {
            part.set(
              whole.data.subarray(((top + y) * whole.width + left) * whole.channels, ((top + y) * whole.width + left + width) * whole.channels),
              y * width * whole.channels,
            )
          }
          const partImage: DecodedImage = { data: part, width, height, channels: whole.channels }
          // The part's pixel (0, 0) is the whole's (left, top): the placement moves by that much.
          const moved: Matrix = { ...m, tx: m.tx + m.a * left + m.c * top, ty: m.ty + m.b * left + m.d * top }
          const extent = { left: -left, top: -top, right: whole.width - left, bottom: whole.height - top }
          const fromWhole = placeBilinear(whole, m, { left: 0, top: 0, right: whole.width, bottom: whole.height }, rect)
          const fromPart = placeBilinear(partImage, moved, extent, rect)
          const inverse = invertMatrix(moved)
          for (let y = 0; y < rect.height; y++) {
            for (let x = 0; x < rect.width; x++) {
              const u = inverse.a * (rect.left + x + 0.5) + inverse.c * (rect.top + y + 0.5) + inverse.tx
              const v = inverse.b * (rect.left + x + 0.5) + inverse.d * (rect.top + y + 0.5) + inverse.ty
              // Samples that need no pixel outside the part (its clamped edge is a margin the renderer keeps).
              if (u < 1.5 || v < 1.5 || u > width - 1.5 || v > height - 1.5) continue
              const i = (y * rect.width + x) * 4
              for (let c = 0; c < 4; c++) expect(Math.abs(fromPart[i + c]! - fromWhole[i + c]!)).toBeLessThanOrEqual(1)
            }
          }
        },
      ),
      { numRuns: 200 },
    )
  })

  it('an opaque photo that covers the rectangle leaves no pixel transparent, and a mirrored one lands where its mirror image does', () => {
    const data = new Uint8Array(4 * 3 * 3)
    for (let i = 0; i < data.length; i++) data[i] = (i * 37) % 256
    const source: DecodedImage = { data, width: 4, height: 3, channels: 3 }
    const extent = { left: 0, top: 0, right: 4, bottom: 3 }
    // Scaled 2×: the photo covers 8 × 6 output pixels exactly.
    const straight = placeBilinear(source, { a: 2, b: 0, c: 0, d: 2, tx: 0, ty: 0 }, extent, { left: 0, top: 0, width: 8, height: 6 })
    for (let i = 3; i < straight.length; i += 4) expect(straight[i]).toBe(255)
    // Mirrored about x = 4: output column x holds what column 7 − x holds unmirrored.
    const mirrored = placeBilinear(source, { a: -2, b: 0, c: 0, d: 2, tx: 8, ty: 0 }, extent, { left: 0, top: 0, width: 8, height: 6 })
    for (let y = 0; y < 6; y++) {
      for (let x = 0; x < 8; x++)
        expect([...mirrored.subarray((y * 8 + x) * 4, (y * 8 + x) * 4 + 4)]).toEqual([...straight.subarray((y * 8 + 7 - x) * 4, (y * 8 + 7 - x) * 4 + 4)])
    }
  })

  it('says an unturned placement covers its rectangle exactly when an opaque photo draws every pixel of it (so the fill before it and the alpha scan after it may be skipped), and never says so of a turned one', () => {
    fc.assert(
      fc.property(image, placement, rectangle, (source, m, rect) => {
        const opaque: DecodedImage = { ...source, channels: 3, data: source.data.subarray(0, source.width * source.height * 3) }
        const extent = { left: 0, top: 0, right: opaque.width, bottom: opaque.height }
        const out = placeBilinear(opaque, m, extent, rect)
        let drawn = 0
        for (let i = 3; i < out.length; i += 4) if (out[i] === 255) drawn++
        // A corner centre within a rounding error of the quad's edge may be judged either way; a wrong "covers" never.
        const turned = m.b !== 0 || m.c !== 0
        if (turned) expect(placementCovers(m, extent, rect)).toBe(false)
        else if (placementCovers(m, extent, rect)) expect(drawn).toBe(rect.width * rect.height)
        else if (drawn === rect.width * rect.height) {
          const inverse = invertMatrix(m)
          const corners = [rect.left + 0.5, rect.left + rect.width - 0.5].flatMap((X) =>
            [rect.top + 0.5, rect.top + rect.height - 0.5].map((Y) => [inverse.a * X + inverse.c * Y + inverse.tx, inverse.b * X + inverse.d * Y + inverse.ty]),
          )
          const nearEdge = corners.some(([u, v]) => Math.min(Math.abs(u!), Math.abs(u! - opaque.width), Math.abs(v!), Math.abs(v! - opaque.height)) < 1e-6)
          expect(nearEdge).toBe(true)
        }
      }),
      { numRuns: 300 },
    )
  })
})
