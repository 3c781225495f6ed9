/**
 * A small anti-aliased scanline rasteriser for filled outlines (non-zero winding), shared by the
 * live preview and the print renderer so both draw the personal line from identical pixels
 * (docs/decisions/034-text-line.md). Pure arithmetic, no platform APIs: the same input gives the
 * same bytes in the browser and on the server.
 *
 * Coverage is exact along x (each span's ends are weighted by the fraction of the pixel they cover)
 * and sampled at SUBSAMPLES evenly spaced heights inside each pixel row.
 */

/** A closed outline: x0, y0, x1, y1, … in output pixels, (0, 0) the top-left corner of the top-left pixel. */
export type Polygon = number[]

export type AlphaMask = { width: number; height: number; alpha: Uint8Array }

export const SUBSAMPLES = 16

type Edge = { x0: number; y0: number; x1: number; y1: number; dir: 1 | -1 }

function edgesOf(polygons: readonly Polygon[]): Edge[] {
  const edges: Edge[] = []
  for (const poly of polygons) {
    const n = poly.length / 2
    for (let i = 0; i < n; i++) {
      const ax = poly[2 * i]!
      const ay = poly[2 * i + 1]!
      const j = (i + 1) % n
      const bx = poly[2 * j]!
      const by = poly[2 * j + 1]!
      if (ay === by) continue
      edges.push(ay < by ? { x0: ax, y0: ay, x1: bx, y1: by, dir: 1 } : { x0: bx, y0: by, x1: ax, y1: ay, dir: -1 })
    }
  }
  return edges
}

/**
 * Adds `weight` × the covered fraction of each pixel between x = from and x = to: partly covered end
 * pixels to `row`, the fully covered run between them to `runs` as a difference (summed once per row).
 */
function addSpan(row: Float64Array, runs: Float64Array, from: number, to: number, weight: number) {
  const width = row.length
  const a = Math.max(0, from)
  const b = Math.min(width, to)
  if (b <= a) return
  const first = Math.floor(a)
  const last = Math.min(width - 1, Math.ceil(b) - 1)
  if (first === last) {
    row[first]! += (b - a) * weight
    return
  }
  row[first]! += (first + 1 - a) * weight
  runs[first + 1]! += weight
  runs[last]! -= weight
  row[last]! += (b - last) * weight
}

/** The polygons filled (non-zero winding) into a width × height alpha mask, 0–255 per pixel. */
export function rasterise(polygons: readonly Polygon[], width: number, height: number): AlphaMask {
  const alpha = new Uint8Array(width * height)
  const edges = edgesOf(polygons).sort((p, q) => p.y0 - q.y0)
  const row = new Float64Array(width)
  const runs = new Float64Array(width + 1)
  // Crossings of one sub-scanline, packed as (x, direction) pairs and sorted by x.
  let xs = new Float64Array(64)
  let dirs = new Int8Array(64)
  const order: number[] = []
  const weight = 1 / SUBSAMPLES
  let start = 0
  let active: Edge[] = []
  for (let y = 0; y < height; y++) {
    row.fill(0)
    runs.fill(0)
    for (let s = 0; s < SUBSAMPLES; s++) {
      const sy = y + (s + 0.5) / SUBSAMPLES
      while (start < edges.length && edges[start]!.y0 <= sy) active.push(edges[start++]!)
      if (active.some((e) => e.y1 <= sy)) active = active.filter((e) => e.y1 > sy)
      const n = active.length
      if (n === 0) continue
      if (n > xs.length) {
        xs = new Float64Array(n * 2)
        dirs = new Int8Array(n * 2)
      }
      order.length = n
      for (let i = 0; i < n; i++) {
        const e = active[i]!
        xs[i] = e.x0 + ((sy - e.y0) * (e.x1 - e.x0)) / (e.y1 - e.y0)
        dirs[i] = e.dir
        order[i] = i
      }
      // By x, then by index: the order a comparator sort gave, in a plain insertion sort (a few dozen crossings,
      // where it is about twice as fast as Array.prototype.sort with a closure; issue 31, item 3).
      for (let k = 1; k < n; k++) {
        const i = order[k]!
        const x = xs[i]!
        let j = k - 1
        while (j >= 0 && (xs[order[j]!]! > x || (xs[order[j]!]! === x && order[j]! > i))) {
          order[j + 1] = order[j]!
          j--
        }
        order[j + 1] = i
      }
      let winding = 0
      let from = 0
      for (let k = 0; k < n; k++) {
        const i = order[k]!
        const before = winding
        winding += dirs[i]!
        if (before === 0 && winding !== 0) from = xs[i]!
        else if (before !== 0 && winding === 0) addSpan(row, runs, from, xs[i]!, weight)
      }
    }
    let run = 0
    for (let x = 0; x < width; x++) {
      run += runs[x]!
      alpha[y * width + x] = Math.min(255, Math.round((row[x]! + run) * 255))
    }
  }
  return { width, height, alpha }
}

/**
 * The mask grown by `radius` pixels in every direction, for the halo drawn around a line's glyphs: the outline
 * pushed out by `radius`, anti-aliased like the glyphs. A pixel of coverage a holds the outline about a − ½ pixel
 * beyond its centre (a full pixel: its edge; half covered: its centre; a faint fringe: its far side), so a pixel at
 * distance d from it lies inside the grown outline by r + a − d pixels; its coverage is that clamped to 0–1, the
 * largest over all glyph pixels within reach. Thin or faint strokes therefore get a full halo, not a faint one.
 * Plain arithmetic on the mask's bytes: the browser and the server get the same bytes.
 */
export function dilate(mask: AlphaMask, radius: number): AlphaMask {
  const { width, height, alpha } = mask
  const out = new Uint8Array(width * height)
  if (!(radius > 0)) {
    out.set(alpha)
    return { width, height, alpha: out }
  }
  const reach = Math.ceil(radius + 1)
  // Offsets within reach, with their distance.
  const dxs: number[] = []
  const dys: number[] = []
  const ds: number[] = []
  for (let dy = -reach; dy <= reach; dy++) {
    for (let dx = -reach; dx <= reach; dx++) {
      const d = Math.sqrt(dx * dx + dy * dy)
      if (d < radius + 1) {
        dxs.push(dx)
        dys.push(dy)
        ds.push(d)
      }
    }
  }
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const a = alpha[y * width + x]!
      if (a === 0) continue
      const inside = radius + a / 255
      for (let k = 0; k < ds.length; k++) {
        const tx = x + dxs[k]!
        const ty = y + dys[k]!
        if (tx < 0 || ty < 0 || tx >= width || ty >= height) continue
        const v = Math.round(Math.min(1, Math.max(0, inside - ds[k]!)) * 255)
        const o = ty * width + tx
        if (v > out[o]!) out[o] = v
      }
    }
  }
  // The glyphs themselves stay inside their halo (a fringe pixel is never fainter in the halo than in the glyph).
  for (let i = 0; i < out.length; i++) if (alpha[i]! > out[i]!) out[i] = alpha[i]!
  return { width, height, alpha: out }
}
