/**
 * A photo placed into a cell's rectangle as a GPU draws a sprite (decision 050): each output pixel's
 * centre is taken back through the placement to the photo, which is sampled bilinearly between its pixel
 * centres and clamped at its edges; a pixel whose centre falls outside the photo's quad stays
 * transparent. This is what pixi does in the live preview, written out for the print render: only the
 * rectangle's pixels are computed, straight from the decoded photo (3 or 4 channels), without the padded
 * RGBA copy and the larger output window a libvips affine needed.
 */
import { invertMatrix, type Matrix, type Rect } from './layout'

/** Decoded pixels, interleaved, 3 (RGB) or 4 (RGBA, straight alpha) channels a pixel. */
export type DecodedImage = { data: Uint8Array; width: number; height: number; channels: 3 | 4 }

/** Where the whole photo lies in the decoded image's pixel coordinates (the image may be a part of it). */
export type Extent = { left: number; top: number; right: number; bottom: number }

/**
 * `source` drawn through `m` (source pixel coordinates, corners continuous, to output coordinates) into
 * `rect`: RGBA, straight alpha, `rect.width × rect.height`. `extent` bounds the quad: where a part of the
 * photo was decoded, the photo's own edges, not the part's, decide what is drawn (the part is cut with a
 * margin, so its clamped edge is never sampled inside the photo).
 */
export function placeBilinear<Out extends Uint8Array = Uint8Array>(
  source: DecodedImage,
  m: Matrix,
  extent: Extent,
  rect: Rect,
  /** Where to draw: `rect.width × rect.height × 4` bytes, all 0 (pixels the photo does not reach are left as they are). */
  out: Out = new Uint8Array(rect.width * rect.height * 4) as Out,
): Out {
  if (m.b === 0 && m.c === 0) return placeAxisAligned(source, m, extent, rect, out)
  // The inverse: output → source.
  const { a: ia, b: ib, c: ic, d: id, tx: itx, ty: ity } = invertMatrix(m)
  const { data, width, height, channels } = source
  const maxX = width - 1
  const maxY = height - 1
  const stride = width * channels
  for (let y = 0; y < rect.height; y++) {
    const Y = rect.top + y + 0.5
    const X0 = rect.left + 0.5
    // The source position of this row's first pixel centre; each step right adds (ia, ib).
    let u = ia * X0 + ic * Y + itx
    let v = ib * X0 + id * Y + ity
    let o = y * rect.width * 4
    for (let x = 0; x < rect.width; x++, u += ia, v += ib, o += 4) {
      if (u < extent.left || u >= extent.right || v < extent.top || v >= extent.bottom) continue
      const sx = u - 0.5
      const sy = v - 0.5
      const fx0 = Math.floor(sx)
      const fy0 = Math.floor(sy)
      const fx = sx - fx0
      const fy = sy - fy0
      const x0 = fx0 < 0 ? 0 : fx0 > maxX ? maxX : fx0
      const x1 = fx0 + 1 < 0 ? 0 : fx0 + 1 > maxX ? maxX : fx0 + 1
      const y0 = fy0 < 0 ? 0 : fy0 > maxY ? maxY : fy0
      const y1 = fy0 + 1 < 0 ? 0 : fy0 + 1 > maxY ? maxY : fy0 + 1
      const w00 = (1 - fx) * (1 - fy)
      const w10 = fx * (1 - fy)
      const w01 = (1 - fx) * fy
      const w11 = fx * fy
      const p00 = y0 * stride + x0 * channels
      const p10 = y0 * stride + x1 * channels
      const p01 = y1 * stride + x0 * channels
      const p11 = y1 * stride + x1 * channels
      // + 0.5 and truncation: rounding to the nearest level, every value being non-negative.
      out[o] = data[p00]! * w00 + data[p10]! * w10 + data[p01]! * w01 + data[p11]! * w11 + 0.5
      out[o + 1] = data[p00 + 1]! * w00 + data[p10 + 1]! * w10 + data[p01 + 1]! * w01 + data[p11 + 1]! * w11 + 0.5
      out[o + 2] = data[p00 + 2]! * w00 + data[p10 + 2]! * w10 + data[p01 + 2]! * w01 + data[p11 + 2]! * w11 + 0.5
      out[o + 3] = channels === 4 ? data[p00 + 3]! * w00 + data[p10 + 3]! * w10 + data[p01 + 3]! * w01 + data[p11 + 3]! * w11 + 0.5 : 255
    }
  }
  return out
}

/**
 * Whether an unturned placement draws every output pixel of `rect` from the photo: the first and last column and row
 * centres, mapped with axisTaps's own arithmetic, fall inside `extent` (the map is monotonic on each axis, so every one
 * between does too). With an opaque photo (3 channels), every placed pixel is then opaque and none is left as it was.
 * A turned placement answers false: its pixels are stepped along each row, and a rounding error there must never leave
 * a pixel undrawn.
 */
export function placementCovers(m: Matrix, extent: Extent, rect: Rect): boolean {
  if (m.b !== 0 || m.c !== 0) return false
  const u = (X: number) => (1 / m.a) * X + -m.tx / m.a
  const v = (Y: number) => (1 / m.d) * Y + -m.ty / m.d
  const within = (t: number, from: number, to: number) => t >= from && t < to
  return (
    [rect.left + 0.5, rect.left + rect.width - 0.5].every((X) => within(u(X), extent.left, extent.right)) &&
    [rect.top + 0.5, rect.top + rect.height - 0.5].every((Y) => within(v(Y), extent.top, extent.bottom))
  )
}

/**
 * One axis of an unturned placement: per output column (or row) its two taps (offsets into the source) and the far
 * tap's weight, and the span [first, end) of those inside the quad (the mapping is monotonic, so the inside ones
 * are one run).
 */
function axisTaps(count: number, start: number, scale: number, offset: number, from: number, to: number, size: number, step: number) {
  const near = new Int32Array(count)
  const far = new Int32Array(count)
  const weight = new Float64Array(count)
  const last = size - 1
  let first = count
  let end = 0
  for (let i = 0; i < count; i++) {
    const u = scale * (start + i + 0.5) + offset
    if (u < from || u >= to) continue
    if (i < first) first = i
    end = i + 1
    const s = u - 0.5
    const f0 = Math.floor(s)
    weight[i] = s - f0
    near[i] = (f0 < 0 ? 0 : f0 > last ? last : f0) * step
    far[i] = (f0 + 1 < 0 ? 0 : f0 + 1 > last ? last : f0 + 1) * step
  }
  return { near, far, weight, first, end }
}

/**
 * An unturned placement (scaled, moved, perhaps mirrored: the designer's usual case): the same sampling and the same
 * arithmetic as the general path (so the same bytes), with each column's taps and weight worked out once for the whole
 * rectangle and only the inside run of rows and columns visited (the print render's hottest loop: issue 50).
 */
function placeAxisAligned<Out extends Uint8Array>(source: DecodedImage, m: Matrix, extent: Extent, rect: Rect, out: Out): Out {
  const { data, width, height, channels } = source
  const columns = axisTaps(rect.width, rect.left, 1 / m.a, -m.tx / m.a, extent.left, extent.right, width, channels)
  const rows = axisTaps(rect.height, rect.top, 1 / m.d, -m.ty / m.d, extent.top, extent.bottom, height, width * channels)
  const { near, far, weight, first, end } = columns
  const opaque = channels === 3
  for (let y = rows.first; y < rows.end; y++) {
    const r0 = rows.near[y]!
    const r1 = rows.far[y]!
    const fy = rows.weight[y]!
    const gy = 1 - fy
    let o = (y * rect.width + first) * 4
    for (let x = first; x < end; x++, o += 4) {
      const fx = weight[x]!
      const gx = 1 - fx
      const w00 = gx * gy
      const w10 = fx * gy
      const w01 = gx * fy
      const w11 = fx * fy
      const p00 = r0 + near[x]!
      const p10 = r0 + far[x]!
      const p01 = r1 + near[x]!
      const p11 = r1 + far[x]!
      out[o] = data[p00]! * w00 + data[p10]! * w10 + data[p01]! * w01 + data[p11]! * w11 + 0.5
      out[o + 1] = data[p00 + 1]! * w00 + data[p10 + 1]! * w10 + data[p01 + 1]! * w01 + data[p11 + 1]! * w11 + 0.5
      out[o + 2] = data[p00 + 2]! * w00 + data[p10 + 2]! * w10 + data[p01 + 2]! * w01 + data[p11 + 2]! * w11 + 0.5
      out[o + 3] = opaque ? 255 : data[p00 + 3]! * w00 + data[p10 + 3]! * w10 + data[p01 + 3]! * w01 + data[p11 + 3]! * w11 + 0.5
    }
  }
  return out
}
