/**
 * Deterministic demo "family photos" for DEMO_MODE albums.
 *
 * There is no network and no stock photography, so each photo is an illustrated scene (sunset over the sea, a
 * Christmas tree, a birthday cake, …) drawn as SVG from a seeded PRNG and rendered to JPEG by sharp (librsvg).
 * Everything is a pure function of the seed: the same seed gives byte-identical specs and JPEGs.
 *
 * Performance notes (librsvg): no SVG filters and no group `opacity` (each opacity group allocates and composites a
 * full-canvas surface) — translucency is always `fill-opacity`/`stop-opacity`, softness comes from gradients, and the
 * film grain and vignette are applied to the rasterised pixels in one cheap pass.
 */
import { createHash } from 'node:crypto'
import { access, mkdir, rename, unlink, writeFile } from 'node:fs/promises'
import path from 'node:path'
import sharp from 'sharp'

/** Bump when the drawings change: cached files carry it in their names, so old renders are never reused. */
export const DEMO_PHOTO_GENERATOR_VERSION = 1
export const DEFAULT_DEMO_PHOTO_COUNT = 60
export const DEFAULT_DEMO_PHOTO_SEED = 20261101

export type DemoSceneKind =
  | 'sunset-sea'
  | 'snowy-mountains'
  | 'christmas-tree'
  | 'birthday-cake'
  | 'beach-umbrella'
  | 'autumn-forest'
  | 'park-balloons'
  | 'night-sky'
  | 'lake-canoe'
  | 'flower-garden'
  | 'city-dusk'
  | 'snowman'
  | 'pumpkin-patch'
  | 'dog-on-hill'
  | 'kites'
  | 'campfire'
  | 'rainy-window'
  | 'lighthouse'
  | 'hot-air-balloons'
  | 'northern-lights'
  | 'fireworks'
  | 'cherry-blossom'
  | 'sunflowers'

export type DemoPhotoSpec = {
  index: number
  title: string
  orientation: 'landscape' | 'portrait' | 'square'
  /** The upright (displayed) size. */
  width: number
  height: number
  /** 1 for most photos; for 6, 8 and 3 the stored pixels are rotated and the JPEG carries that EXIF orientation. */
  exifOrientation: 1 | 6 | 8 | 3
  favorite: boolean
  recommended: boolean
  capturedAt: Date
  /** What is drawn, and the seed of its details (colours, positions, time of day). */
  scene: DemoSceneKind
  seed: number
}

// ---------------------------------------------------------------------------------------------------------------
// PRNG

type Rng = {
  next(): number
  range(min: number, max: number): number
  int(min: number, max: number): number
  pick<T>(items: readonly T[]): T
  chance(p: number): boolean
  shuffle<T>(items: T[]): T[]
}

function hash32(...values: number[]): number {
  let h = 0x811c9dc5
  for (const v of values) {
    h = Math.imul(h ^ (v >>> 0), 0x01000193)
    h ^= h >>> 15
    h = Math.imul(h, 0x2c1b3c6d)
    h ^= h >>> 12
  }
  return h >>> 0
}

function createRng(seed: number): Rng {
  let a = seed >>> 0 || 0x9e3779b9
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
  const rng: Rng = {
    next,
    range: (min, max) => min + (max - min) * next(),
    int: (min, max) => Math.floor(min + (max - min + 1) * next()),
    pick: (items) => items[Math.floor(next() * items.length)]!,
    chance: (p) => next() < p,
    shuffle: (items) => {
      for (let i = items.length - 1; i > 0; i--) {
        const j = Math.floor(next() * (i + 1))
        ;[items[i], items[j]] = [items[j]!, items[i]!]
      }
      return items
    },
  }
  return rng
}

// ---------------------------------------------------------------------------------------------------------------
// Colour

type Rgb = [number, number, number]

function parseHex(c: string): Rgb {
  const n = Number.parseInt(c.slice(1), 16)
  return [(n >> 16) & 255, (n >> 8) & 255, n & 255]
}

function toHex([r, g, b]: Rgb): string {
  const h = (v: number) =>
    Math.max(0, Math.min(255, Math.round(v)))
      .toString(16)
      .padStart(2, '0')
  return `#${h(r)}${h(g)}${h(b)}`
}

function mix(a: string, b: string, t: number): string {
  const x = parseHex(a)
  const y = parseHex(b)
  return toHex([x[0] + (y[0] - x[0]) * t, x[1] + (y[1] - x[1]) * t, x[2] + (y[2] - x[2]) * t])
}

function toHsl(c: string): [number, number, number] {
  const [r, g, b] = parseHex(c).map((v) => v / 255) as Rgb
  const max = Math.max(r, g, b)
  const min = Math.min(r, g, b)
  const l = (max + min) / 2
  if (max === min) return [0, 0, l]
  const d = max - min
  const s = l > 0.5 ? d / (2 - max - min) : d / (max + min)
  const h = max === r ? (g - b) / d + (g < b ? 6 : 0) : max === g ? (b - r) / d + 2 : (r - g) / d + 4
  return [h * 60, s, l]
}

function hsl(h: number, s: number, l: number): string {
  h = ((h % 360) + 360) % 360
  s = Math.max(0, Math.min(1, s))
  l = Math.max(0, Math.min(1, l))
  const k = (n: number) => (n + h / 30) % 12
  const a = s * Math.min(l, 1 - l)
  const f = (n: number) => l - a * Math.max(-1, Math.min(k(n) - 3, Math.min(9 - k(n), 1)))
  return toHex([f(0) * 255, f(8) * 255, f(4) * 255])
}

/** A small random shift of hue, saturation and lightness, so no two photos share an exact palette. */
function vary(rng: Rng, c: string, dh = 7, ds = 0.06, dl = 0.04): string {
  const [h, s, l] = toHsl(c)
  return hsl(h + rng.range(-dh, dh), s + rng.range(-ds, ds), l + rng.range(-dl, dl))
}

const shade = (c: string, t: number) => mix(c, '#000000', t)
const tint = (c: string, t: number) => mix(c, '#ffffff', t)

// ---------------------------------------------------------------------------------------------------------------
// SVG canvas

type Stop = [offset: number, color: string, opacity?: number]

const f = (n: number) => String(Math.round(n * 10) / 10)

class Canvas {
  readonly m: number
  /** Darkening at the corners (0..1), applied after rasterising. */
  vignette = 0.45
  private defs: string[] = []
  private body: string[] = []
  private ids = 0

  constructor(
    readonly w: number,
    readonly h: number,
    readonly rng: Rng,
  ) {
    this.m = Math.min(w, h)
  }

  private stops(stops: Stop[]) {
    return stops
      .map(
        ([o, c, a]) =>
          `<stop offset="${Math.round(o * 1000) / 1000}" stop-color="${c}"${a === undefined ? '' : ` stop-opacity="${Math.round(a * 1000) / 1000}"`}/>`,
      )
      .join('')
  }

  /** A linear gradient; with `user` the coordinates are canvas pixels, otherwise fractions of the shape's box. */
  lin(stops: Stop[], x1 = 0, y1 = 0, x2 = 0, y2 = 1, user = false): string {
    const id = `p${this.ids++}`
    const units = user ? ' gradientUnits="userSpaceOnUse"' : ''
    this.defs.push(
      `<linearGradient id="${id}" x1="${f(x1 * (user ? 1 : 100))}${user ? '' : '%'}" y1="${f(y1 * (user ? 1 : 100))}${user ? '' : '%'}" x2="${f(x2 * (user ? 1 : 100))}${user ? '' : '%'}" y2="${f(y2 * (user ? 1 : 100))}${user ? '' : '%'}"${units}>${this.stops(stops)}</linearGradient>`,
    )
    return `url(#${id})`
  }

  /** A radial gradient in canvas pixels. */
  rad(stops: Stop[], cx: number, cy: number, r: number, fx = cx, fy = cy): string {
    const id = `p${this.ids++}`
    this.defs.push(
      `<radialGradient id="${id}" cx="${f(cx)}" cy="${f(cy)}" r="${f(r)}" fx="${f(fx)}" fy="${f(fy)}" gradientUnits="userSpaceOnUse">${this.stops(stops)}</radialGradient>`,
    )
    return `url(#${id})`
  }

  /** A radial gradient relative to the shape's box (fx/fy move the highlight). */
  radBox(stops: Stop[], fx = 0.5, fy = 0.5, r = 0.5): string {
    const id = `p${this.ids++}`
    this.defs.push(
      `<radialGradient id="${id}" cx="50%" cy="50%" r="${f(r * 100)}%" fx="${f(fx * 100)}%" fy="${f(fy * 100)}%">${this.stops(stops)}</radialGradient>`,
    )
    return `url(#${id})`
  }

  clip(shape: string): string {
    const id = `p${this.ids++}`
    this.defs.push(`<clipPath id="${id}">${shape}</clipPath>`)
    return `url(#${id})`
  }

  add(svg: string) {
    this.body.push(svg)
  }

  rect(x: number, y: number, w: number, h: number, fill: string, extra = '') {
    this.body.push(`<rect x="${f(x)}" y="${f(y)}" width="${f(w)}" height="${f(h)}" fill="${fill}"${extra}/>`)
  }

  circle(cx: number, cy: number, r: number, fill: string, extra = '') {
    this.body.push(`<circle cx="${f(cx)}" cy="${f(cy)}" r="${f(r)}" fill="${fill}"${extra}/>`)
  }

  ellipse(cx: number, cy: number, rx: number, ry: number, fill: string, extra = '') {
    this.body.push(`<ellipse cx="${f(cx)}" cy="${f(cy)}" rx="${f(rx)}" ry="${f(ry)}" fill="${fill}"${extra}/>`)
  }

  path(d: string, fill: string, extra = '') {
    this.body.push(`<path d="${d}" fill="${fill}"${extra}/>`)
  }

  line(x1: number, y1: number, x2: number, y2: number, stroke: string, width: number, extra = '') {
    this.body.push(
      `<line x1="${f(x1)}" y1="${f(y1)}" x2="${f(x2)}" y2="${f(y2)}" stroke="${stroke}" stroke-width="${f(width)}" stroke-linecap="round"${extra}/>`,
    )
  }

  /** A soft round light: a circle whose radial gradient fades to nothing. */
  glow(cx: number, cy: number, r: number, color: string, strength = 0.6) {
    this.circle(
      cx,
      cy,
      r,
      this.rad(
        [
          [0, color, strength],
          [0.15, color, strength * 0.75],
          [0.4, color, strength * 0.3],
          [0.7, color, strength * 0.08],
          [1, color, 0],
        ],
        cx,
        cy,
        r,
      ),
    )
  }

  toSvg(): string {
    return `<svg xmlns="http://www.w3.org/2000/svg" width="${this.w}" height="${this.h}" viewBox="0 0 ${this.w} ${this.h}"><defs>${this.defs.join('')}</defs>${this.body.join('')}</svg>`
  }
}

const op = (a: number) => ` fill-opacity="${Math.round(a * 1000) / 1000}"`
const rot = (deg: number, x: number, y: number) => ` transform="rotate(${f(deg)} ${f(x)} ${f(y)})"`

// ---------------------------------------------------------------------------------------------------------------
// Shape helpers

type Pt = [number, number]

/** A smooth path through points (Catmull-Rom as cubic Béziers). */
function smooth(points: Pt[], start = true): string {
  let d = start ? `M${f(points[0]![0])} ${f(points[0]![1])}` : `L${f(points[0]![0])} ${f(points[0]![1])}`
  for (let i = 0; i < points.length - 1; i++) {
    const p0 = points[i - 1] ?? points[i]!
    const p1 = points[i]!
    const p2 = points[i + 1]!
    const p3 = points[i + 2] ?? p2
    const c1: Pt = [p1[0] + (p2[0] - p0[0]) / 6, p1[1] + (p2[1] - p0[1]) / 6]
    const c2: Pt = [p2[0] - (p3[0] - p1[0]) / 6, p2[1] - (p3[1] - p1[1]) / 6]
    d += `C${f(c1[0])} ${f(c1[1])} ${f(c2[0])} ${f(c2[1])} ${f(p2[0])} ${f(p2[1])}`
  }
  return d
}

const poly = (points: Pt[]) => `M${points.map(([x, y]) => `${f(x)} ${f(y)}`).join('L')}Z`

/** Heights along the width by midpoint displacement: jagged for mountains (rough ≈ 0.55), gentle for hills. */
function profile(rng: Rng, segments: number, rough: number): number[] {
  const n = 2 ** segments
  const ys = new Array<number>(n + 1).fill(0)
  ys[0] = rng.range(-0.5, 0.5)
  ys[n] = rng.range(-0.5, 0.5)
  let step = n
  let amp = 1
  while (step > 1) {
    const half = step / 2
    for (let i = half; i < n; i += step) ys[i] = (ys[i - half]! + ys[i + half]!) / 2 + rng.range(-amp, amp)
    amp *= rough
    step = half
  }
  const min = Math.min(...ys)
  const max = Math.max(...ys)
  return ys.map((y) => (y - min) / (max - min || 1))
}

/** A filled silhouette from the left to the right edge: `base` is its lowest ridge line, `amp` how far it rises. */
function ridge(c: Canvas, base: number, amp: number, opts: { segments?: number; rough?: number; smooth?: boolean; bottom?: number } = {}): string {
  const ys = profile(c.rng, opts.segments ?? 6, opts.rough ?? 0.5)
  const n = ys.length - 1
  const pts: Pt[] = ys.map((y, i) => [(-0.02 + (1.04 * i) / n) * c.w, base - y * amp])
  const bottom = opts.bottom ?? c.h
  const line = opts.smooth ? smooth(pts) : `M${pts.map(([x, y]) => `${f(x)} ${f(y)}`).join('L')}`
  return `${line}L${f(c.w * 1.02)} ${f(bottom)}L${f(-c.w * 0.02)} ${f(bottom)}Z`
}

/** A gently rolling hill line using a couple of sines. */
function hill(c: Canvas, base: number, amp: number, bottom = c.h, waves = 2): string {
  const { rng, w } = c
  const p1 = rng.range(0, Math.PI * 2)
  const p2 = rng.range(0, Math.PI * 2)
  const k1 = rng.range(0.6, 1.2) * waves
  const k2 = rng.range(1.5, 2.5) * waves
  const pts: Pt[] = []
  for (let i = 0; i <= 16; i++) {
    const x = (-0.02 + (1.04 * i) / 16) * w
    const t = x / w
    pts.push([x, base - amp * (0.5 + 0.35 * Math.sin(t * Math.PI * k1 + p1) + 0.15 * Math.sin(t * Math.PI * k2 + p2))])
  }
  return `${smooth(pts)}L${f(w * 1.02)} ${f(bottom)}L${f(-w * 0.02)} ${f(bottom)}Z`
}

function hillY(c: Canvas, d: string, x: number): number {
  // Cheap lookup of a hill path's height at x: parse the points we generated.
  const nums = d.match(/-?\d+(\.\d+)?/g)!.map(Number)
  let best = Number.POSITIVE_INFINITY
  let y = c.h
  for (let i = 0; i + 1 < nums.length; i += 2) {
    const dx = Math.abs(nums[i]! - x)
    if (dx < best && nums[i + 1]! < c.h * 0.999) {
      best = dx
      y = nums[i + 1]!
    }
  }
  return y
}

function sky(c: Canvas, colors: string[], until = c.h) {
  const stops: Stop[] = colors.map((col, i) => [i / (colors.length - 1), col])
  c.rect(0, 0, c.w, c.h, c.lin(stops, 0, 0, 0, until, true))
}

function stars(c: Canvas, n: number, maxY: number, color = '#ffffff') {
  const { rng, m } = c
  for (let i = 0; i < n; i++) {
    const x = rng.range(0, c.w)
    const y = rng.range(0, maxY) * rng.range(0.3, 1)
    const big = rng.chance(0.06)
    const r = m * (big ? rng.range(0.0022, 0.0035) : rng.range(0.0007, 0.0018))
    c.circle(x, y, r, color, op(rng.range(0.35, 1) * (1 - (y / maxY) * 0.5)))
    if (big) c.glow(x, y, r * 6, color, 0.35)
  }
}

/** A fluffy cloud of overlapping circles, lit from above. */
function cloud(c: Canvas, x: number, y: number, size: number, light: string, dark: string, alpha = 1) {
  const { rng } = c
  const fill = c.lin(
    [
      [0, light],
      [0.55, light],
      [1, dark],
    ],
    0,
    y - size * 0.7,
    0,
    y + size * 0.25,
    true,
  )
  const puffs = rng.int(4, 7)
  let d = ''
  for (let i = 0; i < puffs; i++) {
    const t = i / (puffs - 1)
    const px = x + (t - 0.5) * size * 2.2 + rng.range(-0.1, 0.1) * size
    const r = size * (0.35 + 0.4 * Math.sin(t * Math.PI)) * rng.range(0.8, 1.15)
    const py = y - r * 0.45
    d += `M${f(px - r)} ${f(py)}a${f(r)} ${f(r)} 0 1 0 ${f(2 * r)} 0a${f(r)} ${f(r)} 0 1 0 ${f(-2 * r)} 0Z`
  }
  d += `M${f(x - size * 1.2)} ${f(y)}h${f(size * 2.4)}v${f(-size * 0.3)}h${f(-size * 2.4)}Z`
  c.path(d, fill, alpha < 1 ? op(alpha) : '')
}

/** Soft, hazy cloud made of fading ellipses. */
function softCloud(c: Canvas, x: number, y: number, size: number, color: string, alpha: number) {
  const { rng } = c
  for (let i = 0; i < 4; i++) {
    const cx = x + rng.range(-1, 1) * size
    const cy = y + rng.range(-0.25, 0.25) * size
    const rx = size * rng.range(0.8, 1.6)
    const ry = rx * rng.range(0.2, 0.35)
    c.ellipse(
      cx,
      cy,
      rx,
      ry,
      c.radBox([
        [0, color, alpha],
        [0.6, color, alpha * 0.5],
        [1, color, 0],
      ]),
    )
  }
}

function streakClouds(c: Canvas, n: number, top: number, bottom: number, colors: string[], alpha: [number, number]) {
  const { rng } = c
  for (let i = 0; i < n; i++) {
    const y = rng.range(top, bottom)
    const x = rng.range(-0.1, 1.1) * c.w
    const rx = c.w * rng.range(0.08, 0.3)
    const ry = c.m * rng.range(0.006, 0.02)
    const col = rng.pick(colors)
    c.ellipse(
      x,
      y,
      rx,
      ry,
      c.radBox([
        [0, col, rng.range(...alpha)],
        [0.7, col, alpha[0] * 0.6],
        [1, col, 0],
      ]),
    )
  }
}

function pine(c: Canvas, x: number, base: number, height: number, color: string, snow?: string) {
  const { rng } = c
  const tiers = rng.int(4, 6)
  const width = height * rng.range(0.36, 0.46)
  let d = `M${f(x - width * 0.06)} ${f(base)}h${f(width * 0.12)}v${f(-height * 0.12)}h${f(-width * 0.12)}Z`
  const snowD: string[] = []
  for (let i = 0; i < tiers; i++) {
    const t = i / tiers
    const top = base - height * (0.28 + 0.72 * ((i + 1) / tiers))
    const bot = base - height * (0.1 + 0.7 * t)
    const hw = (width / 2) * (1 - t * 0.72)
    d += `M${f(x)} ${f(top)}L${f(x + hw)} ${f(bot)}Q${f(x)} ${f(bot - height * 0.04)} ${f(x - hw)} ${f(bot)}Z`
    if (snow) {
      const sy = top + (bot - top) * 0.45
      const shw = hw * 0.45
      snowD.push(`M${f(x)} ${f(top)}L${f(x + shw)} ${f(sy)}Q${f(x)} ${f(sy - height * 0.03)} ${f(x - shw)} ${f(sy)}Z`)
    }
  }
  c.path(d, color)
  if (snow) c.path(snowD.join(''), snow)
}

function roundTree(c: Canvas, x: number, base: number, size: number, leaf: string[], trunk: string) {
  const { rng } = c
  c.path(
    `M${f(x - size * 0.07)} ${f(base)}L${f(x - size * 0.04)} ${f(base - size * 0.9)}L${f(x + size * 0.04)} ${f(base - size * 0.9)}L${f(x + size * 0.07)} ${f(base)}Z`,
    trunk,
  )
  const cy = base - size * 1.15
  for (let i = 0; i < 6; i++) {
    const a = (i / 6) * Math.PI * 2 + rng.range(-0.3, 0.3)
    const r = size * rng.range(0.32, 0.45)
    const px = x + Math.cos(a) * size * 0.32
    const py = cy + Math.sin(a) * size * 0.28
    const col = leaf[i % leaf.length]!
    c.circle(
      px,
      py,
      r,
      c.rad(
        [
          [0, tint(col, 0.15)],
          [1, shade(col, 0.15)],
        ],
        px - r * 0.3,
        py - r * 0.5,
        r * 1.3,
      ),
    )
  }
  c.circle(
    x,
    cy - size * 0.1,
    size * 0.42,
    c.rad(
      [
        [0, tint(leaf[0]!, 0.25)],
        [1, leaf[0]!],
      ],
      x - size * 0.2,
      cy - size * 0.35,
      size * 0.6,
    ),
  )
}

function birds(c: Canvas, n: number, x: number, y: number, spread: number, color: string) {
  const { rng, m } = c
  let d = ''
  for (let i = 0; i < n; i++) {
    const bx = x + rng.range(-1, 1) * spread
    const by = y + rng.range(-0.5, 0.5) * spread * 0.6
    const s = m * rng.range(0.008, 0.016)
    const flap = rng.range(0.2, 0.8)
    d += `M${f(bx - s)} ${f(by - s * flap)}Q${f(bx - s * 0.5)} ${f(by - s * 0.5)} ${f(bx)} ${f(by)}Q${f(bx + s * 0.5)} ${f(by - s * 0.5)} ${f(bx + s)} ${f(by - s * flap)}`
  }
  c.path(d, 'none', ` stroke="${color}" stroke-width="${f(m * 0.0028)}" stroke-linecap="round"`)
}

function bokeh(c: Canvas, n: number, box: [number, number, number, number], colors: string[], size: [number, number], alpha: [number, number]) {
  const { rng, m } = c
  for (let i = 0; i < n; i++) {
    const x = rng.range(box[0], box[2])
    const y = rng.range(box[1], box[3])
    const r = m * rng.range(...size)
    const col = rng.pick(colors)
    const a = rng.range(...alpha)
    c.circle(
      x,
      y,
      r,
      c.rad(
        [
          [0, col, a * 0.8],
          [0.8, col, a],
          [0.92, col, a * 0.7],
          [1, col, 0],
        ],
        x,
        y,
        r,
      ),
    )
  }
}

function snowfall(c: Canvas, n: number, color = '#ffffff') {
  const { rng, m } = c
  for (let i = 0; i < n; i++) {
    const r = m * rng.range(0.002, 0.007) * (rng.chance(0.1) ? 2 : 1)
    c.circle(rng.range(0, c.w), rng.range(0, c.h), r, color, op(rng.range(0.5, 0.95)))
  }
}

/** Photographic finish: warm/cool grade, optional light leak, and a vignette. */
function finish(c: Canvas, opts: { grade?: string; gradeAlpha?: number; vignette?: number; leak?: string } = {}) {
  const { w, h, rng } = c
  if (opts.grade) c.rect(0, 0, w, h, opts.grade, op(opts.gradeAlpha ?? 0.08))
  if (opts.leak) {
    const lx = rng.pick([0, w])
    const ly = rng.range(0, h * 0.5)
    c.glow(lx, ly, c.m * rng.range(0.5, 0.8), opts.leak, 0.28)
  }
  // The vignette itself is applied to the pixels with the grain (a full-canvas radial gradient is slow in librsvg).
  c.vignette = opts.vignette ?? 0.45
}

// ---------------------------------------------------------------------------------------------------------------
// Palettes

const DUSK_SKIES = [
  { sky: ['#1b2a55', '#6b4a8c', '#e2738c', '#ffb870'], sun: '#fff1c9', glow: '#ffb36b', sea: '#2a2f5c', cloud: ['#ff9e9e', '#ffc48c', '#b76e9e'] },
  { sky: ['#203a6b', '#4f6fa8', '#f4a261', '#ffe3a3'], sun: '#fff6d8', glow: '#ffc870', sea: '#284468', cloud: ['#ffd29a', '#f6a57a', '#ffffff'] },
  { sky: ['#2b1846', '#892f5e', '#f0584a', '#ffb347'], sun: '#fff0b8', glow: '#ff7b45', sea: '#361c3f', cloud: ['#ff8a5c', '#ffb56b', '#c34a6a'] },
  { sky: ['#0e2a47', '#2c6e8f', '#8fc6c9', '#ffd9a0'], sun: '#fffbe8', glow: '#ffe0a0', sea: '#164b63', cloud: ['#ffe2b8', '#cfe7e6', '#f4b59a'] },
  { sky: ['#3a2c5f', '#a45d9a', '#f7a5a0', '#ffe1b5'], sun: '#fff7e6', glow: '#ffc0a8', sea: '#40386a', cloud: ['#ffc2c2', '#f9d4b2', '#d69ac0'] },
]

const DAY_SKIES = [
  ['#2f78d0', '#5aa2e6', '#a9d3f4', '#e6f4fb'],
  ['#3a86d6', '#6fb2ea', '#bfe1f6', '#f4f9fb'],
  ['#1f6fc1', '#4b9be0', '#8fc8f0', '#d9eefa'],
  ['#4a90c8', '#86b9df', '#c6e0ef', '#f6efe0'],
]

// ---------------------------------------------------------------------------------------------------------------
// Scenes

function sunsetSea(c: Canvas) {
  const { w, h, rng, m } = c
  const p = rng.pick(DUSK_SKIES)
  const horizon = h * rng.range(0.5, 0.64)
  sky(
    c,
    p.sky.map((s) => vary(rng, s, 5)),
    horizon,
  )
  const sunX = w * rng.range(0.25, 0.75)
  const sunR = m * rng.range(0.045, 0.075)
  const sunY = horizon - sunR * rng.range(-0.2, 2.5)
  c.glow(sunX, sunY, Math.max(w, h) * 0.75, p.glow, 0.55)
  c.glow(sunX, sunY, sunR * 4, p.sun, 0.6)
  streakClouds(c, rng.int(8, 18), horizon * 0.1, horizon * 0.85, p.cloud, [0.35, 0.75])
  c.circle(
    sunX,
    sunY,
    sunR,
    c.rad(
      [
        [0, '#ffffff'],
        [0.6, p.sun],
        [1, mix(p.sun, p.glow, 0.5)],
      ],
      sunX,
      sunY,
      sunR,
    ),
  )
  if (rng.chance(0.55)) {
    const island = ridge(c, horizon + 1, h * rng.range(0.03, 0.08), { segments: 5, rough: 0.55, smooth: true, bottom: horizon + 2 })
    c.path(island, shade(mix(p.sky[2]!, p.sea, 0.5), 0.45), ` transform="translate(${f(rng.range(-0.45, 0.45) * w)} 0)"`)
  }
  c.rect(
    0,
    horizon,
    w,
    h - horizon,
    c.lin(
      [
        [0, mix(p.sky[3]!, p.sea, 0.35)],
        [0.25, mix(p.sky[2]!, p.sea, 0.55)],
        [1, shade(p.sea, 0.35)],
      ],
      0,
      horizon,
      0,
      h,
      true,
    ),
  )
  // Sun path on the water.
  for (let k = 0; k < 70; k++) {
    const t = (k / 70) ** 1.5
    const y = horizon + t * (h - horizon) + rng.range(0, 4)
    const width = sunR * rng.range(0.5, 2.2) * (1 + t * 5)
    const x = sunX + rng.range(-1, 1) * width * 0.4
    c.rect(x - width / 2, y, width, m * rng.range(0.002, 0.006) * (1 + t * 3), p.sun, op(rng.range(0.25, 0.7) * (1 - t * 0.6)))
  }
  for (let k = 0; k < 90; k++) {
    const t = rng.next() ** 1.4
    const y = horizon + t * (h - horizon)
    const width = w * rng.range(0.01, 0.05) * (1 + t * 4)
    c.rect(rng.range(0, w), y, width, m * 0.002 * (1 + t * 3), rng.pick(p.cloud), op(rng.range(0.08, 0.25)))
  }
  if (rng.chance(0.6)) birds(c, rng.int(3, 7), sunX + rng.range(-0.3, 0.3) * w, horizon * rng.range(0.3, 0.6), m * 0.12, shade(p.sea, 0.5))
  if (rng.chance(0.4)) {
    // A little sailboat silhouette on the horizon.
    const bx = rng.range(0.15, 0.85) * w
    const s = m * rng.range(0.04, 0.07)
    const col = shade(p.sea, 0.55)
    c.path(
      `M${f(bx - s * 0.6)} ${f(horizon + s * 0.05)}L${f(bx + s * 0.6)} ${f(horizon + s * 0.05)}L${f(bx + s * 0.45)} ${f(horizon + s * 0.2)}L${f(bx - s * 0.45)} ${f(horizon + s * 0.2)}Z M${f(bx)} ${f(horizon)}L${f(bx)} ${f(horizon - s * 1.3)}L${f(bx + s * 0.5)} ${f(horizon - s * 0.05)}Z M${f(bx - s * 0.05)} ${f(horizon - s * 1.1)}L${f(bx - s * 0.45)} ${f(horizon - s * 0.05)}L${f(bx - s * 0.05)} ${f(horizon - s * 0.05)}Z`,
      col,
    )
  }
  finish(c, { grade: p.glow, gradeAlpha: 0.06, vignette: 0.5 })
}

/** A mountain range with snow caps and shaded faces; returns the ridge points. */
function mountainRange(
  c: Canvas,
  base: number,
  amp: number,
  o: { rock: string; snow?: string; snowLine?: number; lightFromLeft: boolean; shadow?: string },
): Pt[] {
  const { rng, w, h } = c
  const ys = profile(rng, 7, 0.55)
  const n = ys.length - 1
  const pts: Pt[] = ys.map((y, i) => [(-0.02 + (1.04 * i) / n) * w, base - y * amp])
  const outline = `M${pts.map(([x, y]) => `${f(x)} ${f(y)}`).join('L')}L${f(w * 1.02)} ${f(h)}L${f(-w * 0.02)} ${f(h)}Z`
  c.path(
    outline,
    c.lin(
      [
        [0, tint(o.rock, 0.12)],
        [1, shade(o.rock, 0.12)],
      ],
      0,
      base - amp,
      0,
      base + amp * 0.2,
      true,
    ),
  )
  if (o.snow) {
    const snowY = base - amp * (o.snowLine ?? 0.45)
    const jag = profile(rng, 7, 0.8)
    const bottom = pts.map(([x, y], i): Pt => [x, Math.max(y, snowY + amp * 0.16 * (jag[i]! - 0.5) + (i % 2) * amp * 0.025)])
    c.path(
      `M${pts.map(([x, y]) => `${f(x)} ${f(y)}`).join('L')}L${bottom
        .reverse()
        .map(([x, y]) => `${f(x)} ${f(y)}`)
        .join('L')}Z`,
      c.lin(
        [
          [0, o.snow],
          [1, mix(o.snow, o.rock, 0.25)],
        ],
        0,
        base - amp,
        0,
        snowY + amp * 0.1,
        true,
      ),
    )
  }
  // Faces turned away from the light: from each main peak down to the next valley on the shadow side, fading out.
  const dir = o.lightFromLeft ? 1 : -1
  const win = 6
  for (let i = win; i <= n - win; i++) {
    const y = pts[i]![1]
    let peak = true
    for (let k = i - win; k <= i + win && peak; k++) if (pts[k]![1] < y) peak = false
    if (!peak || base - y < amp * 0.25) continue
    const face: Pt[] = [pts[i]!]
    let j = i
    while (j + dir > 0 && j + dir < n && pts[j + dir]![1] >= pts[j]![1] - amp * 0.02) {
      j += dir
      face.push(pts[j]!)
    }
    if (face.length < 3) continue
    const last = face.at(-1)!
    const spread = last[0] - pts[i]![0]
    const foot = y + (base - y) * 1.3
    face.push([last[0] + spread * 0.2, foot], [pts[i]![0] + spread * 0.15, foot])
    c.path(
      poly(face),
      c.lin(
        [
          [0, o.shadow ?? '#1b2440', 0.34],
          [0.7, o.shadow ?? '#1b2440', 0.18],
          [1, o.shadow ?? '#1b2440', 0],
        ],
        0,
        y,
        0,
        foot,
        true,
      ),
    )
  }
  return pts
}

function snowyMountains(c: Canvas) {
  const { w, h, rng, m } = c
  const evening = rng.chance(0.35)
  const skyCols = evening
    ? ['#2d3f7a', '#7a6aa8', '#f0a8a0', '#ffd9b0']
    : rng.pick([
        ['#2a6fc0', '#5d9ee0', '#a8d0f0', '#e8f3fa'],
        ['#3b77b8', '#7fb0dc', '#cfe3f1', '#f4f1ea'],
      ])
  sky(
    c,
    skyCols.map((s) => vary(rng, s, 5)),
    h * 0.6,
  )
  const lightFromLeft = rng.chance(0.5)
  if (evening) c.glow(lightFromLeft ? w * 0.1 : w * 0.9, h * 0.45, m * 0.9, '#ffc79a', 0.45)
  else for (let i = 0; i < rng.int(2, 4); i++) softCloud(c, rng.range(0, w), h * rng.range(0.08, 0.3), m * rng.range(0.12, 0.22), '#ffffff', 0.7)
  const hue = rng.range(205, 230)
  const snow = evening ? '#ffe6e0' : '#ffffff'
  mountainRange(c, h * 0.5, h * rng.range(0.28, 0.36), {
    rock: mix(hsl(hue, 0.22, 0.5), skyCols[3]!, 0.35),
    snow: mix(snow, skyCols[3]!, 0.15),
    snowLine: rng.range(0.45, 0.7),
    lightFromLeft,
    shadow: mix('#3a4a7a', skyCols[1]!, 0.4),
  })
  c.rect(
    0,
    h * 0.4,
    w,
    h * 0.2,
    c.lin([
      [0, skyCols[3]!, 0],
      [0.7, skyCols[3]!, 0.35],
      [1, skyCols[3]!, 0],
    ]),
  )
  mountainRange(c, h * 0.6, h * rng.range(0.16, 0.24), {
    rock: mix(hsl(hue, 0.22, 0.42), skyCols[2]!, 0.25),
    snow: mix(snow, skyCols[2]!, 0.1),
    snowLine: rng.range(0.35, 0.6),
    lightFromLeft,
    shadow: '#1d2848',
  })
  const forest = ridge(c, h * 0.7, h * 0.06, { segments: 7, rough: 0.75, smooth: true })
  const green = hsl(rng.range(150, 175), 0.3, 0.2)
  c.path(
    forest,
    c.lin(
      [
        [0, mix(green, skyCols[2]!, 0.3)],
        [1, shade(green, 0.3)],
      ],
      0,
      h * 0.62,
      0,
      h * 0.8,
      true,
    ),
  )
  const ground = h * 0.78
  const snowGround = hill(c, ground, h * 0.08)
  c.path(
    snowGround,
    c.lin(
      [
        [0, '#ffffff'],
        [1, evening ? '#c9c2e0' : '#cfe0f0'],
      ],
      0,
      ground - h * 0.08,
      0,
      h,
      true,
    ),
  )
  const trees = rng.int(6, 12)
  const spots: [number, number][] = []
  for (let i = 0; i < trees; i++) {
    const x = rng.range(-0.05, 1.05) * w
    spots.push([x, hillY(c, snowGround, x) + rng.range(0, h * 0.12)])
  }
  spots.sort((a, b) => a[1] - b[1])
  for (const [x, y] of spots) {
    const size = m * (0.1 + ((y - ground) / (h * 0.2)) * 0.12) * rng.range(0.8, 1.2)
    pine(c, x, y + size * 0.06, size, mix(green, '#0e2a22', 0.5), '#f4f8fb')
  }
  if (rng.chance(0.4)) snowfall(c, 140)
  finish(c, { grade: evening ? '#ff9a7a' : '#7ab0ff', gradeAlpha: 0.05, vignette: 0.4 })
}

function christmasTree(c: Canvas) {
  const { w, h, rng, m } = c
  const wall = rng.pick(['#5a1f24', '#1f3b34', '#243250', '#4a2c22', '#3b2a45'])
  c.rect(
    0,
    0,
    w,
    h,
    c.lin(
      [
        [0, shade(wall, 0.45)],
        [1, wall],
      ],
      0,
      0,
      0,
      1,
    ),
  )
  const floorY = h * rng.range(0.8, 0.86)
  const cx = w * (rng.chance(0.5) ? rng.range(0.42, 0.58) : rng.pick([rng.range(0.3, 0.38), rng.range(0.62, 0.7)]))
  const treeH = Math.min(h * 0.78, m * 1.05) * rng.range(0.85, 1)
  if (rng.chance(0.55)) {
    // A window onto a snowy night, on the far side of the tree.
    const winW = Math.min(w * 0.3, m * 0.4)
    const winH = winW * 1.3
    const wx = cx > w / 2 ? rng.range(0.06, 0.3) * w - winW * 0.2 : w - rng.range(0.06, 0.3) * w - winW * 0.8
    const wy = floorY - treeH * 0.95
    c.rect(
      wx,
      wy,
      winW,
      winH,
      c.lin([
        [0, '#0d1838'],
        [1, '#3a4f86'],
      ]),
    )
    c.path(
      `M${f(wx)} ${f(wy + winH)}V${f(wy + winH * 0.8)}Q${f(wx + winW * 0.5)} ${f(wy + winH * 0.68)} ${f(wx + winW)} ${f(wy + winH * 0.82)}V${f(wy + winH)}Z`,
      '#dfe8f5',
    )
    for (let i = 0; i < 40; i++)
      c.circle(wx + rng.range(0, winW), wy + rng.range(0, winH * 0.8), m * rng.range(0.002, 0.005), '#ffffff', op(rng.range(0.5, 0.9)))
    const fr = m * 0.014
    const frame = '#efe6d6'
    c.path(
      `M${f(wx - fr)} ${f(wy - fr)}h${f(winW + fr * 2)}v${f(winH + fr * 2)}h${f(-winW - fr * 2)}Z M${f(wx)} ${f(wy)}v${f(winH)}h${f(winW)}v${f(-winH)}Z`,
      frame,
      ' fill-rule="evenodd"',
    )
    c.rect(wx + winW / 2 - fr * 0.4, wy, fr * 0.8, winH, frame)
    c.rect(wx, wy + winH * 0.45, winW, fr * 0.8, frame)
    c.rect(wx - fr * 2, wy + winH + fr, winW + fr * 4, fr * 1.4, shade(frame, 0.1))
  }
  if (rng.chance(0.5)) {
    // A string of fairy lights across the top of the room.
    const sag = h * rng.range(0.05, 0.1)
    const y0 = h * rng.range(0.04, 0.1)
    let wire = `M${f(-w * 0.02)} ${f(y0)}`
    const loops = rng.int(2, 3)
    for (let k = 0; k < loops; k++) wire += `Q${f(((k + 0.5) / loops) * w)} ${f(y0 + sag * 2)} ${f(((k + 1) / loops) * w * 1.02)} ${f(y0)}`
    c.path(wire, 'none', ` stroke="#1a1a1a" stroke-opacity="0.6" stroke-width="${f(m * 0.002)}"`)
    for (let k = 0; k < loops; k++) {
      for (let j = 1; j < 10; j++) {
        const u = j / 10
        const x = ((k + u) / loops) * w * 1.02 - w * 0.01
        const y = y0 + sag * 2 * 2 * u * (1 - u)
        c.glow(x, y + m * 0.008, m * 0.03, '#ffd27a', 0.5)
        c.circle(x, y + m * 0.008, m * 0.004, '#fff4d0')
      }
    }
  }
  c.glow(w * rng.range(0.15, 0.85), h * 0.35, m * 0.9, '#ffb45a', 0.35)
  bokeh(c, rng.int(20, 40), [0, 0, w, floorY], ['#ffcf7a', '#ffe3a8', '#ff9f5a', '#fff2d0'], [0.015, 0.05], [0.08, 0.25])
  c.rect(
    0,
    floorY,
    w,
    h - floorY,
    c.lin(
      [
        [0, '#6b4530'],
        [1, '#2c1a12'],
      ],
      0,
      0,
      0,
      1,
    ),
  )
  c.rect(0, floorY, w, h * 0.01, '#000000', op(0.25))
  if (rng.chance(0.5)) {
    // A rug under the tree.
    const rug = rng.pick(['#8c2f39', '#2f4858', '#c9a66b', '#5a3e6b'])
    c.ellipse(cx, floorY + (h - floorY) * 0.45, treeH * 0.55, (h - floorY) * 0.35, rug, op(0.85))
    c.ellipse(
      cx,
      floorY + (h - floorY) * 0.45,
      treeH * 0.47,
      (h - floorY) * 0.27,
      'none',
      ` stroke="${tint(rug, 0.3)}" stroke-width="${f(m * 0.006)}" stroke-opacity="0.7"`,
    )
  }
  const top = floorY - treeH
  const treeW = treeH * rng.range(0.62, 0.72)
  const green = hsl(rng.range(135, 160), rng.range(0.45, 0.6), rng.range(0.2, 0.27))
  c.glow(cx, floorY - treeH * 0.4, treeH * 0.8, '#ffd58a', 0.32)
  c.rect(cx - treeW * 0.05, floorY - treeH * 0.12, treeW * 0.1, treeH * 0.12, '#4a2c1a')
  const tiers = 5
  for (let i = 0; i < tiers; i++) {
    const t0 = i / tiers
    const ty = top + treeH * 0.05 + treeH * 0.82 * t0 * 0.85
    const by = top + treeH * (0.22 + 0.68 * ((i + 1) / tiers))
    const hw = (treeW / 2) * (0.3 + 0.7 * ((i + 1) / tiers))
    const teeth = 5 + i
    let d = `M${f(cx)} ${f(ty)}L${f(cx + hw)} ${f(by)}`
    for (let k = teeth; k >= 0; k--) {
      const x = cx - hw + (2 * hw * k) / teeth
      d += `Q${f(x + hw / teeth)} ${f(by - treeH * 0.035)} ${f(x)} ${f(by)}`
    }
    d += 'Z'
    c.path(
      d,
      c.lin(
        [
          [0, tint(green, 0.12)],
          [0.45, green],
          [1, shade(green, 0.45)],
        ],
        0,
        0,
        1,
        0.3,
      ),
    )
  }
  // Garlands of lights.
  const multi = rng.chance(0.5)
  const lightCols = multi ? ['#ff5a5a', '#ffd35a', '#5ad1ff', '#7dff8a', '#ff9af0'] : ['#fff1b8', '#ffe08a', '#fff7dd']
  for (let g = 0; g < 6; g++) {
    const t = (g + 0.6) / 6.3
    const y = top + treeH * (0.12 + t * 0.75)
    const hw = (treeW / 2) * (0.15 + 0.8 * t)
    const n = 5 + g * 2
    for (let k = 0; k <= n; k++) {
      const u = k / n
      const x = cx - hw + 2 * hw * u
      const yy = y + Math.sin(u * Math.PI) * treeH * 0.04 - u * treeH * 0.05
      const col = rng.pick(lightCols)
      c.glow(x, yy, m * 0.028, col, 0.5)
      c.circle(x, yy, m * 0.005, tint(col, 0.6))
    }
  }
  const baubleCols = rng.pick([
    ['#c8102e', '#f1c40f'],
    ['#d4af37', '#b0c4de'],
    ['#8e44ad', '#e8e8f0'],
    ['#e74c3c', '#2e86c1', '#f5b041'],
  ])
  for (let i = 0; i < 16; i++) {
    const t = rng.range(0.2, 0.95)
    const y = top + treeH * (0.1 + t * 0.78)
    const hw = (treeW / 2) * (0.15 + 0.75 * t)
    const x = cx + rng.range(-0.85, 0.85) * hw
    const r = m * rng.range(0.012, 0.02)
    const col = rng.pick(baubleCols)
    c.circle(
      x,
      y,
      r,
      c.rad(
        [
          [0, '#ffffff'],
          [0.25, tint(col, 0.2)],
          [1, shade(col, 0.5)],
        ],
        x,
        y,
        r * 1.2,
        x - r * 0.4,
        y - r * 0.4,
      ),
    )
  }
  // Star.
  const sr = m * 0.045
  const starPts: Pt[] = []
  for (let i = 0; i < 10; i++) {
    const a = -Math.PI / 2 + (i * Math.PI) / 5
    const r = i % 2 === 0 ? sr : sr * 0.45
    starPts.push([cx + Math.cos(a) * r, top + Math.sin(a) * r])
  }
  c.glow(cx, top, sr * 5, '#ffe9a0', 0.7)
  c.path(
    poly(starPts),
    c.lin([
      [0, '#fff6c8'],
      [1, '#e7b53a'],
    ]),
  )
  // Presents.
  const presents = rng.int(3, 5)
  for (let i = 0; i < presents; i++) {
    const pw = m * rng.range(0.1, 0.17)
    const ph = pw * rng.range(0.6, 0.95)
    const side = i % 2 === 0 ? -1 : 1
    const px = cx + side * (treeW * rng.range(0.1, 0.55)) - pw / 2
    const py = floorY + h * 0.02 * (i % 3) - ph
    const col = vary(rng, rng.pick(['#c0392b', '#1e8449', '#2874a6', '#d4ac0d', '#f5f5f5', '#7d3c98']), 5)
    const ribbon = rng.pick(['#f4d03f', '#ffffff', '#e74c3c', '#d4af37'])
    c.rect(
      px,
      py,
      pw,
      ph,
      c.lin(
        [
          [0, tint(col, 0.1)],
          [1, shade(col, 0.35)],
        ],
        0,
        0,
        1,
        0.4,
      ),
    )
    c.rect(px + pw * 0.44, py, pw * 0.12, ph, ribbon)
    c.rect(
      px - pw * 0.03,
      py - ph * 0.12,
      pw * 1.06,
      ph * 0.16,
      c.lin([
        [0, tint(col, 0.2)],
        [1, shade(col, 0.2)],
      ]),
    )
    c.rect(px + pw * 0.44, py - ph * 0.12, pw * 0.12, ph * 0.16, ribbon)
    c.ellipse(px + pw * 0.4, py - ph * 0.2, pw * 0.12, ph * 0.1, ribbon, rot(-25, px + pw * 0.4, py - ph * 0.2))
    c.ellipse(px + pw * 0.6, py - ph * 0.2, pw * 0.12, ph * 0.1, ribbon, rot(25, px + pw * 0.6, py - ph * 0.2))
  }
  finish(c, { grade: '#ff9a40', gradeAlpha: 0.07, vignette: 0.6 })
}

function birthdayCake(c: Canvas) {
  const { w, h, rng, m } = c
  const bg = rng.pick(['#2b1d3a', '#1d2c3a', '#3a221d', '#1f2a24', '#3a1d2f'])
  c.rect(
    0,
    0,
    w,
    h,
    c.lin([
      [0, shade(bg, 0.3)],
      [1, tint(bg, 0.08)],
    ]),
  )
  const tableY = h * rng.range(0.62, 0.7)
  bokeh(c, rng.int(30, 50), [0, 0, w, tableY], ['#ffcf7a', '#ff9ec7', '#9ed8ff', '#fff2d0', '#c9a0ff'], [0.015, 0.06], [0.08, 0.28])
  const deco = rng.next()
  if (deco < 0.5) {
    // Bunting.
    const y0 = h * rng.range(0.06, 0.14)
    const cols = ['#ff6b6b', '#ffd93d', '#6bcb77', '#4d96ff', '#c780fa']
    const n = 9
    c.path(
      `M${f(-w * 0.05)} ${f(y0)}Q${f(w / 2)} ${f(y0 + h * 0.09)} ${f(w * 1.05)} ${f(y0)}`,
      'none',
      ` stroke="#e8d8c0" stroke-width="${f(m * 0.003)}" stroke-opacity="0.7"`,
    )
    for (let i = 0; i < n; i++) {
      const u = (i + 0.5) / n
      const x = -w * 0.05 + u * w * 1.1
      const y = y0 + h * 0.09 * 2 * u * (1 - u)
      const s = m * 0.05
      c.path(
        poly([
          [x - s / 2, y],
          [x + s / 2, y],
          [x, y + s * 1.1],
        ]),
        cols[i % cols.length]!,
        op(0.85),
      )
    }
  } else if (deco < 0.85) {
    // Balloons tied behind the table, drifting at the sides.
    const cols = rng.pick([
      ['#ff595e', '#ffca3a', '#1982c4'],
      ['#ff8fab', '#ffc2d1', '#c77dff'],
      ['#f9c74f', '#90be6d', '#577590'],
      ['#e9c46a', '#f4f1de', '#e07a5f'],
    ])
    for (const side of [-1, 1]) {
      for (let i = 0; i < rng.int(2, 3); i++) {
        const r = m * rng.range(0.05, 0.07)
        const x = w / 2 + side * (w * rng.range(0.28, 0.42) + i * r * 1.3)
        const y = h * rng.range(0.14, 0.34) + i * r * 0.6
        c.path(
          `M${f(x)} ${f(y + r * 1.3)}Q${f(x + rng.range(-1, 1) * r)} ${f((y + tableY) / 2)} ${f(x - side * r * 0.5)} ${f(tableY)}`,
          'none',
          ` stroke="#ffffff" stroke-opacity="0.5" stroke-width="${f(m * 0.002)}"`,
        )
        balloon(c, x, y, r, cols[(i + (side > 0 ? 1 : 0)) % cols.length]!)
      }
    }
  }
  const tableCol = rng.pick(['#f3e6d8', '#e8d5c0', '#d9e8f0', '#f0dce4'])
  c.rect(
    0,
    tableY,
    w,
    h - tableY,
    c.lin(
      [
        [0, tint(tableCol, 0.1)],
        [1, shade(tableCol, 0.5)],
      ],
      0,
      0,
      0,
      1,
    ),
  )
  const cx = w * rng.range(0.42, 0.58)
  const cw = m * rng.range(0.46, 0.56)
  const ch = cw * rng.range(0.36, 0.46)
  const ry = cw * 0.14
  const baseY = tableY + (h - tableY) * 0.45
  // Plate.
  c.ellipse(cx, baseY + ry * 0.25, cw * 0.65, ry * 1.5, '#000000', op(0.2))
  c.ellipse(
    cx,
    baseY,
    cw * 0.62,
    ry * 1.35,
    c.lin([
      [0, '#ffffff'],
      [1, '#cfcfd6'],
    ]),
  )
  const sponge = rng.pick(['#fbe3ec', '#fff4e0', '#6b3f2a', '#e8f6ff', '#fff8f0'])
  const frost = rng.pick(['#ff8fb1', '#ffffff', '#8fd3ff', '#ffd27a', '#b58cff', '#7a4a2e'])
  const top = baseY - ch
  c.path(
    `M${f(cx - cw / 2)} ${f(top)}L${f(cx - cw / 2)} ${f(baseY)}A${f(cw / 2)} ${f(ry)} 0 0 0 ${f(cx + cw / 2)} ${f(baseY)}L${f(cx + cw / 2)} ${f(top)}Z`,
    c.lin(
      [
        [0, tint(sponge, 0.15)],
        [0.5, sponge],
        [1, shade(sponge, 0.3)],
      ],
      0,
      0,
      1,
      0,
    ),
  )
  // Frosting layer and drips.
  let drip = `M${f(cx - cw / 2)} ${f(top)}`
  const drips = 11
  for (let i = 0; i <= drips; i++) {
    const x = cx - cw / 2 + (cw * i) / drips
    const u = (x - cx) / (cw / 2)
    const yEdge = top + ry * Math.sqrt(Math.max(0, 1 - u * u))
    const len = ch * rng.range(0.12, 0.4)
    drip += `L${f(x - cw / drips / 2)} ${f(yEdge + ch * 0.08)}Q${f(x - cw / drips / 4)} ${f(yEdge + len)} ${f(x)} ${f(yEdge + ch * 0.06)}`
  }
  drip += `L${f(cx + cw / 2)} ${f(top)}Z`
  c.path(
    drip,
    c.lin(
      [
        [0, tint(frost, 0.25)],
        [0.5, frost],
        [1, shade(frost, 0.25)],
      ],
      0,
      0,
      1,
      0,
    ),
  )
  c.ellipse(
    cx,
    top,
    cw / 2,
    ry,
    c.lin([
      [0, tint(frost, 0.35)],
      [1, frost],
    ]),
  )
  // Sprinkles.
  const sprinkleCols = ['#ff4d6d', '#ffd23f', '#3bceac', '#4d96ff', '#ffffff', '#c780fa']
  for (let i = 0; i < 40; i++) {
    const a = rng.range(0, Math.PI * 2)
    const r = Math.sqrt(rng.next()) * 0.9
    const x = cx + Math.cos(a) * r * cw * 0.5
    const y = top + Math.sin(a) * r * ry
    c.rect(x, y, m * 0.012, m * 0.004, rng.pick(sprinkleCols), rot(rng.range(0, 180), x, y))
  }
  // Candles.
  const candles = rng.int(3, 7)
  const candleCol = rng.pick([
    ['#ff8fb1', '#ffffff'],
    ['#8fd3ff', '#ffffff'],
    ['#ffd27a', '#ff6b6b'],
    ['#b5e48c', '#ffffff'],
  ])
  for (let i = 0; i < candles; i++) {
    const u = candles === 1 ? 0 : (i / (candles - 1)) * 2 - 1
    const x = cx + u * cw * 0.32
    const y = top + (i % 2 === 0 ? -ry * 0.15 : ry * 0.3)
    const cH = ch * rng.range(0.55, 0.7)
    const cW = m * 0.016
    c.rect(
      x - cW / 2,
      y - cH,
      cW,
      cH,
      c.lin(
        [
          [0, candleCol[0]!],
          [0.5, tint(candleCol[0]!, 0.4)],
          [1, shade(candleCol[0]!, 0.2)],
        ],
        0,
        0,
        1,
        0,
      ),
    )
    for (let s = 0; s < 4; s++) c.rect(x - cW / 2, y - cH + (cH / 4) * s + cH * 0.05, cW, cH * 0.06, candleCol[1]!, op(0.8))
    const fy = y - cH - m * 0.005
    c.glow(x, fy - m * 0.02, m * 0.16, '#ffb347', 0.35)
    const fl = m * rng.range(0.04, 0.05)
    const sway = rng.range(-0.2, 0.2) * fl
    c.path(
      `M${f(x)} ${f(fy)}C${f(x - fl * 0.35)} ${f(fy - fl * 0.1)} ${f(x - fl * 0.2 + sway)} ${f(fy - fl * 0.6)} ${f(x + sway)} ${f(fy - fl)}C${f(x + fl * 0.2 + sway)} ${f(fy - fl * 0.6)} ${f(x + fl * 0.35)} ${f(fy - fl * 0.1)} ${f(x)} ${f(fy)}Z`,
      c.radBox(
        [
          [0, '#ffffff'],
          [0.35, '#fff3a0'],
          [0.8, '#ffb347'],
          [1, '#ff6a2a'],
        ],
        0.5,
        0.8,
        0.7,
      ),
    )
  }
  finish(c, { grade: '#ffae5a', gradeAlpha: 0.06, vignette: 0.6 })
}

function beachUmbrella(c: Canvas) {
  const { w, h, rng, m } = c
  const skyCols = rng.pick(DAY_SKIES)
  const horizon = h * rng.range(0.38, 0.5)
  sky(
    c,
    skyCols.map((s) => vary(rng, s, 6)),
    horizon,
  )
  for (let i = 0; i < rng.int(2, 5); i++) cloud(c, rng.range(0, w), horizon * rng.range(0.25, 0.8), m * rng.range(0.05, 0.1), '#ffffff', '#dbe7f3')
  c.glow(w * rng.range(0.6, 1), 0, m * 0.7, '#fffbe0', 0.5)
  const shore = horizon + (h - horizon) * rng.range(0.35, 0.5)
  const sea = vary(rng, rng.pick(['#1aa6b7', '#1e90c8', '#14b3a6']), 6)
  c.rect(
    0,
    horizon,
    w,
    shore - horizon + h * 0.03,
    c.lin(
      [
        [0, shade(sea, 0.35)],
        [0.6, sea],
        [1, tint(sea, 0.45)],
      ],
      0,
      horizon,
      0,
      shore,
      true,
    ),
  )
  for (let i = 0; i < 50; i++) {
    const y = horizon + (shore - horizon) * rng.next() ** 0.8
    const t = (y - horizon) / (shore - horizon)
    c.rect(rng.range(0, w), y, w * rng.range(0.02, 0.08) * (1 + t * 2), m * 0.002 * (1 + t * 2), '#ffffff', op(rng.range(0.15, 0.4)))
  }
  const sand = vary(rng, '#f2d7a6', 5, 0.05, 0.03)
  const shoreD = hill(c, shore, h * 0.025, h, 3)
  c.path(
    shoreD,
    c.lin(
      [
        [0, '#ffffff', 0.9],
        [0.04, '#e8f6f4'],
        [0.1, tint(sand, 0.2)],
        [1, shade(sand, 0.15)],
      ],
      0,
      shore - h * 0.03,
      0,
      h,
      true,
    ),
  )
  c.path(hill(c, shore + h * 0.02, h * 0.02, h, 3), mix(sand, sea, 0.2), op(0.25))
  // Umbrella.
  const ux = w * rng.range(0.3, 0.7)
  const uBase = shore + (h - shore) * rng.range(0.55, 0.75)
  const uR = m * rng.range(0.2, 0.26)
  const uTop = uBase - uR * 1.25
  const tilt = rng.range(-12, 12)
  c.ellipse(ux - Math.sin((tilt * Math.PI) / 180) * uR * 1.2 + uR * 0.3, uBase + uR * 0.05, uR * 1.05, uR * 0.2, shade(sand, 0.35), op(0.4))
  const cols = rng.pick([
    ['#e63946', '#ffffff'],
    ['#ffb703', '#fb8500'],
    ['#2a9d8f', '#e9f5f2'],
    ['#3d5a80', '#f4d35e'],
    ['#ef476f', '#ffd166'],
  ])
  // A shallow dome with a scalloped hem, its gores drawn as wedges from the apex and clipped to the dome.
  const apexY = uTop - uR * 0.42
  const segs = 8
  let dome = `M${f(ux - uR)} ${f(uTop)}C${f(ux - uR * 0.8)} ${f(apexY - uR * 0.05)} ${f(ux - uR * 0.3)} ${f(apexY)} ${f(ux)} ${f(apexY)}C${f(ux + uR * 0.3)} ${f(apexY)} ${f(ux + uR * 0.8)} ${f(apexY - uR * 0.05)} ${f(ux + uR)} ${f(uTop)}`
  for (let i = segs; i > 0; i--) {
    const xa = ux - uR + (2 * uR * i) / segs
    const xb = ux - uR + (2 * uR * (i - 1)) / segs
    dome += `Q${f((xa + xb) / 2)} ${f(uTop - uR * 0.07)} ${f(xb)} ${f(uTop)}`
  }
  dome += 'Z'
  let gores = ''
  for (let i = 0; i < segs; i++) {
    const a0 = ((-86 + (172 * i) / segs) * Math.PI) / 180
    const a1 = ((-86 + (172 * (i + 1)) / segs) * Math.PI) / 180
    const R = uR * 3
    gores += `<path d="M${f(ux)} ${f(apexY)}L${f(ux + Math.sin(a0) * R)} ${f(apexY + Math.cos(a0) * R * 0.35)}L${f(ux + Math.sin(a1) * R)} ${f(apexY + Math.cos(a1) * R * 0.35)}Z" fill="${cols[i % 2]}"/>`
  }
  const clip = c.clip(`<path d="${dome}"/>`)
  const canopyShade = c.lin(
    [
      [0, '#ffffff', 0.28],
      [0.45, '#ffffff', 0],
      [1, '#000000', 0.25],
    ],
    0,
    0,
    1,
    0.4,
  )
  c.add(
    `<g transform="rotate(${f(tilt)} ${f(ux)} ${f(uBase)})"><line x1="${f(ux)}" y1="${f(uBase)}" x2="${f(ux)}" y2="${f(apexY - uR * 0.06)}" stroke="#efe6d8" stroke-width="${f(m * 0.008)}"/><g clip-path="${clip}">${gores}<path d="${dome}" fill="${canopyShade}"/></g></g>`,
  )
  // Towel and ball.
  const tw = m * 0.3
  const th = m * 0.12
  const tx = Math.min(w - tw * 0.75, Math.max(tw * 0.75, ux + (rng.chance(0.5) ? -1 : 1) * uR * rng.range(0.9, 1.4)))
  const ty = Math.min(h - th * 1.6, uBase + (h - uBase) * 0.3)
  const towel = rng.pick([
    ['#ff6b6b', '#ffffff'],
    ['#4d96ff', '#ffd93d'],
    ['#6bcb77', '#ffffff'],
    ['#f4a261', '#264653'],
  ])
  let stripes = `<rect x="${f(-tw / 2)}" y="0" width="${f(tw)}" height="${f(th)}" fill="${towel[0]}"/>`
  for (let i = 1; i < 8; i += 2) stripes += `<rect x="${f(-tw / 2 + (tw * i) / 8)}" y="0" width="${f(tw / 8)}" height="${f(th)}" fill="${towel[1]}"/>`
  c.add(`<g transform="translate(${f(tx)} ${f(ty)}) rotate(${f(rng.range(-8, 8))}) skewX(-25)">${stripes}</g>`)
  const bx = ux + (tx < ux ? 1 : -1) * uR * rng.range(0.6, 1.1)
  const by = uBase + (h - uBase) * rng.range(0.2, 0.5)
  const br = m * 0.04
  c.ellipse(bx + br * 0.4, by + br * 0.9, br * 1.1, br * 0.25, shade(sand, 0.35), op(0.4))
  c.circle(bx, by, br, '#ffffff')
  c.path(`M${f(bx)} ${f(by - br)}A${f(br)} ${f(br)} 0 0 1 ${f(bx + br)} ${f(by)}L${f(bx)} ${f(by)}Z`, '#e63946')
  c.path(`M${f(bx)} ${f(by + br)}A${f(br)} ${f(br)} 0 0 1 ${f(bx - br)} ${f(by)}L${f(bx)} ${f(by)}Z`, '#1d7fe0')
  c.path(`M${f(bx - br)} ${f(by)}A${f(br)} ${f(br)} 0 0 1 ${f(bx)} ${f(by - br)}L${f(bx)} ${f(by)}Z`, '#ffd23f')
  c.circle(
    bx,
    by,
    br,
    c.rad(
      [
        [0, '#ffffff', 0.4],
        [0.5, '#ffffff', 0],
        [1, '#000000', 0.35],
      ],
      bx,
      by,
      br,
      bx - br * 0.4,
      by - br * 0.4,
    ),
  )
  finish(c, { grade: '#ffe0a0', gradeAlpha: 0.06, vignette: 0.35 })
}

function autumnForest(c: Canvas) {
  const { w, h, rng, m } = c
  const mist = vary(rng, rng.pick(['#f3d9b1', '#f0c9a0', '#e8d6c0', '#f6e2b8']), 6)
  c.rect(
    0,
    0,
    w,
    h,
    c.lin([
      [0, tint(mist, 0.3)],
      [0.6, mist],
      [1, shade(mist, 0.2)],
    ]),
  )
  const sunX = w * rng.range(0.3, 0.7)
  c.glow(sunX, h * 0.25, m * 0.8, '#fff3d0', 0.7)
  const leafSets = [
    ['#d35400', '#e67e22', '#f39c12', '#c0392b'],
    ['#e8a33d', '#d4572a', '#b83b26', '#f2c14e'],
    ['#c0392b', '#e74c3c', '#f39c12', '#a04000'],
  ]
  const leaves = rng.pick(leafSets)
  const ground = h * 0.78
  for (let layer = 0; layer < 4; layer++) {
    const t = layer / 3
    const fade = 0.7 * (1 - t)
    const trunkCol = mix(shade('#3b2418', 0.1), mist, fade)
    const n = 4 + layer * 2
    for (let i = 0; i < n; i++) {
      const x = rng.range(-0.05, 1.05) * w
      const tw = m * (0.012 + 0.03 * t) * rng.range(0.7, 1.3)
      const baseY = ground + h * 0.06 * t + rng.range(0, h * 0.03)
      c.path(`M${f(x - tw)} ${f(baseY)}L${f(x - tw * 0.6)} ${f(-h * 0.05)}L${f(x + tw * 0.6)} ${f(-h * 0.05)}L${f(x + tw)} ${f(baseY)}Z`, trunkCol)
      // Canopy: a cloud of two-tone leaf clumps (flat fills: cheap, and crisper than gradients).
      const canopyY = rng.range(0.02, 0.3) * h
      const spread = m * (0.1 + 0.12 * t)
      const clumps = 7 + layer * 3
      c.ellipse(x, canopyY, spread * 1.05, spread * 0.85, shade(mix(rng.pick(leaves), mist, fade), 0.15))
      const base = rng.pick(leaves)
      for (let k = 0; k < clumps; k++) {
        const a = rng.range(0, Math.PI * 2)
        const d = Math.sqrt(rng.next())
        const cx = x + Math.cos(a) * d * spread
        const cy = canopyY + Math.sin(a) * d * spread * 0.8
        const r = m * rng.range(0.03, 0.06) * (0.7 + t * 0.8)
        const col = mix(rng.chance(0.6) ? base : rng.pick(leaves), mist, fade)
        c.circle(cx, cy, r, shade(col, 0.08))
        if (layer >= 2) c.circle(cx - r * 0.12, cy - r * 0.15, r * 0.8, tint(col, 0.06))
      }
    }
    if (layer === 1) {
      // Sun rays through the mist.
      for (let r = 0; r < 4; r++) {
        const x0 = sunX + rng.range(-0.15, 0.15) * w
        const spread = w * rng.range(0.05, 0.12)
        const x1 = x0 + rng.range(-0.3, 0.3) * w
        c.path(
          poly([
            [x0 - spread * 0.2, 0],
            [x0 + spread * 0.2, 0],
            [x1 + spread, h],
            [x1 - spread, h],
          ]),
          c.lin([
            [0, '#fff8e0', 0.28],
            [1, '#fff8e0', 0],
          ]),
        )
      }
    }
  }
  const groundD = hill(c, ground, h * 0.05)
  c.path(
    groundD,
    c.lin(
      [
        [0, mix(leaves[1]!, mist, 0.3)],
        [1, shade(leaves[3]!, 0.45)],
      ],
      0,
      ground - h * 0.05,
      0,
      h,
      true,
    ),
  )
  if (rng.chance(0.5)) {
    // A path winding into the trees.
    const px = w * rng.range(0.35, 0.65)
    c.path(
      `M${f(px - w * 0.02)} ${f(ground)}Q${f(px - w * 0.15)} ${f(ground + (h - ground) * 0.5)} ${f(px - w * 0.3)} ${f(h)}L${f(px + w * 0.25)} ${f(h)}Q${f(px + w * 0.05)} ${f(ground + (h - ground) * 0.5)} ${f(px + w * 0.02)} ${f(ground)}Z`,
      c.lin([
        [0, tint(mist, 0.1)],
        [1, mix(mist, '#8a6a4a', 0.5)],
      ]),
      op(0.8),
    )
  }
  for (let i = 0; i < 220; i++) {
    const y = ground - h * 0.02 + rng.next() ** 0.7 * (h - ground)
    const s = m * rng.range(0.004, 0.012) * (1 + (y - ground) / (h - ground))
    const x = rng.range(0, w)
    c.ellipse(x, y, s * 1.6, s, rng.pick(leaves), `${op(rng.range(0.6, 1))}${rot(rng.range(0, 180), x, y)}`)
  }
  for (let i = 0; i < 25; i++) {
    const x = rng.range(0, w)
    const y = rng.range(0, ground)
    const s = m * rng.range(0.005, 0.01)
    c.ellipse(x, y, s * 1.6, s, rng.pick(leaves), `${op(0.85)}${rot(rng.range(0, 180), x, y)}`)
  }
  finish(c, { grade: '#ff9a3c', gradeAlpha: 0.07, vignette: 0.5 })
}

function balloon(c: Canvas, x: number, y: number, r: number, col: string) {
  c.path(`M${f(x)} ${f(y + r * 1.18)}l${f(-r * 0.12)} ${f(r * 0.15)}h${f(r * 0.24)}Z`, shade(col, 0.2))
  c.ellipse(
    x,
    y,
    r,
    r * 1.2,
    c.rad(
      [
        [0, tint(col, 0.6)],
        [0.25, tint(col, 0.1)],
        [1, shade(col, 0.35)],
      ],
      x,
      y,
      r * 1.4,
      x - r * 0.35,
      y - r * 0.45,
    ),
  )
  c.ellipse(x - r * 0.38, y - r * 0.5, r * 0.14, r * 0.25, '#ffffff', `${op(0.55)}${rot(25, x - r * 0.38, y - r * 0.5)}`)
}

function parkBalloons(c: Canvas) {
  const { w, h, rng, m } = c
  const skyCols = rng.pick(DAY_SKIES)
  sky(
    c,
    skyCols.map((s) => vary(rng, s, 6)),
    h * 0.7,
  )
  for (let i = 0; i < rng.int(3, 6); i++) cloud(c, rng.range(0, w), h * rng.range(0.08, 0.45), m * rng.range(0.05, 0.11), '#ffffff', '#d8e6f4')
  const grass = vary(rng, rng.pick(['#6ab04c', '#7cb342', '#58a05c']), 8)
  const far = hill(c, h * 0.66, h * 0.1)
  c.path(far, mix(grass, skyCols[2]!, 0.45))
  for (let i = 0; i < rng.int(4, 8); i++) {
    const x = rng.range(0, w)
    roundTree(
      c,
      x,
      hillY(c, far, x) + h * 0.02,
      m * rng.range(0.06, 0.1),
      [mix('#3e8e41', skyCols[2]!, 0.35), mix('#5aa350', skyCols[2]!, 0.35)],
      mix('#5d4037', skyCols[2]!, 0.35),
    )
  }
  const near = hill(c, h * 0.8, h * 0.1)
  c.path(
    near,
    c.lin(
      [
        [0, tint(grass, 0.15)],
        [1, shade(grass, 0.3)],
      ],
      0,
      h * 0.7,
      0,
      h,
      true,
    ),
  )
  for (let i = 0; i < rng.int(1, 3); i++) {
    const x = rng.range(0, w)
    roundTree(c, x, hillY(c, near, x) + h * 0.04, m * rng.range(0.14, 0.2), ['#2e7d32', '#43a047', '#388e3c'], '#5d4037')
  }
  // A bunch of balloons tied together, plus a few loose ones drifting up.
  const knotX = w * rng.range(0.3, 0.7)
  const knotY = h * rng.range(0.72, 0.82)
  const palette = rng.pick([
    ['#ff595e', '#ffca3a', '#8ac926', '#1982c4', '#6a4c93'],
    ['#ff8fab', '#ffc2d1', '#fb6f92', '#ffe5ec', '#c77dff'],
    ['#f94144', '#f3722c', '#f9c74f', '#90be6d', '#43aa8b', '#577590'],
  ])
  const n = rng.int(6, 10)
  const balloons: { x: number; y: number; r: number; col: string }[] = []
  for (let i = 0; i < n; i++) {
    const a = -Math.PI / 2 + rng.range(-0.7, 0.7)
    const dist = m * rng.range(0.25, 0.45)
    balloons.push({
      x: knotX + Math.cos(a) * dist * 1.2,
      y: knotY + Math.sin(a) * dist * 1.1,
      r: m * rng.range(0.045, 0.065),
      col: palette[i % palette.length]!,
    })
  }
  for (let i = 0; i < rng.int(2, 4); i++)
    balloons.push({ x: rng.range(0.1, 0.9) * w, y: h * rng.range(0.08, 0.3), r: m * rng.range(0.025, 0.04), col: rng.pick(palette) })
  balloons.sort((a, b) => a.y - b.y)
  let strings = ''
  for (const b of balloons.slice(0, n + 5)) {
    const loose = b.y < h * 0.32 && Math.abs(b.x - knotX) > m * 0.5
    const ex = loose ? b.x + rng.range(-0.05, 0.05) * m : knotX
    const ey = loose ? b.y + b.r * 4 : knotY
    strings += `M${f(b.x)} ${f(b.y + b.r * 1.2)}Q${f((b.x + ex) / 2 + rng.range(-1, 1) * m * 0.03)} ${f((b.y + ey) / 2)} ${f(ex)} ${f(ey)}`
  }
  c.path(strings, 'none', ` stroke="#ffffff" stroke-opacity="0.75" stroke-width="${f(m * 0.0025)}"`)
  for (const b of balloons) balloon(c, b.x, b.y, b.r, b.col)
  finish(c, { grade: '#ffd27a', gradeAlpha: 0.05, vignette: 0.35 })
}

/** A ridge tent: glowing from inside, or lit on one side by a fire. */
function tent(c: Canvas, x: number, base: number, s: number, dark: string, lantern: boolean, litSide?: 'left' | 'right') {
  const apex: Pt = [x, base - s * 0.9]
  c.path(poly([[x - s * 0.85, base], apex, [x + s * 0.85, base]]), dark)
  if (lantern) {
    c.glow(x, base - s * 0.25, s * 2.2, '#ffb65c', 0.28)
    c.path(
      poly([[x - s * 0.8, base], apex, [x + s * 0.8, base]]),
      c.lin(
        [
          [0, '#ffd08a'],
          [1, '#d9782e'],
        ],
        0,
        0,
        0,
        1,
      ),
      op(0.85),
    )
    c.path(
      poly([
        [x - s * 0.22, base],
        [x, base - s * 0.6],
        [x + s * 0.22, base],
      ]),
      '#fff0c8',
    )
  } else {
    const lit = litSide === 'right' ? [[x, base], apex, [x + s * 0.85, base]] : [[x - s * 0.85, base], apex, [x, base]]
    c.path(
      poly(lit as Pt[]),
      c.lin(
        [
          [0, '#ff9a4a', 0.05],
          [1, '#ff9a4a', 0.4],
        ],
        litSide === 'right' ? 0 : 1,
        0,
        litSide === 'right' ? 1 : 0,
        0,
      ),
    )
    c.path(
      poly([
        [x - s * 0.2, base],
        [x, base - s * 0.55],
        [x + s * 0.2, base],
      ]),
      '#000000',
      op(0.5),
    )
  }
}

function nightSky(c: Canvas) {
  const { w, h, rng, m } = c
  const base = rng.pick([
    ['#02040f', '#0a1433', '#1b2d5c', '#3a4f7f'],
    ['#050312', '#140f38', '#2e2463', '#5a4a8a'],
    ['#010a12', '#08233a', '#124a66', '#2f7a8a'],
  ])
  sky(
    c,
    base.map((s) => vary(rng, s, 5, 0.04, 0.02)),
    h * 0.85,
  )
  // Milky way band.
  const mx = w * rng.range(0.3, 0.7)
  const ang = rng.range(-60, -20)
  c.ellipse(
    mx,
    h * 0.35,
    Math.max(w, h) * 0.7,
    m * 0.14,
    c.radBox([
      [0, '#c9b8ff', 0.22],
      [0.5, '#8fa8ff', 0.1],
      [1, '#8fa8ff', 0],
    ]),
    rot(ang, mx, h * 0.35),
  )
  c.ellipse(
    mx,
    h * 0.35,
    Math.max(w, h) * 0.5,
    m * 0.05,
    c.radBox([
      [0, '#fff4e8', 0.18],
      [1, '#fff4e8', 0],
    ]),
    rot(ang, mx, h * 0.35),
  )
  const rad = (ang * Math.PI) / 180
  for (let i = 0; i < 260; i++) {
    const t = rng.range(-1, 1) * Math.max(w, h) * 0.6
    const o = (rng.next() + rng.next() + rng.next() - 1.5) * m * 0.12
    const x = mx + Math.cos(rad) * t - Math.sin(rad) * o
    const y = h * 0.35 + Math.sin(rad) * t + Math.cos(rad) * o
    c.circle(x, y, m * rng.range(0.0006, 0.0014), '#ffffff', op(rng.range(0.3, 0.9)))
  }
  stars(c, 380, h * 0.8)
  const moonX = w * rng.range(0.15, 0.85)
  const moonY = h * rng.range(0.1, 0.3)
  const mr = m * rng.range(0.045, 0.07)
  c.glow(moonX, moonY, mr * 9, '#cfe0ff', 0.35)
  const crescent = rng.chance(0.5)
  const moonFill = c.rad(
    [
      [0, '#fffdf0'],
      [1, '#e6e2cc'],
    ],
    moonX,
    moonY,
    mr,
    moonX - mr * 0.3,
    moonY - mr * 0.3,
  )
  if (crescent) {
    const tilt = rng.range(-40, 40)
    c.path(
      `M${f(moonX)} ${f(moonY - mr)}A${f(mr)} ${f(mr)} 0 0 0 ${f(moonX)} ${f(moonY + mr)}A${f(mr * 1.25)} ${f(mr * 1.25)} 0 0 1 ${f(moonX)} ${f(moonY - mr)}Z`,
      moonFill,
      rot(tilt, moonX, moonY),
    )
  } else c.circle(moonX, moonY, mr, moonFill)
  if (!crescent)
    for (let i = 0; i < 5; i++) c.circle(moonX + rng.range(-0.5, 0.5) * mr, moonY + rng.range(-0.5, 0.5) * mr, mr * rng.range(0.08, 0.2), '#cfc8b0', op(0.5))
  if (rng.chance(0.5)) {
    const sx = w * rng.range(0.2, 0.8)
    const sy = h * rng.range(0.1, 0.3)
    const len = m * rng.range(0.15, 0.25)
    c.line(
      sx,
      sy,
      sx - len,
      sy + len * 0.45,
      c.lin(
        [
          [0, '#ffffff', 0.9],
          [1, '#ffffff', 0],
        ],
        sx,
        sy,
        sx - len,
        sy + len * 0.45,
        true,
      ),
      m * 0.003,
    )
  }
  const glowCol = rng.pick(['#ff9a6a', '#6ad1c8', '#9a8aff', '#ffcf8a'])
  c.rect(
    0,
    h * 0.5,
    w,
    h * 0.3,
    c.lin([
      [0, glowCol, 0],
      [1, glowCol, 0.22],
    ]),
  )
  const hills = ridge(c, h * 0.76, h * 0.14, { segments: 6, rough: 0.45, smooth: true })
  c.path(
    hills,
    c.lin(
      [
        [0, mix(base[2]!, '#000000', 0.45)],
        [1, '#02040a'],
      ],
      0,
      h * 0.6,
      0,
      h,
      true,
    ),
  )
  const lake = rng.chance(0.45)
  if (lake) {
    // A still lake below the hills, the moon's path across it.
    const shoreY = h * 0.8
    c.rect(
      0,
      shoreY,
      w,
      h - shoreY,
      c.lin(
        [
          [0, mix(base[2]!, base[3]!, 0.5)],
          [1, shade(base[1]!, 0.4)],
        ],
        0,
        0,
        0,
        1,
      ),
    )
    for (let k = 0; k < 50; k++) {
      const t = (k / 50) ** 1.3
      const width = m * rng.range(0.02, 0.08) * (1 + t * 3)
      c.rect(
        moonX - width / 2 + rng.range(-1, 1) * width * 0.3,
        shoreY + t * (h - shoreY),
        width,
        m * 0.003 * (1 + t * 2),
        '#fff6dc',
        op(rng.range(0.25, 0.6) * (1 - t * 0.5)),
      )
    }
    for (let i = 0; i < 80; i++)
      c.circle(rng.range(0, w), shoreY + rng.range(0, h - shoreY), m * rng.range(0.0008, 0.0016), '#ffffff', op(rng.range(0.15, 0.4)))
    c.path(hill(c, h * 0.97, h * 0.04), '#03060c')
    for (let i = 0; i < rng.int(3, 6); i++) {
      const x = rng.pick([rng.range(-0.05, 0.25), rng.range(0.75, 1.05)]) * w
      pine(c, x, h * 1.01, m * rng.range(0.2, 0.35), '#03060c')
    }
  } else {
    const fg = hill(c, h * 0.9, h * 0.06)
    for (let i = 0; i < rng.int(6, 14); i++) {
      const x = rng.range(0, w)
      const size = m * rng.range(0.1, 0.25)
      pine(c, x, hillY(c, fg, x) + h * 0.02, size, '#03060c')
    }
    c.path(fg, '#03060c')
    const hut = rng.next()
    const cx = w * rng.range(0.2, 0.8)
    const cy = hillY(c, fg, cx) + h * 0.01
    if (hut < 0.45) {
      // A cabin with lit windows.
      const s = m * 0.09
      c.glow(cx, cy - s * 0.4, s * 3, '#ffb65c', 0.3)
      c.path(
        poly([
          [cx - s, cy],
          [cx - s, cy - s * 0.7],
          [cx, cy - s * 1.3],
          [cx + s, cy - s * 0.7],
          [cx + s, cy],
        ]),
        '#05070c',
      )
      c.rect(cx + s * 0.45, cy - s * 1.25, s * 0.18, s * 0.4, '#05070c')
      c.rect(cx - s * 0.55, cy - s * 0.6, s * 0.35, s * 0.3, '#ffc46b')
      c.rect(cx + s * 0.2, cy - s * 0.6, s * 0.35, s * 0.3, '#ffb14f')
    } else if (hut < 0.8) tent(c, cx, cy, m * 0.11, '#05070c', true)
  }
  finish(c, { vignette: 0.55 })
}

function lakeCanoe(c: Canvas) {
  const { w, h, rng, m } = c
  const morning = rng.chance(0.5)
  const skyCols = morning ? ['#7fb2de', '#b5d4ec', '#f4dcc4', '#fde8cf'] : rng.pick(DUSK_SKIES).sky
  const horizon = h * rng.range(0.48, 0.58)
  sky(
    c,
    skyCols.map((s) => vary(rng, s, 5)),
    horizon,
  )
  const sunX = w * rng.range(0.2, 0.8)
  c.glow(sunX, horizon * 0.8, m * 0.8, morning ? '#fff6e0' : '#ffc080', 0.5)
  const layers: { d: string; fill: string }[] = []
  const hue = rng.range(190, 240)
  for (let i = 0; i < 3; i++) {
    const t = i / 2
    const amp = h * (0.22 - 0.07 * t) * rng.range(0.8, 1.1)
    const d = ridge(c, horizon, amp, { segments: 6, rough: i === 2 ? 0.4 : 0.5, smooth: i === 2, bottom: horizon + 1 })
    const col = mix(hsl(hue + t * 30, 0.25 + t * 0.15, 0.35 - t * 0.15), skyCols[3]!, 0.55 * (1 - t))
    layers.push({ d, fill: col })
  }
  for (const l of layers)
    c.path(
      l.d,
      c.lin(
        [
          [0, tint(l.fill, 0.1)],
          [1, l.fill],
        ],
        0,
        0,
        0,
        1,
      ),
    )
  const treeCol = hsl(rng.range(140, 170), 0.3, 0.12)
  const pines: [number, number][] = []
  for (let i = 0; i < rng.int(10, 20); i++) pines.push([rng.range(-0.05, 1.05) * w, m * rng.range(0.04, 0.11)])
  for (const [x, s] of pines) pine(c, x, horizon + 1, s, treeCol)
  // Reflection: the same silhouettes mirrored in the water, tinted.
  const water = c.lin(
    [
      [0, mix(skyCols[3]!, skyCols[1]!, 0.3)],
      [1, shade(skyCols[0]!, 0.35)],
    ],
    0,
    horizon,
    0,
    h,
    true,
  )
  c.rect(0, horizon, w, h - horizon, water)
  const mirror = ` transform="translate(0 ${f(2 * horizon)}) scale(1 -1)"`
  for (const l of layers) c.path(l.d, l.fill, `${op(0.55)}${mirror}`)
  c.add(`<g${mirror}>`)
  for (const [x, s] of pines) c.path(`M${f(x)} ${f(horizon - s)}L${f(x + s * 0.2)} ${f(horizon)}L${f(x - s * 0.2)} ${f(horizon)}Z`, treeCol, op(0.5))
  c.add('</g>')
  c.rect(
    0,
    horizon,
    w,
    h - horizon,
    c.lin(
      [
        [0, skyCols[3]!, 0.1],
        [1, skyCols[0]!, 0.5],
      ],
      0,
      0,
      0,
      1,
    ),
  )
  for (let i = 0; i < 120; i++) {
    const t = rng.next() ** 1.3
    const y = horizon + t * (h - horizon)
    c.rect(rng.range(0, w), y, w * rng.range(0.02, 0.1) * (1 + t * 3), m * 0.0018 * (1 + t * 3), '#ffffff', op(rng.range(0.06, 0.2)))
  }
  if (morning) softCloud(c, w * 0.5, horizon - h * 0.01, w * 0.3, '#ffffff', 0.35)
  // Canoe with a paddler.
  const bx = w * rng.range(0.3, 0.7)
  const by = horizon + (h - horizon) * rng.range(0.4, 0.6)
  const L = m * rng.range(0.28, 0.36)
  const hull = rng.pick(['#c0392b', '#d35400', '#e9c46a', '#2a9d8f', '#f4f1de'])
  const dir = rng.chance(0.5) ? 1 : -1
  c.ellipse(bx, by + L * 0.06, L * 0.6, L * 0.04, '#000000', op(0.25))
  c.path(
    `M${f(bx - L / 2)} ${f(by - L * 0.06)}Q${f(bx)} ${f(by + L * 0.12)} ${f(bx + L / 2)} ${f(by - L * 0.06)}Q${f(bx)} ${f(by + L * 0.02)} ${f(bx - L / 2)} ${f(by - L * 0.06)}Z`,
    c.lin([
      [0, tint(hull, 0.2)],
      [1, shade(hull, 0.3)],
    ]),
  )
  for (const [px, sz] of [[bx - dir * L * 0.18, 1], ...(rng.chance(0.6) ? [[bx + dir * L * 0.18, 0.85]] : [])] as [number, number][]) {
    const ph = L * 0.2 * sz
    const col = shade(rng.pick(skyCols), 0.7)
    c.path(
      `M${f(px - ph * 0.22)} ${f(by)}Q${f(px - ph * 0.25)} ${f(by - ph * 0.7)} ${f(px)} ${f(by - ph * 0.75)}Q${f(px + ph * 0.25)} ${f(by - ph * 0.7)} ${f(px + ph * 0.22)} ${f(by)}Z`,
      col,
    )
    c.circle(px, by - ph * 0.9, ph * 0.16, col)
    c.line(px - dir * ph * 0.6, by - ph * 0.8, px + dir * ph * 0.3, by + ph * 0.35, col, m * 0.003)
  }
  for (let i = 1; i <= 3; i++)
    c.ellipse(
      bx,
      by + L * 0.03,
      L * (0.55 + i * 0.15),
      L * (0.04 + i * 0.015),
      'none',
      ` stroke="#ffffff" stroke-opacity="${f(0.2 / i)}" stroke-width="${f(m * 0.002)}"`,
    )
  finish(c, { grade: morning ? '#9fc8ff' : '#ff9a5a', gradeAlpha: 0.05, vignette: 0.45 })
}

function flower(c: Canvas, x: number, y: number, r: number, petal: string, centre: string, petals: number, rotation: number) {
  let d = ''
  for (let i = 0; i < petals; i++) {
    const a = rotation + (i / petals) * Math.PI * 2
    const px = x + Math.cos(a) * r * 0.55
    const py = y + Math.sin(a) * r * 0.55 * 0.75
    d += `<ellipse cx="${f(px)}" cy="${f(py)}" rx="${f(r * 0.5)}" ry="${f(r * 0.22)}" transform="rotate(${f((a * 180) / Math.PI)} ${f(px)} ${f(py)})"/>`
  }
  c.add(`<g fill="${petal}">${d}</g>`)
  c.circle(x, y, r * 0.22, centre)
}

function flowerGarden(c: Canvas) {
  const { w, h, rng, m } = c
  const skyCols = rng.pick(DAY_SKIES)
  const horizon = h * rng.range(0.35, 0.45)
  sky(
    c,
    skyCols.map((s) => vary(rng, s, 6)),
    horizon,
  )
  for (let i = 0; i < rng.int(2, 4); i++) cloud(c, rng.range(0, w), horizon * rng.range(0.2, 0.7), m * rng.range(0.05, 0.09), '#ffffff', '#dde8f2')
  const hedge = ridge(c, horizon + h * 0.05, h * 0.08, { segments: 6, rough: 0.6, smooth: true })
  c.path(
    hedge,
    c.lin(
      [
        [0, '#4f8a3c'],
        [1, '#2d5a27'],
      ],
      0,
      horizon - h * 0.05,
      0,
      horizon + h * 0.1,
      true,
    ),
  )
  for (let i = 0; i < rng.int(2, 4); i++) {
    const x = rng.range(0, w)
    roundTree(c, x, horizon + h * 0.06, m * rng.range(0.1, 0.16), ['#3f7f3a', '#5a9a45', '#4a8a40'], '#5b4032')
  }
  const lawnTop = horizon + h * 0.04
  const grass = vary(rng, '#79b653', 8)
  c.rect(
    0,
    lawnTop,
    w,
    h - lawnTop,
    c.lin(
      [
        [0, tint(grass, 0.1)],
        [1, shade(grass, 0.35)],
      ],
      0,
      0,
      0,
      1,
    ),
  )
  if (rng.chance(0.6)) {
    // Picket fence.
    const fy = lawnTop + h * 0.06
    const ph = h * 0.07
    const pw = m * 0.018
    c.rect(0, fy - ph * 0.75, w, ph * 0.1, '#f4f1ea')
    c.rect(0, fy - ph * 0.35, w, ph * 0.1, '#f4f1ea')
    let d = ''
    for (let x = rng.range(0, pw * 2); x < w; x += pw * 2.4)
      d += `M${f(x)} ${f(fy)}v${f(-ph)}l${f(pw / 2)} ${f(-pw * 0.6)}l${f(pw / 2)} ${f(pw * 0.6)}v${f(ph)}Z`
    c.path(d, '#fbfaf6')
    c.rect(
      0,
      fy - ph,
      w,
      ph,
      c.lin([
        [0, '#000000', 0],
        [1, '#000000', 0.1],
      ]),
    )
  }
  const palette = rng.pick([
    ['#ff5d8f', '#ff8fab', '#ffffff', '#ffd166', '#c77dff'],
    ['#ef476f', '#ffd166', '#f78c6b', '#ffffff'],
    ['#9b5de5', '#f15bb5', '#fee440', '#ffffff', '#00bbf9'],
    ['#e63946', '#ffb703', '#fb8500', '#fff1e6'],
  ])
  const rows = 9
  for (let r = 0; r < rows; r++) {
    const t = r / (rows - 1)
    const y = lawnTop + h * 0.1 + (h - lawnTop - h * 0.06) * t ** 1.2
    const size = m * (0.012 + 0.05 * t ** 1.4)
    const count = Math.round(w / (size * 2.1))
    for (let i = 0; i < count; i++) {
      const x = (i + rng.range(0, 1)) * (w / count)
      const yy = y + rng.range(-1, 1) * size * 0.6
      const col = rng.pick(palette)
      if (t > 0.3) c.line(x, yy, x + rng.range(-1, 1) * size * 0.3, yy + size * 2.5, '#3f7f2e', size * 0.12)
      if (t < 0.25) c.circle(x, yy, size * 0.5, col)
      else if (rng.chance(0.35)) {
        // Tulip.
        c.path(
          `M${f(x - size * 0.45)} ${f(yy - size * 0.5)}Q${f(x - size * 0.5)} ${f(yy + size * 0.45)} ${f(x)} ${f(yy + size * 0.45)}Q${f(x + size * 0.5)} ${f(yy + size * 0.45)} ${f(x + size * 0.45)} ${f(yy - size * 0.5)}L${f(x + size * 0.22)} ${f(yy - size * 0.2)}L${f(x)} ${f(yy - size * 0.55)}L${f(x - size * 0.22)} ${f(yy - size * 0.2)}Z`,
          c.lin([
            [0, tint(col, 0.2)],
            [1, shade(col, 0.25)],
          ]),
        )
      } else flower(c, x, yy, size, col, rng.pick(['#f4a300', '#ffd23f', '#8a4b08']), rng.int(5, 8), rng.range(0, 1))
    }
  }
  if (rng.chance(0.6)) {
    const bx = w * rng.range(0.2, 0.8)
    const by = h * rng.range(0.45, 0.6)
    const s = m * 0.03
    const col = rng.pick(['#ff9f1c', '#4cc9f0', '#f72585'])
    c.ellipse(bx - s * 0.6, by - s * 0.3, s * 0.7, s * 0.5, col, rot(-30, bx - s * 0.6, by - s * 0.3))
    c.ellipse(bx + s * 0.6, by - s * 0.3, s * 0.7, s * 0.5, col, rot(30, bx + s * 0.6, by - s * 0.3))
    c.ellipse(bx - s * 0.4, by + s * 0.35, s * 0.4, s * 0.3, shade(col, 0.15))
    c.ellipse(bx + s * 0.4, by + s * 0.35, s * 0.4, s * 0.3, shade(col, 0.15))
    c.ellipse(bx, by, s * 0.08, s * 0.6, '#222222')
  }
  finish(c, { grade: '#ffe6a0', gradeAlpha: 0.06, vignette: 0.4, leak: rng.chance(0.4) ? '#ffcf8a' : undefined })
}

function cityDusk(c: Canvas) {
  const { w, h, rng, m } = c
  const p = rng.pick(DUSK_SKIES)
  const water = rng.chance(0.6)
  const ground = h * (water ? rng.range(0.64, 0.72) : rng.range(0.82, 0.9))
  sky(
    c,
    p.sky.map((s) => vary(rng, s, 6)),
    ground,
  )
  c.glow(w * rng.range(0.2, 0.8), ground, Math.max(w, h) * 0.6, p.glow, 0.45)
  stars(c, 60, ground * 0.4)
  streakClouds(c, rng.int(5, 10), ground * 0.15, ground * 0.6, p.cloud, [0.2, 0.5])
  const lit = ['#ffd479', '#ffe9a8', '#fff3d6', '#ffc46b', '#cfe8ff']
  const reflections: string[] = []
  for (let layer = 0; layer < 2; layer++) {
    const col = layer === 0 ? mix(p.sky[1]!, '#1a1530', 0.45) : mix(p.sky[0]!, '#0a0a14', 0.6)
    const fill = c.lin(
      [
        [0, tint(col, 0.1)],
        [1, shade(col, 0.15)],
      ],
      0,
      ground - h * 0.5,
      0,
      ground,
      true,
    )
    const windows: string[] = []
    let x = -rng.range(0, w * 0.05)
    let d = ''
    while (x < w) {
      const bw = m * rng.range(0.05, 0.12) * (layer === 0 ? 0.85 : 1.15)
      const bh = Math.min(ground * 0.85, h * rng.range(0.1, 0.32) * (layer === 0 ? 1.3 : 0.9) * (rng.chance(0.12) ? 1.5 : 1))
      const top = ground - bh
      d += `M${f(x)} ${f(ground)}V${f(top)}H${f(x + bw)}V${f(ground)}Z`
      if (rng.chance(0.3)) d += `M${f(x + bw * 0.45)} ${f(top)}v${f(-bh * 0.15)}h${f(bw * 0.06)}v${f(bh * 0.15)}Z`
      if (rng.chance(0.2)) d += `M${f(x + bw * 0.1)} ${f(top)}L${f(x + bw * 0.5)} ${f(top - bw * 0.35)}L${f(x + bw * 0.9)} ${f(top)}Z`
      // Windows: a grid per building, a share of them lit; the far layer dimmer.
      const cols = rng.int(3, 6)
      const ww = bw / (cols * 2 + 1)
      const wh = ww * rng.range(1, 1.6)
      const share = rng.range(0.25, 0.6)
      const tone = rng.pick(lit)
      for (let wy = top + wh; wy < ground - wh * 1.5; wy += wh * 2) {
        for (let k = 0; k < cols; k++) {
          if (!rng.chance(share)) continue
          const wx = x + ww * (1 + k * 2)
          const a = (layer === 0 ? 0.35 : 0.7) * rng.range(0.6, 1)
          const colr = rng.chance(0.8) ? tone : rng.pick(lit)
          windows.push(`<rect x="${f(wx)}" y="${f(wy)}" width="${f(ww)}" height="${f(wh)}" fill="${colr}" fill-opacity="${f(a)}"/>`)
          if (water && layer === 1 && rng.chance(0.5))
            reflections.push(
              `<rect x="${f(wx - ww * 0.3)}" y="${f(2 * ground - wy + rng.range(-1, 1) * wh)}" width="${f(ww * rng.range(1.2, 2.5))}" height="${f(wh * 0.35)}" fill="${colr}" fill-opacity="${f(a * 0.45)}"/>`,
            )
        }
      }
      x += bw + rng.range(-0.15, 0.25) * bw
    }
    c.path(d, fill)
    c.add(windows.join(''))
    if (water)
      reflections.unshift(
        `<path d="${d}" fill="${shade(col, 0.25)}" fill-opacity="${layer === 0 ? 0.5 : 0.75}" transform="translate(0 ${f(2 * ground)}) scale(1 -1)"/>`,
      )
  }
  if (water) {
    c.rect(
      0,
      ground,
      w,
      h - ground,
      c.lin(
        [
          [0, mix(p.sky[2]!, p.sky[0]!, 0.55)],
          [1, shade(p.sky[0]!, 0.55)],
        ],
        0,
        0,
        0,
        1,
      ),
    )
    c.add(reflections.join(''))
    c.rect(
      0,
      ground,
      w,
      h - ground,
      c.lin(
        [
          [0, p.sky[1]!, 0.15],
          [1, '#000000', 0.35],
        ],
        0,
        0,
        0,
        1,
      ),
    )
    let ripples = ''
    for (let i = 0; i < 140; i++) {
      const t = rng.next()
      ripples += `<rect x="${f(rng.range(0, w))}" y="${f(ground + t * (h - ground))}" width="${f(w * rng.range(0.02, 0.08) * (1 + t))}" height="${f(m * 0.002 * (1 + t * 2))}" fill-opacity="${f(rng.range(0.05, 0.18))}"/>`
    }
    c.add(`<g fill="${tint(p.sky[2]!, 0.3)}">${ripples}</g>`)
    c.rect(0, ground, w, m * 0.004, '#000000', op(0.35))
  } else {
    c.rect(
      0,
      ground,
      w,
      h - ground,
      c.lin(
        [
          [0, shade(p.sky[0]!, 0.55)],
          [1, shade(p.sky[0]!, 0.75)],
        ],
        0,
        0,
        0,
        1,
      ),
    )
    bokeh(c, 26, [0, ground, w, h], ['#ffd479', '#ff6b6b', '#ffffff', '#ffb36b'], [0.006, 0.016], [0.5, 0.9])
  }
  finish(c, { grade: p.glow, gradeAlpha: 0.05, vignette: 0.5 })
}

function snowman(c: Canvas) {
  const { w, h, rng, m } = c
  const dusk = rng.chance(0.35)
  const skyCols = dusk
    ? ['#2a3566', '#5d5a9a', '#c48bb0', '#f3c6c0']
    : rng.pick([
        ['#5c8fc9', '#8db6de', '#c9dcec', '#eef3f6'],
        ['#8aa3ba', '#aabbcc', '#d4dde5', '#eef1f3'],
      ])
  const ground = h * rng.range(0.6, 0.68)
  sky(
    c,
    skyCols.map((s) => vary(rng, s, 5)),
    ground,
  )
  const far = ridge(c, ground, h * 0.12, { segments: 6, rough: 0.5, smooth: true })
  c.path(far, mix('#ffffff', skyCols[1]!, 0.35))
  for (let i = 0; i < rng.int(10, 18); i++) {
    const x = rng.range(-0.05, 1.05) * w
    pine(c, x, ground + h * 0.02, m * rng.range(0.06, 0.14), mix('#2f5a48', skyCols[1]!, 0.45), '#f4f7fb')
  }
  const snowD = hill(c, ground + h * 0.05, h * 0.06)
  c.path(
    snowD,
    c.lin(
      [
        [0, '#ffffff'],
        [1, dusk ? '#b8b4d8' : '#cddceb'],
      ],
      0,
      ground,
      0,
      h,
      true,
    ),
  )
  if (dusk) {
    c.glow(w * 0.8, ground * 0.9, m * 0.6, '#ffd0a8', 0.35)
    for (let i = 0; i < 14; i++) c.circle(w * (0.05 + i * 0.07), ground - h * 0.01 + Math.sin(i) * h * 0.005, m * 0.006, '#ffd27a')
  }
  const sx = w * rng.range(0.35, 0.65)
  const sb = h * rng.range(0.86, 0.92)
  const s = Math.min(m * 0.16, h * 0.13)
  const snow = (x: number, y: number, r: number) =>
    c.circle(
      x,
      y,
      r,
      c.rad(
        [
          [0, '#ffffff'],
          [0.55, '#f4f7fb'],
          [1, dusk ? '#a9a6cc' : '#b9cde0'],
        ],
        x,
        y,
        r * 1.15,
        x - r * 0.35,
        y - r * 0.45,
      ),
    )
  c.ellipse(sx + s * 0.3, sb, s * 1.5, s * 0.25, dusk ? '#8d89b8' : '#a8bfd6', op(0.5))
  const r1 = s
  const r2 = s * 0.72
  const r3 = s * 0.5
  const y1 = sb - r1 * 0.9
  const y2 = y1 - r1 * 0.82 - r2 * 0.75
  const y3 = y2 - r2 * 0.8 - r3 * 0.75
  snow(sx, y1, r1)
  snow(sx, y2, r2)
  snow(sx, y3, r3)
  // Stick arms.
  const arm = '#5b3a24'
  c.path(
    `M${f(sx - r2 * 0.85)} ${f(y2 - r2 * 0.1)}L${f(sx - r2 * 2.1)} ${f(y2 - r2 * 0.9)}M${f(sx - r2 * 1.6)} ${f(y2 - r2 * 0.55)}L${f(sx - r2 * 1.8)} ${f(y2 - r2 * 1.1)}M${f(sx + r2 * 0.85)} ${f(y2 - r2 * 0.1)}L${f(sx + r2 * 2)} ${f(y2 + r2 * 0.2)}M${f(sx + r2 * 1.6)} ${f(y2 + r2 * 0.05)}L${f(sx + r2 * 1.9)} ${f(y2 - r2 * 0.3)}`,
    'none',
    ` stroke="${arm}" stroke-width="${f(s * 0.06)}" stroke-linecap="round"`,
  )
  // Scarf.
  const scarf = vary(rng, rng.pick(['#d62828', '#2a9d8f', '#f77f00', '#7b2cbf', '#1d4ed8']), 6)
  c.path(
    `M${f(sx - r3 * 1.05)} ${f(y3 + r3 * 0.6)}Q${f(sx)} ${f(y3 + r3 * 1.05)} ${f(sx + r3 * 1.05)} ${f(y3 + r3 * 0.6)}L${f(sx + r3 * 1.05)} ${f(y3 + r3 * 0.95)}Q${f(sx)} ${f(y3 + r3 * 1.35)} ${f(sx - r3 * 1.05)} ${f(y3 + r3 * 0.95)}Z`,
    scarf,
  )
  c.path(
    `M${f(sx + r3 * 0.4)} ${f(y3 + r3 * 0.9)}l${f(r3 * 0.25)} ${f(r3 * 1.3)}l${f(r3 * 0.4)} ${f(-r3 * 0.1)}l${f(-r3 * 0.2)} ${f(-r3 * 1.2)}Z`,
    shade(scarf, 0.15),
  )
  // Hat or earmuffs.
  if (rng.chance(0.6)) {
    c.rect(sx - r3 * 0.95, y3 - r3 * 0.8, r3 * 1.9, r3 * 0.16, '#1c1c22')
    c.rect(sx - r3 * 0.6, y3 - r3 * 1.75, r3 * 1.2, r3 * 1.0, '#1c1c22')
    c.rect(sx - r3 * 0.6, y3 - r3 * 0.98, r3 * 1.2, r3 * 0.18, scarf)
  } else {
    c.path(`M${f(sx - r3 * 0.95)} ${f(y3 - r3 * 0.35)}Q${f(sx)} ${f(y3 - r3 * 2.1)} ${f(sx + r3 * 0.95)} ${f(y3 - r3 * 0.35)}Z`, scarf)
    c.circle(sx, y3 - r3 * 1.25, r3 * 0.22, '#ffffff')
  }
  c.circle(sx - r3 * 0.32, y3 - r3 * 0.15, r3 * 0.09, '#1c1c22')
  c.circle(sx + r3 * 0.32, y3 - r3 * 0.15, r3 * 0.09, '#1c1c22')
  c.path(`M${f(sx)} ${f(y3 - r3 * 0.02)}L${f(sx + r3 * 0.75)} ${f(y3 + r3 * 0.12)}L${f(sx)} ${f(y3 + r3 * 0.16)}Z`, '#f77f00')
  for (let i = 0; i < 5; i++) {
    const a = Math.PI * (0.25 + (i / 4) * 0.5)
    c.circle(sx + Math.cos(a) * r3 * 0.55, y3 + Math.sin(a) * r3 * 0.5, r3 * 0.05, '#1c1c22')
  }
  for (let i = 0; i < 3; i++) c.circle(sx, y2 - r2 * 0.4 + i * r2 * 0.4, r2 * 0.07, '#1c1c22')
  snowfall(c, rng.int(120, 260))
  finish(c, { grade: dusk ? '#c08aff' : '#8ab8ff', gradeAlpha: 0.05, vignette: 0.45 })
}

function pumpkin(c: Canvas, x: number, y: number, r: number, col: string) {
  c.ellipse(x + r * 0.1, y + r * 0.62, r * 1.3, r * 0.22, '#000000', op(0.25))
  const lobes = [-0.55, 0.55, -0.25, 0.25, 0]
  for (const l of lobes) {
    const lx = x + l * r
    const lr = r * (0.62 - Math.abs(l) * 0.2)
    c.ellipse(
      lx,
      y,
      lr,
      r * 0.72,
      c.rad(
        [
          [0, tint(col, 0.25)],
          [0.7, col],
          [1, shade(col, 0.35)],
        ],
        lx,
        y,
        r * 0.8,
        lx - lr * 0.3,
        y - r * 0.35,
      ),
    )
  }
  c.path(
    `M${f(x - r * 0.06)} ${f(y - r * 0.6)}Q${f(x - r * 0.05)} ${f(y - r * 0.9)} ${f(x + r * 0.12)} ${f(y - r * 0.98)}L${f(x + r * 0.14)} ${f(y - r * 0.86)}Q${f(x + r * 0.06)} ${f(y - r * 0.8)} ${f(x + r * 0.08)} ${f(y - r * 0.6)}Z`,
    '#5a6b2a',
  )
}

function pumpkinPatch(c: Canvas) {
  const { w, h, rng, m } = c
  const skyCols = rng.pick([
    ['#6a8fc2', '#a9bfd8', '#f2d2a9', '#f7c58a'],
    ['#3f4a7a', '#a0668f', '#f29e6d', '#ffd08a'],
    ['#89a8c8', '#c2d3e0', '#ece0c8', '#f3e2bd'],
  ])
  const horizon = h * rng.range(0.42, 0.52)
  sky(
    c,
    skyCols.map((s) => vary(rng, s, 5)),
    horizon,
  )
  c.glow(w * rng.range(0.1, 0.9), horizon * 0.95, m * 0.7, '#ffd59a', 0.5)
  for (let i = 0; i < rng.int(2, 4); i++) softCloud(c, rng.range(0, w), horizon * rng.range(0.2, 0.6), m * rng.range(0.1, 0.2), '#fff3e0', 0.6)
  const treeLine = ridge(c, horizon + h * 0.02, h * 0.07, { segments: 7, rough: 0.65, smooth: true })
  c.path(treeLine, mix('#8a5a2b', skyCols[2]!, 0.35))
  const trees2 = ridge(c, horizon + h * 0.04, h * 0.04, { segments: 7, rough: 0.7, smooth: true })
  c.path(trees2, mix('#b5651d', skyCols[3]!, 0.25))
  const field = horizon + h * 0.03
  c.rect(
    0,
    field,
    w,
    h - field,
    c.lin(
      [
        [0, '#9a8a4a'],
        [0.4, '#6b6a2e'],
        [1, '#3a3318'],
      ],
      0,
      0,
      0,
      1,
    ),
  )
  if (rng.chance(0.6)) {
    // Hay bales in the distance.
    for (let i = 0; i < rng.int(1, 3); i++) {
      const hx = rng.range(0.1, 0.9) * w
      const hy = field + h * rng.range(0.03, 0.07)
      const hr = m * rng.range(0.03, 0.045)
      c.ellipse(hx + hr * 0.3, hy + hr * 0.05, hr * 2, hr * 0.25, '#3a3318', op(0.35))
      c.rect(
        hx - hr * 1.4,
        hy - hr * 1.6,
        hr * 2.6,
        hr * 1.6,
        c.lin([
          [0, '#f5dc95'],
          [1, '#b8913e'],
        ]),
        ` rx="${f(hr * 0.35)}"`,
      )
      c.ellipse(
        hx + hr * 1.15,
        hy - hr * 0.8,
        hr * 0.45,
        hr * 0.8,
        c.radBox([
          [0, '#c9a24f'],
          [0.5, '#e8c878'],
          [1, '#a07a30'],
        ]),
      )
    }
  }
  for (let i = 0; i < 40; i++) {
    const y = field + rng.next() ** 0.8 * (h - field)
    const x = rng.range(0, w)
    const s = m * 0.03 * (1 + ((y - field) / (h - field)) * 3)
    c.path(`M${f(x)} ${f(y)}q${f(s)} ${f(-s * 0.6)} ${f(s * 2)} 0t${f(s * 2)} 0`, 'none', ` stroke="#4f5a22" stroke-width="${f(s * 0.12)}"`)
    c.ellipse(x + s, y - s * 0.2, s * 0.6, s * 0.35, '#5e7a2a', op(0.8))
  }
  const pumpkins: [number, number, number][] = []
  for (let i = 0; i < rng.int(14, 22); i++) {
    const t = rng.next() ** 0.9
    const y = field + h * 0.04 + t * (h - field - h * 0.04)
    pumpkins.push([rng.range(-0.03, 1.03) * w, y, m * (0.025 + 0.12 * t ** 1.5)])
  }
  pumpkins.sort((a, b) => a[1] - b[1])
  const oranges = ['#f77f00', '#fb8500', '#e85d04', '#f48c06', '#f2e8cf', '#e36414']
  for (const [x, y, r] of pumpkins) pumpkin(c, x, y, r, vary(rng, rng.pick(oranges), 4))
  finish(c, { grade: '#ff9a3c', gradeAlpha: 0.07, vignette: 0.5 })
}

const DOG_PATH =
  'M12 100C4 99 2 94 8 92C13 91 18 93 24 92C20 84 20 72 28 63C34 55 42 46 48 40C52 34 54 28 56 22C56 16 58 10 60 6L62 0L67 7C72 7 76 10 80 13L88 16C91 18 90 21 86 23L77 24C73 26 70 30 69 34C70 44 70 56 70 70L71 94C72 97 76 97 78 100L60 100L60 82C56 87 52 93 50 96C52 98 54 99 54 100Z'

function dogOnHill(c: Canvas) {
  const { w, h, rng, m } = c
  const p = rng.pick(DUSK_SKIES)
  sky(
    c,
    p.sky.map((s) => vary(rng, s, 6)),
    h * 0.8,
  )
  const sunX = w * rng.range(0.25, 0.75)
  const sunY = h * rng.range(0.45, 0.62)
  c.glow(sunX, sunY, Math.max(w, h) * 0.8, p.glow, 0.6)
  const sunR = m * rng.range(0.06, 0.1)
  c.circle(sunX, sunY, sunR, p.sun, op(0.95))
  c.glow(sunX, sunY, sunR * 3, '#ffffff', 0.45)
  streakClouds(c, rng.int(6, 14), h * 0.08, h * 0.55, p.cloud, [0.3, 0.7])
  const far = hill(c, h * 0.72, h * 0.08)
  c.path(far, mix(shade(p.sea, 0.3), p.sky[2]!, 0.5))
  const crestX = w * rng.range(0.3, 0.7)
  const crestY = h * rng.range(0.66, 0.74)
  const hillD = `M${f(-w * 0.05)} ${f(crestY + h * 0.22)}C${f(crestX - w * 0.3)} ${f(crestY + h * 0.02)} ${f(crestX - w * 0.15)} ${f(crestY)} ${f(crestX)} ${f(crestY)}C${f(crestX + w * 0.2)} ${f(crestY)} ${f(crestX + w * 0.35)} ${f(crestY + h * 0.05)} ${f(w * 1.05)} ${f(crestY + h * 0.15)}L${f(w * 1.05)} ${f(h)}L${f(-w * 0.05)} ${f(h)}Z`
  const dark = shade(p.sea, 0.7)
  c.path(hillD, dark)
  // Grass tufts along the crest.
  let grass = ''
  for (let i = 0; i < 140; i++) {
    const x = rng.range(-0.05, 1.05) * w
    const dx = (x - crestX) / w
    const y = crestY + (dx < 0 ? dx * dx * h * 1.5 : dx * dx * h * 0.7) + h * 0.005
    const gh = m * rng.range(0.01, 0.03)
    grass += `M${f(x - gh * 0.08)} ${f(y + gh * 0.3)}L${f(x + rng.range(-0.3, 0.3) * gh)} ${f(y - gh)}L${f(x + gh * 0.08)} ${f(y + gh * 0.3)}Z`
  }
  c.path(grass, dark)
  const dogH = m * rng.range(0.12, 0.17)
  const dir = rng.chance(0.5) ? 1 : -1
  const dx = crestX + rng.range(-0.06, 0.06) * w
  c.add(
    `<path d="${DOG_PATH}" fill="${dark}" transform="translate(${f(dx - (dir * dogH) / 2)} ${f(crestY - dogH + dogH * 0.02)}) scale(${f((dir * dogH) / 100)} ${f(dogH / 100)})"/>`,
  )
  if (rng.chance(0.5)) {
    // A child sitting beside the dog.
    const kx = dx - dir * dogH * 0.9
    const ky = crestY + h * 0.003
    const k = dogH * 0.95
    c.path(
      `M${f(kx - k * 0.28)} ${f(ky)}Q${f(kx - k * 0.3)} ${f(ky - k * 0.6)} ${f(kx)} ${f(ky - k * 0.68)}Q${f(kx + k * 0.3)} ${f(ky - k * 0.6)} ${f(kx + k * 0.32)} ${f(ky)}Z`,
      dark,
    )
    c.circle(kx, ky - k * 0.85, k * 0.17, dark)
  }
  birds(c, rng.int(2, 5), sunX + rng.range(-0.3, 0.3) * w, h * rng.range(0.2, 0.35), m * 0.1, shade(p.sea, 0.5))
  finish(c, { grade: p.glow, gradeAlpha: 0.07, vignette: 0.5 })
}

function kites(c: Canvas) {
  const { w, h, rng, m } = c
  const skyCols = rng.pick(DAY_SKIES)
  sky(
    c,
    skyCols.map((s) => vary(rng, s, 6)),
    h * 0.75,
  )
  for (let i = 0; i < rng.int(3, 6); i++) cloud(c, rng.range(0, w), h * rng.range(0.1, 0.55), m * rng.range(0.05, 0.12), '#ffffff', '#d5e3f0')
  const grass = vary(rng, '#7cc15a', 8)
  const hillD = hill(c, h * 0.82, h * 0.12)
  c.path(hill(c, h * 0.74, h * 0.08), mix(grass, skyCols[2]!, 0.45))
  c.path(
    hillD,
    c.lin(
      [
        [0, tint(grass, 0.15)],
        [1, shade(grass, 0.3)],
      ],
      0,
      h * 0.7,
      0,
      h,
      true,
    ),
  )
  const anchorX = w * rng.range(0.3, 0.7)
  const anchorY = hillY(c, hillD, anchorX) + h * 0.04
  const palettes: [string, string][] = [
    ['#e63946', '#f1faee'],
    ['#ffb703', '#fb8500'],
    ['#3a86ff', '#ffbe0b'],
    ['#8338ec', '#ff006e'],
    ['#06d6a0', '#ffd166'],
    ['#ef476f', '#118ab2'],
  ]
  const n = rng.int(2, 4)
  for (let i = 0; i < n; i++) {
    const kx = w * ((i + 0.5) / n + rng.range(-0.1, 0.1))
    const ky = h * rng.range(0.12, 0.4)
    const s = m * rng.range(0.06, 0.1)
    const [a, b] = rng.pick(palettes)
    const tilt = rng.range(-25, 25)
    c.path(
      `M${f(kx)} ${f(ky + s * 1.4)}Q${f((kx + anchorX) / 2 + rng.range(-0.1, 0.1) * w)} ${f((ky + anchorY) / 2 + h * 0.1)} ${f(anchorX)} ${f(anchorY)}`,
      'none',
      ` stroke="#ffffff" stroke-opacity="0.8" stroke-width="${f(m * 0.0018)}"`,
    )
    // Tail with bows.
    let tail = `M${f(kx)} ${f(ky + s * 1.4)}`
    const bows: Pt[] = []
    for (let k = 1; k <= 6; k++) {
      const tx = kx + Math.sin(k * 1.1 + i) * s * 0.4 - k * s * 0.15
      const ty = ky + s * 1.4 + k * s * 0.45
      tail += `L${f(tx)} ${f(ty)}`
      bows.push([tx, ty])
    }
    c.path(tail, 'none', ` stroke="${a}" stroke-width="${f(m * 0.002)}"`)
    for (const [bx, by] of bows)
      c.path(
        poly([
          [bx - s * 0.12, by - s * 0.07],
          [bx + s * 0.12, by + s * 0.07],
          [bx + s * 0.12, by - s * 0.07],
          [bx - s * 0.12, by + s * 0.07],
        ]),
        b,
      )
    c.add(`<g transform="rotate(${f(tilt)} ${f(kx)} ${f(ky)})">`)
    const top: Pt = [kx, ky - s]
    const right: Pt = [kx + s * 0.75, ky - s * 0.2]
    const bottom: Pt = [kx, ky + s * 1.4]
    const left: Pt = [kx - s * 0.75, ky - s * 0.2]
    const mid: Pt = [kx, ky - s * 0.2]
    c.path(poly([top, right, mid]), a)
    c.path(poly([right, bottom, mid]), shade(b, 0.1))
    c.path(poly([bottom, left, mid]), a)
    c.path(poly([left, top, mid]), b)
    c.path(
      `M${f(top[0])} ${f(top[1])}L${f(bottom[0])} ${f(bottom[1])}M${f(left[0])} ${f(left[1])}L${f(right[0])} ${f(right[1])}`,
      'none',
      ` stroke="#5b4636" stroke-opacity="0.6" stroke-width="${f(m * 0.003)}"`,
    )
    c.add('</g>')
  }
  // Little kite flyers.
  const col = shade(grass, 0.55)
  for (let i = 0; i < rng.int(1, 2); i++) {
    const px = anchorX + i * m * 0.06
    const py = anchorY + i * m * 0.005
    const k = m * (0.08 - i * 0.015)
    c.path(
      `M${f(px - k * 0.15)} ${f(py)}L${f(px - k * 0.12)} ${f(py - k * 0.55)}Q${f(px)} ${f(py - k * 0.75)} ${f(px + k * 0.12)} ${f(py - k * 0.55)}L${f(px + k * 0.15)} ${f(py)}Z`,
      col,
    )
    c.circle(px, py - k * 0.82, k * 0.13, col)
  }
  for (let i = 0; i < 60; i++) {
    const x = rng.range(0, w)
    const y = hillY(c, hillD, x) + rng.range(0.02, 0.2) * h
    const fc = rng.pick(['#ffffff', '#ffe066', '#ffffff'])
    c.circle(x, y, m * rng.range(0.003, 0.006), fc, op(0.9))
  }
  finish(c, { grade: '#ffe6a0', gradeAlpha: 0.05, vignette: 0.35 })
}

function campfire(c: Canvas) {
  const { w, h, rng, m } = c
  sky(
    c,
    ['#02030a', '#0a1024', '#1a1f3a'].map((s) => vary(rng, s, 5, 0.04, 0.02)),
    h * 0.7,
  )
  stars(c, 220, h * 0.55)
  const fx = w * rng.range(0.4, 0.6)
  const fy = h * rng.range(0.74, 0.8)
  const fire = m * rng.range(0.16, 0.22)
  const treeLine = ridge(c, h * 0.62, h * 0.06, { segments: 6, rough: 0.5, smooth: true })
  c.path(treeLine, '#05080f')
  for (let i = 0; i < rng.int(8, 14); i++) {
    const x = rng.range(-0.05, 1.05) * w
    if (Math.abs(x - fx) < fire * 1.5) continue
    pine(c, x, h * 0.68, m * rng.range(0.25, 0.5), '#04060b')
  }
  c.rect(
    0,
    h * 0.66,
    w,
    h * 0.34,
    c.lin(
      [
        [0, '#0b0a0c'],
        [1, '#1b120c'],
      ],
      0,
      0,
      0,
      1,
    ),
  )
  c.glow(fx, fy - fire * 0.3, Math.max(w, h) * 0.45, '#ff8a2a', 0.45)
  c.ellipse(
    fx,
    fy + fire * 0.05,
    fire * 3.2,
    fire * 0.7,
    c.radBox([
      [0, '#ffb060', 0.55],
      [1, '#ff7020', 0],
    ]),
  )
  // Stones and logs.
  for (let i = 0; i < 11; i++) {
    const a = (i / 11) * Math.PI * 2
    const sx = fx + Math.cos(a) * fire * 0.95
    const sy = fy + Math.sin(a) * fire * 0.22
    if (Math.sin(a) < -0.3) continue
    const sr = fire * rng.range(0.14, 0.2)
    c.ellipse(
      sx,
      sy,
      sr,
      sr * 0.7,
      c.rad(
        [
          [0, '#c08060'],
          [1, '#3a2a24'],
        ],
        sx,
        sy - sr * 0.5,
        sr * 1.3,
      ),
    )
  }
  for (const ang of [-18, 18, -5]) {
    const lw = fire * 1.5
    const lh = fire * 0.16
    c.rect(
      fx - lw / 2,
      fy - lh,
      lw,
      lh,
      c.lin([
        [0, '#c77a3a'],
        [1, '#3b2314'],
      ]),
      `${rot(ang, fx, fy)} rx="${f(lh / 2)}"`,
    )
  }
  // Flames: layered tongues from red to white.
  const layers: [string, number][] = [
    ['#ff4e1a', 1],
    ['#ff8c1a', 0.78],
    ['#ffc93c', 0.55],
    ['#fff3c4', 0.3],
  ]
  for (const [col, s] of layers) {
    const tongues = 5
    let d = ''
    for (let k = 0; k < tongues; k++) {
      const u = (k / (tongues - 1)) * 2 - 1
      const bx = fx + u * fire * 0.5 * s
      const th = fire * s * (1.3 - Math.abs(u) * 0.5) * rng.range(0.8, 1.2)
      const bw = fire * 0.32 * s
      const lean = rng.range(-0.25, 0.25) * th
      d += `M${f(bx - bw)} ${f(fy - fire * 0.05)}C${f(bx - bw)} ${f(fy - th * 0.5)} ${f(bx + lean - bw * 0.2)} ${f(fy - th * 0.7)} ${f(bx + lean)} ${f(fy - th)}C${f(bx + lean + bw * 0.2)} ${f(fy - th * 0.6)} ${f(bx + bw)} ${f(fy - th * 0.45)} ${f(bx + bw)} ${f(fy - fire * 0.05)}Z`
    }
    c.path(d, col, op(0.92))
  }
  c.glow(fx, fy - fire * 0.3, fire * 1.4, '#ffe0a0', 0.45)
  for (let i = 0; i < 60; i++) {
    const sx = fx + rng.range(-1, 1) * fire * (0.4 + rng.next())
    const sy = fy - fire - rng.next() ** 1.5 * h * 0.45
    c.circle(sx, sy, m * rng.range(0.002, 0.004), rng.pick(['#ffd27a', '#ff9a3a', '#fff0c0']), op(rng.range(0.5, 1)))
  }
  if (rng.chance(0.55)) {
    const side = rng.chance(0.5) ? -1 : 1
    tent(c, fx + side * w * rng.range(0.28, 0.36), fy - fire * 0.35, fire * rng.range(1.2, 1.5), '#0c0908', false, side < 0 ? 'right' : 'left')
  }
  if (rng.chance(0.6)) {
    // Silhouettes of a family around the fire.
    for (const side of [-1, 1]) {
      if (rng.chance(0.25)) continue
      const px = fx + side * Math.min(fire * rng.range(2, 2.8), w * 0.34)
      const py = fy + fire * 0.2
      const k = fire * rng.range(1.1, 1.5)
      c.path(
        `M${f(px - k * 0.32)} ${f(py)}Q${f(px - k * 0.34)} ${f(py - k * 0.55)} ${f(px)} ${f(py - k * 0.62)}Q${f(px + k * 0.34)} ${f(py - k * 0.55)} ${f(px + k * 0.34)} ${f(py)}Z`,
        '#0a0605',
      )
      c.circle(px + side * -k * 0.04, py - k * 0.8, k * 0.16, '#0a0605')
      c.path(
        `M${f(px - side * k * 0.3)} ${f(py - k * 0.55)}Q${f(px - side * k * 0.34)} ${f(py - k * 0.2)} ${f(px - side * k * 0.33)} ${f(py)}`,
        'none',
        ` stroke="#ff9a4a" stroke-opacity="0.45" stroke-width="${f(k * 0.03)}"`,
      )
    }
  }
  finish(c, { vignette: 0.65 })
}

function rainyWindow(c: Canvas) {
  const { w, h, rng, m } = c
  const wall = vary(rng, rng.pick(['#c9a27e', '#a3876a', '#d7b99a', '#8c6f5a', '#b49b86']), 6)
  c.rect(
    0,
    0,
    w,
    h,
    c.lin(
      [
        [0, shade(wall, 0.35)],
        [1, shade(wall, 0.1)],
      ],
      0,
      0,
      1,
      1,
    ),
  )
  const lampX = rng.chance(0.5) ? w * 0.05 : w * 0.95
  c.glow(lampX, h * 0.4, m * 0.9, '#ffb55a', 0.45)
  const wx = w * rng.range(0.1, 0.2)
  const wy = h * rng.range(0.06, 0.1)
  const ww = w - 2 * wx
  const wh = h * rng.range(0.56, 0.66)
  const day = rng.chance(0.3)
  const outside = day
    ? rng.pick([
        ['#5d6d78', '#7d8f94', '#a9b8b4'],
        ['#6b7480', '#8e98a2', '#b9c0c4'],
      ])
    : rng.pick([
        ['#1c2a44', '#3b5475', '#6a86a6'],
        ['#22303e', '#465a6a', '#8397a6'],
        ['#2b2540', '#4f4a70', '#8a7fa8'],
      ])
  c.add(`<g clip-path="${c.clip(`<rect x="${f(wx)}" y="${f(wy)}" width="${f(ww)}" height="${f(wh)}"/>`)}">`)
  c.rect(
    wx,
    wy,
    ww,
    wh,
    c.lin([
      [0, outside[0]!],
      [0.6, outside[1]!],
      [1, outside[2]!],
    ]),
  )
  // Out-of-focus town lights and soft silhouettes.
  if (day) {
    c.path(ridge(c, wy + wh * 0.8, wh * 0.3, { segments: 5, rough: 0.6, smooth: true, bottom: wy + wh }), mix('#4f6b4a', outside[1]!, 0.45))
    bokeh(c, 24, [wx, wy + wh * 0.45, wx + ww, wy + wh], ['#6f8f5f', '#8aa870', '#c9d6c0', '#e8c0c8'], [0.02, 0.06], [0.2, 0.4])
  } else {
    c.path(ridge(c, wy + wh * 0.75, wh * 0.35, { segments: 5, rough: 0.4, smooth: false, bottom: wy + wh }), shade(outside[0]!, 0.3))
    bokeh(c, 38, [wx, wy + wh * 0.35, wx + ww, wy + wh], ['#ffcf7a', '#ff9a5a', '#fff2c0', '#9fd3ff', '#ff7a7a'], [0.012, 0.045], [0.25, 0.55])
  }
  // Rain on the glass.
  for (let i = 0; i < 110; i++) {
    const x = wx + rng.range(0, ww)
    const y = wy + rng.range(0, wh)
    const r = m * rng.range(0.002, 0.007)
    c.ellipse(
      x,
      y,
      r,
      r * 1.15,
      c.rad(
        [
          [0, '#ffffff', 0.05],
          [0.7, '#dfefff', 0.25],
          [1, '#ffffff', 0.7],
        ],
        x,
        y + r * 0.3,
        r * 1.2,
      ),
    )
  }
  let streaks = ''
  for (let i = 0; i < 40; i++) {
    const x = wx + rng.range(0, ww)
    const y = wy + rng.range(0, wh * 0.7)
    const len = wh * rng.range(0.05, 0.25)
    streaks += `M${f(x)} ${f(y)}q${f(rng.range(-1, 1) * m * 0.01)} ${f(len / 2)} ${f(rng.range(-1, 1) * m * 0.005)} ${f(len)}`
  }
  c.path(streaks, 'none', ` stroke="#e6f2ff" stroke-opacity="0.3" stroke-width="${f(m * 0.002)}"`)
  c.add('</g>')
  for (let i = 0; i < 400; i++) {
    const x = wx + rng.range(0, ww)
    const y = wy + rng.range(0, wh)
    c.circle(x, y, m * rng.range(0.0007, 0.0018), '#eaf4ff', op(rng.range(0.2, 0.5)))
  }
  // Frame.
  const frame = rng.pick(['#f3efe6', '#e8e2d4', '#5c3d2e', '#2f3e46'])
  const fw = m * 0.03
  const frameFill = c.lin(
    [
      [0, tint(frame, 0.1)],
      [1, shade(frame, 0.2)],
    ],
    0,
    0,
    1,
    1,
  )
  c.path(
    `M${f(wx - fw)} ${f(wy - fw)}h${f(ww + fw * 2)}v${f(wh + fw * 2)}h${f(-ww - fw * 2)}Z M${f(wx)} ${f(wy)}v${f(wh)}h${f(ww)}v${f(-wh)}Z`,
    frameFill,
    ' fill-rule="evenodd"',
  )
  const panes = rng.pick([2, 2, 3])
  for (let k = 1; k < panes; k++) c.rect(wx + (ww * k) / panes - fw * 0.4, wy, fw * 0.8, wh, frameFill)
  if (rng.chance(0.7)) c.rect(wx, wy + wh * 0.45 - fw * 0.4, ww, fw * 0.8, frameFill)
  if (rng.chance(0.45)) {
    // Fairy lights draped along the top of the window.
    const loops = panes
    for (let k = 0; k < loops; k++) {
      const x0 = wx + (ww * k) / loops
      const span = ww / loops
      c.path(
        `M${f(x0)} ${f(wy + fw * 0.3)}Q${f(x0 + span / 2)} ${f(wy + wh * 0.16)} ${f(x0 + span)} ${f(wy + fw * 0.3)}`,
        'none',
        ` stroke="#2a2a2a" stroke-opacity="0.5" stroke-width="${f(m * 0.002)}"`,
      )
      for (let j = 1; j < 8; j++) {
        const u = j / 8
        const x = x0 + span * u
        const y = wy + fw * 0.3 + (wh * 0.16 - fw * 0.3) * 2 * u * (1 - u) * 2 * 0.5 + m * 0.006
        c.glow(x, y, m * 0.028, '#ffcf70', 0.5)
        c.circle(x, y, m * 0.004, '#fff3cf')
      }
    }
  }
  // Sill and cosy things.
  const sillY = wy + wh + fw
  c.rect(
    wx - fw * 2.5,
    sillY,
    ww + fw * 5,
    h * 0.035,
    c.lin([
      [0, tint(frame, 0.2)],
      [1, shade(frame, 0.25)],
    ]),
  )
  c.rect(
    0,
    sillY + h * 0.035,
    w,
    h - sillY,
    c.lin([
      [0, shade(wall, 0.25)],
      [1, shade(wall, 0.55)],
    ]),
  )
  const mugX = wx + ww * rng.range(0.55, 0.8)
  const mugW = m * 0.09
  const mugH = mugW * 1.05
  const mugCol = vary(rng, rng.pick(['#d62828', '#f4f1de', '#2a9d8f', '#e9c46a', '#457b9d']), 5)
  c.path(
    `M${f(mugX + mugW * 0.45)} ${f(sillY - mugH * 0.75)}a${f(mugW * 0.25)} ${f(mugH * 0.25)} 0 1 1 0 ${f(mugH * 0.45)}`,
    'none',
    ` stroke="${shade(mugCol, 0.1)}" stroke-width="${f(mugW * 0.1)}"`,
  )
  c.path(
    `M${f(mugX - mugW / 2)} ${f(sillY - mugH)}h${f(mugW)}v${f(mugH * 0.85)}q0 ${f(mugH * 0.15)} ${f(-mugW * 0.15)} ${f(mugH * 0.15)}h${f(-mugW * 0.7)}q${f(-mugW * 0.15)} 0 ${f(-mugW * 0.15)} ${f(-mugH * 0.15)}Z`,
    c.lin(
      [
        [0, tint(mugCol, 0.25)],
        [0.4, mugCol],
        [1, shade(mugCol, 0.4)],
      ],
      0,
      0,
      1,
      0,
    ),
  )
  c.ellipse(mugX, sillY - mugH, mugW / 2, mugW * 0.1, '#4a2c1a')
  let steam = ''
  for (let i = 0; i < 3; i++) {
    const sx = mugX + (i - 1) * mugW * 0.22
    steam += `M${f(sx)} ${f(sillY - mugH * 1.1)}c${f(-mugW * 0.2)} ${f(-mugH * 0.3)} ${f(mugW * 0.2)} ${f(-mugH * 0.5)} 0 ${f(-mugH * 0.8)}s${f(mugW * 0.15)} ${f(-mugH * 0.4)} 0 ${f(-mugH * 0.6)}`
  }
  c.path(steam, 'none', ` stroke="#ffffff" stroke-opacity="0.3" stroke-width="${f(mugW * 0.06)}" stroke-linecap="round"`)
  // Plant.
  const px = wx + ww * rng.range(0.12, 0.35)
  const pw = m * 0.11
  const potCol = rng.pick(['#c1683c', '#e9e2d0', '#3d5a80'])
  for (let i = 0; i < 9; i++) {
    const a = -Math.PI / 2 + rng.range(-1.1, 1.1)
    const len = pw * rng.range(0.8, 1.5)
    const lx = px + Math.cos(a) * len * 0.55
    const ly = sillY - pw * 0.9 + Math.sin(a) * len * 0.55
    c.ellipse(lx, ly, len * 0.5, len * 0.16, rng.pick(['#3a7d44', '#4f9a5a', '#2d6a4f']), rot((a * 180) / Math.PI, lx, ly))
  }
  c.path(
    `M${f(px - pw / 2)} ${f(sillY - pw * 0.9)}h${f(pw)}l${f(-pw * 0.12)} ${f(pw * 0.9)}h${f(-pw * 0.76)}Z`,
    c.lin(
      [
        [0, tint(potCol, 0.2)],
        [1, shade(potCol, 0.35)],
      ],
      0,
      0,
      1,
      0,
    ),
  )
  const extra = rng.next()
  if (extra < 0.3) {
    // The cat, watching the rain.
    const kx = wx + ww * rng.range(0.38, 0.5)
    const k = m * 0.13
    const cat = '#1d1a1c'
    c.ellipse(kx, sillY - k * 0.42, k * 0.36, k * 0.45, cat)
    c.circle(kx, sillY - k * 0.95, k * 0.2, cat)
    c.path(
      `M${f(kx - k * 0.19)} ${f(sillY - k * 1.0)}L${f(kx - k * 0.15)} ${f(sillY - k * 1.25)}L${f(kx - k * 0.03)} ${f(sillY - k * 1.12)}Z M${f(kx + k * 0.19)} ${f(sillY - k * 1.0)}L${f(kx + k * 0.15)} ${f(sillY - k * 1.25)}L${f(kx + k * 0.03)} ${f(sillY - k * 1.12)}Z`,
      cat,
    )
    c.path(
      `M${f(kx + k * 0.25)} ${f(sillY - k * 0.05)}Q${f(kx + k * 0.75)} ${f(sillY)} ${f(kx + k * 0.6)} ${f(sillY - k * 0.35)}`,
      'none',
      ` stroke="${cat}" stroke-width="${f(k * 0.09)}" stroke-linecap="round"`,
    )
  } else if (extra < 0.55) {
    // A stack of books.
    const bx = wx + ww * rng.range(0.38, 0.48)
    let y = sillY
    for (let i = 0; i < rng.int(3, 5); i++) {
      const bw = m * rng.range(0.12, 0.16)
      const bh = m * rng.range(0.018, 0.03)
      const col = rng.pick(['#8c2f39', '#2f4858', '#c9a66b', '#5a3e6b', '#3d6b4f', '#d9c8a9'])
      const off = rng.range(-0.1, 0.1) * bw
      c.rect(
        bx - bw / 2 + off,
        y - bh,
        bw,
        bh,
        c.lin([
          [0, tint(col, 0.15)],
          [1, shade(col, 0.2)],
        ]),
      )
      c.rect(bx - bw / 2 + off + bw * 0.04, y - bh * 0.7, bw * 0.92, bh * 0.15, '#f4ecd8', op(0.6))
      y -= bh
    }
  } else if (extra < 0.85) {
    const cx = wx + ww * rng.range(0.4, 0.5)
    const ch = m * 0.08
    c.glow(cx, sillY - ch * 1.3, m * 0.2, '#ffb347', 0.45)
    c.rect(
      cx - ch * 0.18,
      sillY - ch,
      ch * 0.36,
      ch,
      c.lin(
        [
          [0, '#fff8ea'],
          [1, '#d9cbb0'],
        ],
        0,
        0,
        1,
        0,
      ),
    )
    c.path(
      `M${f(cx)} ${f(sillY - ch * 1.05)}q${f(-ch * 0.09)} ${f(-ch * 0.15)} 0 ${f(-ch * 0.35)}q${f(ch * 0.09)} ${f(ch * 0.2)} 0 ${f(ch * 0.35)}Z`,
      '#ffd27a',
    )
  }
  finish(c, { grade: '#ff9a4a', gradeAlpha: 0.06, vignette: 0.6 })
}

function lighthouse(c: Canvas) {
  const { w, h, rng, m } = c
  const night = rng.chance(0.4)
  const p = rng.pick(DUSK_SKIES)
  const skyCols = night ? ['#0b1230', '#1f2b5a', '#48558a', '#7a7fb0'] : p.sky
  const horizon = h * rng.range(0.58, 0.66)
  sky(
    c,
    skyCols.map((s) => vary(rng, s, 5)),
    horizon,
  )
  if (night) stars(c, 150, horizon * 0.8)
  else {
    c.glow(w * rng.range(0.1, 0.9), horizon, Math.max(w, h) * 0.6, p.glow, 0.5)
    streakClouds(c, rng.int(6, 12), horizon * 0.1, horizon * 0.8, p.cloud, [0.3, 0.6])
  }
  const sea = night ? '#101a38' : p.sea
  c.rect(
    0,
    horizon,
    w,
    h - horizon,
    c.lin(
      [
        [0, mix(skyCols[3]!, sea, 0.5)],
        [1, shade(sea, 0.4)],
      ],
      0,
      0,
      0,
      1,
    ),
  )
  for (let i = 0; i < 100; i++) {
    const t = rng.next() ** 1.3
    c.rect(
      rng.range(0, w),
      horizon + t * (h - horizon),
      w * rng.range(0.01, 0.05) * (1 + 3 * t),
      m * 0.002 * (1 + 2 * t),
      tint(skyCols[3]!, 0.3),
      op(rng.range(0.1, 0.3)),
    )
  }
  const left = rng.chance(0.5)
  const cliffX = left ? w * rng.range(0.25, 0.45) : w * rng.range(0.55, 0.75)
  const topY = horizon - h * rng.range(0.02, 0.08)
  const cliffCol = night ? '#1a2236' : shade(mix(p.sea, '#3a2a20', 0.5), 0.4)
  const cliff = left
    ? `M${f(-w * 0.05)} ${f(topY - h * 0.02)}L${f(cliffX * 0.7)} ${f(topY)}Q${f(cliffX * 0.95)} ${f(topY)} ${f(cliffX)} ${f(topY + h * 0.05)}L${f(cliffX + w * 0.04)} ${f(h * 0.8)}Q${f(cliffX + w * 0.08)} ${f(h)} ${f(cliffX + w * 0.1)} ${f(h)}L${f(-w * 0.05)} ${f(h)}Z`
    : `M${f(w * 1.05)} ${f(topY - h * 0.02)}L${f(cliffX + (w - cliffX) * 0.3)} ${f(topY)}Q${f(cliffX + (w - cliffX) * 0.05)} ${f(topY)} ${f(cliffX)} ${f(topY + h * 0.05)}L${f(cliffX - w * 0.04)} ${f(h * 0.8)}Q${f(cliffX - w * 0.08)} ${f(h)} ${f(cliffX - w * 0.1)} ${f(h)}L${f(w * 1.05)} ${f(h)}Z`
  c.path(
    cliff,
    c.lin(
      [
        [0, tint(cliffCol, 0.1)],
        [1, shade(cliffCol, 0.3)],
      ],
      0,
      0,
      0,
      1,
    ),
  )
  c.path(
    left
      ? `M${f(-w * 0.05)} ${f(topY - h * 0.02)}L${f(cliffX * 0.7)} ${f(topY)}Q${f(cliffX * 0.95)} ${f(topY)} ${f(cliffX)} ${f(topY + h * 0.05)}L${f(-w * 0.05)} ${f(topY + h * 0.05)}Z`
      : `M${f(w * 1.05)} ${f(topY - h * 0.02)}L${f(cliffX + (w - cliffX) * 0.3)} ${f(topY)}Q${f(cliffX + (w - cliffX) * 0.05)} ${f(topY)} ${f(cliffX)} ${f(topY + h * 0.05)}L${f(w * 1.05)} ${f(topY + h * 0.05)}Z`,
    night ? '#12201a' : '#4c6b3a',
    op(0.9),
  )
  const lx = left ? cliffX * 0.55 : cliffX + (w - cliffX) * 0.45
  const base = topY + h * 0.005
  const towerH = Math.min(h * 0.42, m * 0.55)
  const topW = towerH * 0.09
  const baseW = towerH * 0.15
  const bands = 6
  const stripe = rng.pick(['#c0392b', '#1f3a93', '#1e1e1e'])
  for (let i = 0; i < bands; i++) {
    const y0 = base - (towerH * i) / bands
    const y1 = base - (towerH * (i + 1)) / bands
    const w0 = baseW + (topW - baseW) * (i / bands)
    const w1 = baseW + (topW - baseW) * ((i + 1) / bands)
    c.path(
      poly([
        [lx - w0, y0],
        [lx + w0, y0],
        [lx + w1, y1],
        [lx - w1, y1],
      ]),
      i % 2 === 0 ? '#f4f1ea' : stripe,
    )
  }
  c.path(
    poly([
      [lx - baseW, base],
      [lx + baseW, base],
      [lx + topW, base - towerH],
      [lx - topW, base - towerH],
    ]),
    c.lin(
      [
        [0, '#ffffff', 0.2],
        [0.5, '#ffffff', 0],
        [1, '#000000', 0.45],
      ],
      0,
      0,
      1,
      0,
    ),
  )
  const lanternY = base - towerH
  c.rect(lx - topW * 1.4, lanternY - topW * 0.25, topW * 2.8, topW * 0.25, '#222222')
  c.rect(lx - topW * 0.85, lanternY - topW * 1.5, topW * 1.7, topW * 1.25, '#ffe9a8')
  c.path(
    poly([
      [lx - topW * 1.1, lanternY - topW * 1.5],
      [lx + topW * 1.1, lanternY - topW * 1.5],
      [lx, lanternY - topW * 2.4],
    ]),
    '#222222',
  )
  const ly = lanternY - topW * 0.9
  c.glow(lx, ly, m * 0.3, '#fff1b0', night ? 0.7 : 0.5)
  const beamDir = left ? 1 : -1
  const beamLen = w * 0.9
  c.path(
    poly([
      [lx, ly - topW * 0.3],
      [lx + beamDir * beamLen, ly - m * 0.12],
      [lx + beamDir * beamLen, ly + m * 0.08],
      [lx, ly + topW * 0.3],
    ]),
    c.lin(
      [
        [0, '#fff5c8', night ? 0.5 : 0.3],
        [1, '#fff5c8', 0],
      ],
      lx,
      0,
      lx + beamDir * beamLen,
      0,
      true,
    ),
  )
  c.rect(lx + baseW * 1.2 * (left ? 1 : -1) - (left ? 0 : baseW * 1.4), base - baseW * 0.9, baseW * 1.4, baseW * 0.9, '#f4f1ea')
  c.path(
    poly([
      [lx + (left ? baseW * 1.1 : -baseW * 2.7), base - baseW * 0.9],
      [lx + (left ? baseW * 2.7 : -baseW * 1.1), base - baseW * 0.9],
      [lx + (left ? baseW * 1.9 : -baseW * 1.9), base - baseW * 1.5],
    ]),
    stripe,
  )
  // Surf at the cliff foot.
  for (let i = 0; i < 30; i++) {
    const y = rng.range(horizon + h * 0.05, h)
    const x = cliffX + (left ? 1 : -1) * rng.range(0.03, 0.12) * w
    c.ellipse(x, y, m * rng.range(0.02, 0.06), m * 0.005, '#ffffff', op(rng.range(0.2, 0.5)))
  }
  if (!night) birds(c, rng.int(3, 6), w * 0.5, h * 0.25, m * 0.15, shade(sea, 0.4))
  finish(c, { grade: night ? '#6a8aff' : p.glow, gradeAlpha: 0.05, vignette: 0.5 })
}

function hotAirBalloons(c: Canvas) {
  const { w, h, rng, m } = c
  const skyCols = rng.pick([
    ['#7fb3e0', '#b3d4ee', '#f6dcc0', '#fbe6cc'],
    ['#5e8fd0', '#9cc1e8', '#dbe9f4', '#f2efe6'],
    ['#4a5c9a', '#a98bb8', '#f3b6a0', '#ffdcb0'],
  ])
  sky(
    c,
    skyCols.map((s) => vary(rng, s, 5)),
    h * 0.8,
  )
  c.glow(w * rng.range(0.1, 0.9), h * 0.7, m * 0.9, '#fff0d0', 0.5)
  const hue = rng.range(90, 150)
  for (let i = 0; i < 4; i++) {
    const t = i / 3
    const d = hill(c, h * (0.66 + 0.1 * t), h * (0.1 - 0.02 * t), h, 2 + i)
    const col = mix(hsl(hue + t * 10, 0.3 + 0.1 * t, 0.45 - 0.2 * t), skyCols[3]!, 0.65 * (1 - t))
    c.path(
      d,
      i === 3
        ? c.lin(
            [
              [0, tint(col, 0.12)],
              [1, shade(col, 0.25)],
            ],
            0,
            h * 0.7,
            0,
            h,
            true,
          )
        : col,
    )
    if (i >= 2) {
      // Hedgerows and copses dotted over the nearer hills.
      for (let k = 0; k < 14 + i * 6; k++) {
        const x = rng.range(0, w)
        const y = hillY(c, d, x) + rng.range(0.01, 0.2) * (h - hillY(c, d, x))
        const r = m * rng.range(0.007, 0.015) * (1 + (y / h - 0.6) * 3)
        c.ellipse(x, y, r * 1.2, r, shade(col, 0.32))
        c.ellipse(x - r * 0.15, y - r * 0.2, r * 0.85, r * 0.65, shade(col, 0.18))
      }
    }
    if (i < 3)
      c.rect(
        0,
        h * (0.6 + 0.1 * t),
        w,
        h * 0.12,
        c.lin([
          [0, skyCols[3]!, 0],
          [0.6, skyCols[3]!, 0.35],
          [1, skyCols[3]!, 0],
        ]),
      )
  }
  const palettes = [
    ['#e63946', '#ffd166', '#06d6a0', '#118ab2'],
    ['#ff006e', '#ffbe0b', '#fb5607'],
    ['#3a86ff', '#ffffff', '#ff595e'],
    ['#8338ec', '#ffbe0b', '#ff006e', '#3a86ff'],
    ['#f4a261', '#e76f51', '#2a9d8f', '#e9c46a'],
  ]
  const n = rng.int(3, 6)
  const list: { x: number; y: number; r: number }[] = []
  for (let i = 0; i < n; i++) list.push({ x: rng.range(0.1, 0.9) * w, y: h * rng.range(0.12, 0.6), r: m * rng.range(0.03, 0.12) })
  list.sort((a, b) => a.r - b.r)
  for (const { x, y, r } of list) {
    const cols = rng.pick(palettes)
    const haze = 1 - Math.min(1, r / (m * 0.1))
    const env = `M${f(x)} ${f(y - r)}C${f(x + r * 1.35)} ${f(y - r)} ${f(x + r * 1.2)} ${f(y + r * 0.6)} ${f(x + r * 0.32)} ${f(y + r * 1.25)}L${f(x - r * 0.32)} ${f(y + r * 1.25)}C${f(x - r * 1.2)} ${f(y + r * 0.6)} ${f(x - r * 1.35)} ${f(y - r)} ${f(x)} ${f(y - r)}Z`
    const clip = c.clip(`<path d="${env}"/>`)
    let gores = ''
    const k = 8
    for (let g = 0; g < k; g++) {
      const a0 = Math.PI - (g / k) * Math.PI
      const a1 = Math.PI - ((g + 1) / k) * Math.PI
      const x0 = x + Math.cos(a0) * r * 1.05
      const x1 = x + Math.cos(a1) * r * 1.05
      gores += `<rect x="${f(x0)}" y="${f(y - r)}" width="${f(x1 - x0 + 1)}" height="${f(r * 2.3)}" fill="${mix(cols[g % cols.length]!, skyCols[2]!, haze * 0.5)}"/>`
    }
    c.add(
      `<g clip-path="${clip}">${gores}<rect x="${f(x - r * 1.1)}" y="${f(y - r)}" width="${f(r * 2.2)}" height="${f(r * 2.3)}" fill="${c.lin(
        [
          [0, '#ffffff', 0.3],
          [0.45, '#ffffff', 0],
          [1, '#000000', 0.35],
        ],
        0,
        0,
        1,
        0.3,
      )}"/></g>`,
    )
    c.path(
      `M${f(x - r * 0.3)} ${f(y + r * 1.25)}L${f(x - r * 0.16)} ${f(y + r * 1.6)}M${f(x + r * 0.3)} ${f(y + r * 1.25)}L${f(x + r * 0.16)} ${f(y + r * 1.6)}`,
      'none',
      ` stroke="#3b2a20" stroke-width="${f(r * 0.03)}"`,
    )
    c.rect(x - r * 0.17, y + r * 1.6, r * 0.34, r * 0.25, mix('#8a5a34', skyCols[2]!, haze * 0.5))
  }
  finish(c, { grade: '#ffd9a0', gradeAlpha: 0.06, vignette: 0.4 })
}

function northernLights(c: Canvas) {
  const { w, h, rng, m } = c
  sky(
    c,
    ['#02050d', '#061428', '#0c2a3a', '#123a44'].map((s) => vary(rng, s, 6, 0.04, 0.02)),
    h * 0.85,
  )
  stars(c, 300, h * 0.7)
  const hueA = rng.pick([140, 155, 165])
  const colA = hsl(hueA, 0.85, 0.55)
  const colB = rng.pick([hsl(290, 0.6, 0.55), hsl(190, 0.8, 0.55), hsl(330, 0.6, 0.6)])
  // Curtains: contiguous vertical strips standing on a wavy baseline, brightest at the bottom edge.
  const curtain = c.lin(
    [
      [0, colB, 0],
      [0.45, colB, 0.16],
      [0.8, colA, 0.3],
      [0.96, tint(colA, 0.3), 0.62],
      [1, colA, 0],
    ],
    0,
    0,
    0,
    1,
  )
  const ribbons = rng.int(2, 3)
  for (let r = 0; r < ribbons; r++) {
    const base = h * rng.range(0.3, 0.55)
    const amp = h * rng.range(0.04, 0.1)
    const height = h * rng.range(0.2, 0.36)
    const ph = rng.range(0, 6)
    const k = rng.range(0.8, 2)
    const x0 = rng.range(-0.2, 0.2) * w
    const x1 = x0 + w * rng.range(0.8, 1.2)
    const strips = 110
    const sw = (x1 - x0) / strips
    let rays = ''
    let wobble = rng.range(0.6, 1)
    for (let i = 0; i < strips; i++) {
      const u = i / strips
      const x = x0 + u * (x1 - x0)
      const y = base + Math.sin(u * Math.PI * k + ph) * amp
      wobble = Math.min(1, Math.max(0.35, wobble + rng.range(-0.12, 0.12)))
      const fade = Math.sin(u * Math.PI) ** 0.6
      const rh = height * wobble * (0.4 + 0.6 * fade)
      rays += `<rect x="${f(x)}" y="${f(y - rh)}" width="${f(sw + 1)}" height="${f(rh)}" fill-opacity="${f(0.35 + 0.65 * fade * rng.range(0.6, 1))}"/>`
    }
    c.add(`<g fill="${curtain}">${rays}</g>`)
  }
  c.glow(w / 2, h * 0.6, Math.max(w, h) * 0.6, colA, 0.12)
  const horizon = h * 0.74
  const ridgeD = ridge(c, horizon, h * 0.08, { segments: 6, rough: 0.5, bottom: horizon + 2 })
  c.path(ridgeD, '#0a1620')
  const lake = rng.chance(0.6)
  let land: string
  if (lake) {
    c.rect(
      0,
      horizon,
      w,
      h - horizon,
      c.lin(
        [
          [0, '#0d2a33'],
          [1, '#03080c'],
        ],
        0,
        0,
        0,
        1,
      ),
    )
    c.rect(
      0,
      horizon,
      w,
      h - horizon,
      c.lin(
        [
          [0, colA, 0.3],
          [0.5, colA, 0.06],
          [1, colA, 0],
        ],
        0,
        0,
        0,
        1,
      ),
    )
    for (let i = 0; i < 60; i++) {
      const t = rng.next()
      c.rect(rng.range(0, w), horizon + t * (h - horizon), w * rng.range(0.02, 0.08), m * 0.002, colA, op(0.2 * (1 - t)))
    }
    land = hill(c, h * 0.92, h * 0.04)
    c.path(
      land,
      c.lin(
        [
          [0, '#dde8f0'],
          [1, '#8aa0b4'],
        ],
        0,
        h * 0.86,
        0,
        h,
        true,
      ),
    )
  } else {
    land = hill(c, horizon + h * 0.06, h * 0.06)
    c.path(
      land,
      c.lin(
        [
          [0, mix('#cfe8e4', colA, 0.15)],
          [1, '#6d8496'],
        ],
        0,
        horizon,
        0,
        h,
        true,
      ),
    )
  }
  const spots: Pt[] = []
  for (let i = 0; i < rng.int(5, 10); i++) {
    const x = rng.range(-0.05, 1.05) * w
    const top = hillY(c, land, x)
    spots.push([x, top + rng.range(0.01, 0.4) * (h - top)])
  }
  spots.sort((a, b) => a[1] - b[1])
  for (const [x, y] of spots) pine(c, x, y, m * rng.range(0.12, 0.22) * (0.7 + (0.6 * (y - horizon)) / (h - horizon)), '#02060a')
  finish(c, { vignette: 0.55 })
}

function fireworks(c: Canvas) {
  const { w, h, rng, m } = c
  const water = rng.chance(0.6)
  const horizon = h * (water ? rng.range(0.66, 0.74) : rng.range(0.78, 0.84))
  sky(
    c,
    ['#03040c', '#0b0f2a', '#1e1a40', '#3a2a55'].map((s) => vary(rng, s, 8, 0.05, 0.02)),
    horizon,
  )
  stars(c, 80, h * 0.5)
  const cols = ['#ff4d6d', '#ffd23f', '#3bceac', '#4d96ff', '#c780fa', '#ff9f1c', '#ffffff', '#7df9ff', '#ff5ec4']
  const bursts = rng.int(3, 6)
  const shown: { x: number; y: number; col: string }[] = []
  c.rect(
    0,
    horizon - h * 0.25,
    w,
    h * 0.25,
    c.lin([
      [0, rng.pick(cols), 0],
      [1, rng.pick(cols), 0.22],
    ]),
  )
  for (let b = 0; b < bursts; b++) {
    const x = w * ((b + 0.5) / bursts + rng.range(-0.06, 0.06))
    const y = horizon * rng.range(0.18, 0.62)
    const r = m * rng.range(0.09, 0.2)
    const col = rng.pick(cols)
    const col2 = rng.pick(cols)
    const style = rng.pick(['peony', 'willow', 'ring', 'double'] as const)
    shown.push({ x, y, col })
    softCloud(c, x, y + r * 0.6, r * 0.8, col, 0.1)
    c.glow(x, y, r * 2, col, 0.25)
    c.line(
      x + rng.range(-0.03, 0.03) * w,
      horizon,
      x,
      y + r * 0.3,
      c.lin(
        [
          [0, col, 0],
          [1, col, 0.5],
        ],
        0,
        horizon,
        0,
        y,
        true,
      ),
      m * 0.002,
    )
    const rays = rng.int(40, 64)
    const shell = (radius: number, colour: string, tipColour: string, droopK: number, inner: number) => {
      let d = ''
      let tips = ''
      const dot = m * 0.0032
      for (let i = 0; i < rays; i++) {
        const a = (i / rays) * Math.PI * 2 + rng.range(-0.05, 0.05)
        const len = radius * rng.range(0.8, 1)
        const droop = len * droopK
        const x1 = x + Math.cos(a) * len * inner
        const y1 = y + Math.sin(a) * len * inner
        const x2 = x + Math.cos(a) * len
        const y2 = y + Math.sin(a) * len + droop
        if (style !== 'ring') d += `M${f(x1)} ${f(y1)}Q${f(x + Math.cos(a) * len * 0.75)} ${f(y + Math.sin(a) * len * 0.75)} ${f(x2)} ${f(y2)}`
        tips += `M${f(x2 - dot)} ${f(y2)}a${f(dot)} ${f(dot)} 0 1 0 ${f(dot * 2)} 0a${f(dot)} ${f(dot)} 0 1 0 ${f(-dot * 2)} 0Z`
      }
      if (d) c.path(d, 'none', ` stroke="${colour}" stroke-opacity="0.8" stroke-width="${f(m * 0.0026)}" stroke-linecap="round"`)
      c.path(tips, tipColour)
    }
    if (style === 'willow') shell(r * 1.2, '#ffcf6a', '#fff1c0', 0.45, 0.15)
    else if (style === 'double') {
      shell(r, col, tint(col, 0.5), 0.08, 0.3)
      shell(r * 0.55, col2, tint(col2, 0.5), 0.04, 0.2)
    } else shell(r, col, tint(col2, 0.4), 0.08, style === 'ring' ? 1 : 0.25)
    c.glow(x, y, r * 0.3, '#ffffff', 0.5)
  }
  if (water) {
    // Skyline silhouette with lit windows over the water; the fireworks reflected.
    let d = ''
    const windows: string[] = []
    let x = -rng.range(0, m * 0.03)
    while (x < w) {
      const bw = m * rng.range(0.03, 0.08)
      const bh = h * rng.range(0.03, 0.13)
      d += `M${f(x)} ${f(horizon)}V${f(horizon - bh)}H${f(x + bw)}V${f(horizon)}Z`
      for (let k = 0; k < bw * bh * 1.5e-4 * (2400 / m) ** 2; k++)
        windows.push(
          `<rect x="${f(x + rng.range(0.1, 0.85) * bw)}" y="${f(horizon - rng.range(0.1, 0.9) * bh)}" width="${f(m * 0.004)}" height="${f(m * 0.005)}" fill="#ffd479" fill-opacity="${f(rng.range(0.3, 0.9))}"/>`,
        )
      x += bw
    }
    c.path(d, '#06070f')
    c.add(windows.join(''))
    c.rect(
      0,
      horizon,
      w,
      h - horizon,
      c.lin(
        [
          [0, '#15173a'],
          [1, '#03040a'],
        ],
        0,
        0,
        0,
        1,
      ),
    )
    for (const s of shown) {
      for (let i = 0; i < 30; i++) {
        const t = rng.next()
        const y = horizon + t * (h - horizon)
        c.rect(s.x + rng.range(-1, 1) * m * 0.06, y, m * rng.range(0.02, 0.08), m * 0.003, s.col, op(0.45 * (1 - t)))
      }
    }
    c.rect(0, horizon, w, m * 0.003, '#000000', op(0.4))
  } else {
    const trees = ridge(c, horizon, h * 0.04, { segments: 7, rough: 0.7, smooth: true })
    c.path(trees, '#05060c')
    c.rect(
      0,
      horizon,
      w,
      h - horizon,
      c.lin(
        [
          [0, '#0b0d1c'],
          [1, '#05060c'],
        ],
        0,
        0,
        0,
        1,
      ),
    )
    // Crowd silhouettes, lit from above by the show.
    let d = ''
    for (let x = -m * 0.02; x < w + m * 0.05; x += m * rng.range(0.035, 0.06)) {
      const k = m * rng.range(0.09, 0.14) * (rng.chance(0.2) ? 0.6 : 1)
      const by = h + m * 0.02
      d += `M${f(x - k * 0.3)} ${f(by)}Q${f(x - k * 0.32)} ${f(by - k * 0.6)} ${f(x)} ${f(by - k * 0.66)}Q${f(x + k * 0.32)} ${f(by - k * 0.6)} ${f(x + k * 0.3)} ${f(by)}Z`
      d += `M${f(x - k * 0.14)} ${f(by - k * 0.82)}a${f(k * 0.14)} ${f(k * 0.14)} 0 1 0 ${f(k * 0.28)} 0a${f(k * 0.14)} ${f(k * 0.14)} 0 1 0 ${f(-k * 0.28)} 0Z`
    }
    c.path(d, '#020205')
  }
  finish(c, { vignette: 0.5 })
}

function cherryBlossom(c: Canvas) {
  const { w, h, rng, m } = c
  const skyCols = rng.pick([
    ['#8ec5f0', '#b9dcf5', '#e3f1fb', '#fdf3f5'],
    ['#a6c8e8', '#cfe0f0', '#f6e6ee', '#fff4ea'],
  ])
  sky(
    c,
    skyCols.map((s) => vary(rng, s, 5)),
    h * 0.75,
  )
  for (let i = 0; i < rng.int(2, 4); i++) softCloud(c, rng.range(0, w), h * rng.range(0.1, 0.4), m * rng.range(0.1, 0.2), '#ffffff', 0.7)
  const ground = h * rng.range(0.76, 0.84)
  c.path(hill(c, ground - h * 0.04, h * 0.05), mix('#8cc084', skyCols[2]!, 0.5))
  const grassD = hill(c, ground, h * 0.04)
  c.path(
    grassD,
    c.lin(
      [
        [0, '#9ed36a'],
        [1, '#4f8a3c'],
      ],
      0,
      ground - h * 0.04,
      0,
      h,
      true,
    ),
  )
  const pinks = rng.pick([
    ['#ffc2d6', '#ffb3cb', '#ff9ebb', '#ffe0ea', '#ffffff'],
    ['#f7c6d9', '#f4a7c3', '#fbe0ea', '#e88fb3'],
    ['#ffd6e0', '#ffc8dd', '#ffafcc', '#fff0f5'],
  ])
  const trees = w > h * 1.2 ? rng.int(1, 2) : 1
  for (let t = 0; t < trees; t++) {
    const tx = trees === 1 ? w * rng.range(0.35, 0.65) : w * (t === 0 ? rng.range(0.2, 0.35) : rng.range(0.65, 0.8))
    const base = hillY(c, grassD, tx) + h * 0.03
    const size = Math.min(h * 0.55, m * 0.6) * (trees === 1 ? 1 : 0.85)
    const bark = '#4a3228'
    const ends: Pt[] = []
    let branches = ''
    const grow = (x: number, y: number, angle: number, len: number, depth: number, width: number) => {
      const x2 = x + Math.cos(angle) * len
      const y2 = y + Math.sin(angle) * len
      branches += `<path d="M${f(x)} ${f(y)}Q${f((x + x2) / 2 + rng.range(-0.1, 0.1) * len)} ${f((y + y2) / 2)} ${f(x2)} ${f(y2)}" stroke-width="${f(width)}"/>`
      if (depth <= 1) ends.push([x2, y2])
      if (depth === 0) return
      const forks = depth > 2 ? 2 : rng.int(2, 3)
      for (let i = 0; i < forks; i++)
        grow(x2, y2, angle + rng.range(-0.35, 0.35) + (i - (forks - 1) / 2) * 0.75, len * rng.range(0.65, 0.8), depth - 1, width * 0.62)
    }
    grow(tx, base, -Math.PI / 2 + rng.range(-0.1, 0.1), size * 0.35, 4, size * 0.07)
    c.add(`<g stroke="${bark}" stroke-linecap="round" fill="none">${branches}</g>`)
    c.ellipse(tx, base, size * 0.5, size * 0.05, '#2f5a27', op(0.35))
    for (const [ex, ey] of ends) {
      for (let k = 0; k < 10; k++) {
        const bx = ex + rng.range(-1, 1) * size * 0.14
        const by = ey + rng.range(-1, 0.7) * size * 0.1
        const r = size * rng.range(0.03, 0.065)
        const col = rng.pick(pinks)
        c.circle(bx, by, r, shade(col, 0.06))
        c.circle(bx - r * 0.15, by - r * 0.18, r * 0.75, tint(col, 0.16))
      }
    }
  }
  for (let i = 0; i < 120; i++) {
    const x = rng.range(0, w)
    const y = rng.range(0, h)
    const s = m * rng.range(0.003, 0.007)
    c.ellipse(x, y, s * 1.4, s, rng.pick(pinks), `${op(0.85)}${rot(rng.range(0, 180), x, y)}`)
  }
  finish(c, { grade: '#ffd0e0', gradeAlpha: 0.07, vignette: 0.35, leak: rng.chance(0.5) ? '#fff0c0' : undefined })
}

function sunflowers(c: Canvas) {
  const { w, h, rng, m } = c
  const golden = rng.chance(0.6)
  const skyCols = golden ? ['#4a78b8', '#a4b9d8', '#f6d29a', '#ffc36b'] : ['#2f7fd8', '#6db0ee', '#b8dbf6', '#eaf6fc']
  const horizon = h * rng.range(0.42, 0.55)
  sky(
    c,
    skyCols.map((s) => vary(rng, s, 5)),
    horizon,
  )
  const sunX = w * rng.range(0.15, 0.85)
  if (golden) c.glow(sunX, horizon * 0.9, Math.max(w, h) * 0.7, '#ffd080', 0.6)
  for (let i = 0; i < rng.int(2, 4); i++)
    cloud(c, rng.range(0, w), horizon * rng.range(0.2, 0.7), m * rng.range(0.04, 0.08), golden ? '#fff0d8' : '#ffffff', golden ? '#e8b8a0' : '#d8e6f3')
  c.path(ridge(c, horizon + 2, h * 0.04, { segments: 6, rough: 0.6, smooth: true, bottom: horizon + h * 0.05 }), mix('#3f6a3a', skyCols[3]!, 0.45))
  c.rect(
    0,
    horizon,
    w,
    h - horizon,
    c.lin(
      [
        [0, '#7a8a2e'],
        [0.3, '#4a6a24'],
        [1, '#2a4416'],
      ],
      0,
      0,
      0,
      1,
    ),
  )
  // Distant flowers as dots, then rows of heads growing toward the viewer.
  for (let i = 0; i < 500; i++) {
    const t = rng.next() ** 1.8
    const y = horizon + h * 0.01 + t * (h - horizon) * 0.35
    c.circle(rng.range(0, w), y, m * (0.003 + 0.01 * t), rng.pick(['#ffcc1a', '#f5b700', '#ffd84d']), op(0.95))
  }
  const heads: [number, number, number][] = []
  for (let i = 0; i < rng.int(14, 22); i++) {
    const t = rng.next()
    heads.push([rng.range(-0.05, 1.05) * w, horizon + (h - horizon) * (0.3 + t * 0.6), m * (0.035 + 0.11 * t ** 2)])
  }
  heads.sort((a, b) => a[1] - b[1])
  for (const [x, y, r] of heads) {
    c.path(`M${f(x - r * 0.06)} ${f(y)}L${f(x - r * 0.1)} ${f(h)}L${f(x + r * 0.1)} ${f(h)}L${f(x + r * 0.06)} ${f(y)}Z`, '#3c6a1e')
    c.ellipse(x + r * 0.6, y + r * 1.5, r * 0.6, r * 0.25, '#4d8a28', rot(-25, x + r * 0.6, y + r * 1.5))
    c.ellipse(x - r * 0.6, y + r * 2.3, r * 0.6, r * 0.25, '#3f7a22', rot(25, x - r * 0.6, y + r * 2.3))
    const petals = 18
    const facing = rng.range(0.75, 1)
    let d = ''
    for (let i = 0; i < petals; i++) {
      const a = (i / petals) * Math.PI * 2
      const px = x + Math.cos(a) * r * 0.7
      const py = y + Math.sin(a) * r * 0.7 * facing
      d += `<ellipse cx="${f(px)}" cy="${f(py)}" rx="${f(r * 0.42)}" ry="${f(r * 0.14)}" transform="rotate(${f((Math.atan2(Math.sin(a) * facing, Math.cos(a)) * 180) / Math.PI)} ${f(px)} ${f(py)})"/>`
    }
    c.add(
      `<g fill="${c.rad(
        [
          [0, '#ffe45c'],
          [0.6, '#ffc400'],
          [1, '#e89a00'],
        ],
        x,
        y,
        r * 1.2,
      )}">${d}</g>`,
    )
    c.ellipse(
      x,
      y,
      r * 0.45,
      r * 0.45 * facing,
      c.rad(
        [
          [0, '#3a2210'],
          [0.7, '#5a3516'],
          [1, '#7a4a1c'],
        ],
        x,
        y,
        r * 0.5,
      ),
    )
  }
  finish(c, { grade: golden ? '#ffb347' : '#ffe08a', gradeAlpha: 0.07, vignette: 0.45 })
}

type SceneDef = { draw: (c: Canvas) => void; titles: string[]; months: number[]; hours: [number, number] }

const ALL_MONTHS = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]

const SCENES: Record<DemoSceneKind, SceneDef> = {
  'sunset-sea': {
    draw: sunsetSea,
    titles: ['Sunset at the beach', 'Golden hour by the sea', 'Last light over the water', 'Evening on the coast'],
    months: [5, 6, 7, 8, 9],
    hours: [19, 21],
  },
  'snowy-mountains': {
    draw: snowyMountains,
    titles: ['Snowy peaks', 'Ski trip views', 'Up in the mountains', 'Winter in the Alps'],
    months: [12, 1, 2, 3],
    hours: [9, 16],
  },
  'christmas-tree': {
    draw: christmasTree,
    titles: ['Our Christmas tree', 'Christmas Eve', 'Tree all lit up', 'Presents under the tree'],
    months: [12],
    hours: [17, 22],
  },
  'birthday-cake': { draw: birthdayCake, titles: ['Birthday cake!', 'Make a wish', 'Party time', 'Another year older'], months: ALL_MONTHS, hours: [14, 20] },
  'beach-umbrella': {
    draw: beachUmbrella,
    titles: ['Beach day', 'Summer holiday', 'By the seaside', 'Lazy afternoon on the sand'],
    months: [6, 7, 8],
    hours: [10, 17],
  },
  'autumn-forest': {
    draw: autumnForest,
    titles: ['Autumn walk', 'Golden woods', 'Leaves everywhere', 'Sunday in the forest'],
    months: [10, 11],
    hours: [10, 16],
  },
  'park-balloons': {
    draw: parkBalloons,
    titles: ['Balloons in the park', 'Picnic party', 'Fun at the park', 'Up, up and away'],
    months: [4, 5, 6, 7, 8, 9],
    hours: [11, 17],
  },
  'night-sky': { draw: nightSky, titles: ['Starry night', 'Under the stars', 'Moonlight', 'Camping night sky'], months: [1, 7, 8, 9, 10], hours: [21, 23] },
  'lake-canoe': { draw: lakeCanoe, titles: ['Canoe on the lake', 'Morning paddle', 'Lake weekend', 'Still water'], months: [6, 7, 8, 9], hours: [7, 19] },
  'flower-garden': {
    draw: flowerGarden,
    titles: ["Grandma's garden", 'In full bloom', 'Spring flowers', 'The garden in June'],
    months: [5, 6, 7],
    hours: [9, 18],
  },
  'city-dusk': { draw: cityDusk, titles: ['City lights', 'Skyline at dusk', 'Evening in the city', 'City break'], months: ALL_MONTHS, hours: [18, 21] },
  snowman: { draw: snowman, titles: ['Our snowman', 'Snow day!', 'First snow', 'Building a snowman'], months: [12, 1, 2], hours: [10, 16] },
  'pumpkin-patch': {
    draw: pumpkinPatch,
    titles: ['Pumpkin picking', 'At the pumpkin patch', 'Autumn harvest', 'Choosing pumpkins'],
    months: [10],
    hours: [10, 17],
  },
  'dog-on-hill': {
    draw: dogOnHill,
    titles: ['Evening walk with Max', 'Best buddies', 'Sunset walk', 'On top of the hill'],
    months: [4, 5, 6, 7, 8, 9, 10],
    hours: [18, 21],
  },
  kites: { draw: kites, titles: ['Flying kites', 'Windy day', 'Kites on the hill', 'Higher!'], months: [3, 4, 5, 8, 9], hours: [11, 17] },
  campfire: { draw: campfire, titles: ['Campfire stories', 'Around the fire', 'Camping trip', 'Marshmallow night'], months: [6, 7, 8, 9], hours: [20, 23] },
  'rainy-window': {
    draw: rainyWindow,
    titles: ['Rainy afternoon', 'Cosy day in', 'Hot cocoa weather', 'Rain on the window'],
    months: [10, 11, 1, 2, 3],
    hours: [15, 19],
  },
  lighthouse: {
    draw: lighthouse,
    titles: ['The old lighthouse', 'Coastal walk', 'Lighthouse at dusk', 'By the cliffs'],
    months: [4, 5, 6, 7, 8, 9, 10],
    hours: [17, 21],
  },
  'hot-air-balloons': {
    draw: hotAirBalloons,
    titles: ['Balloon festival', 'Hot air balloons', 'Early morning flight', 'Over the valley'],
    months: [5, 6, 7, 8, 9],
    hours: [6, 9],
  },
  'northern-lights': {
    draw: northernLights,
    titles: ['Northern lights', 'Aurora night', 'Dancing skies', 'Lapland trip'],
    months: [11, 12, 1, 2, 3],
    hours: [21, 23],
  },
  fireworks: { draw: fireworks, titles: ['Fireworks!', "New Year's Eve", 'Bonfire night', 'Festival fireworks'], months: [1, 7, 11, 12], hours: [21, 23] },
  'cherry-blossom': { draw: cherryBlossom, titles: ['Cherry blossom', 'Spring in the park', 'Pink petals', 'Blossom season'], months: [3, 4], hours: [10, 17] },
  sunflowers: { draw: sunflowers, titles: ['Sunflower field', 'Summer sunflowers', 'Among the sunflowers', 'Golden field'], months: [7, 8], hours: [16, 20] },
}

export const DEMO_SCENE_KINDS = Object.keys(SCENES) as DemoSceneKind[]

// ---------------------------------------------------------------------------------------------------------------
// Specs

const SIZES = {
  landscape: { width: 2400, height: 1800 },
  portrait: { width: 1800, height: 2400 },
  square: { width: 2000, height: 2000 },
} as const

const DAY = 86_400_000
const END = Date.UTC(2026, 10, 1)
const START = END - 730 * DAY

function quota<T>(rng: Rng, count: number, parts: [T, number][], rest: T): T[] {
  const out: T[] = []
  for (const [value, share] of parts) for (let i = 0; i < Math.round(count * share); i++) out.push(value)
  while (out.length < count) out.push(rest)
  return rng.shuffle(out.slice(0, count))
}

function captureDate(rng: Rng, def: SceneDef, scene: DemoSceneKind): Date {
  for (let attempt = 0; attempt < 20; attempt++) {
    const month = rng.pick(def.months)
    const year = rng.pick([2024, 2025, 2026])
    let day = rng.int(1, 28)
    if (scene === 'christmas-tree') day = rng.int(12, 26)
    if (scene === 'fireworks' && month === 12) day = 31
    const hour = rng.int(def.hours[0], def.hours[1])
    const t = Date.UTC(year, month - 1, day, hour, rng.int(0, 59), rng.int(0, 59))
    if (t >= START && t < END) return new Date(t)
  }
  return new Date(START + Math.floor(rng.next() * 730) * DAY + 12 * 3_600_000)
}

/** The demo album: `count` photos, deterministic for a seed. Sorted oldest first. */
export function demoPhotoSpecs(count: number = DEFAULT_DEMO_PHOTO_COUNT, seed: number = DEFAULT_DEMO_PHOTO_SEED): DemoPhotoSpec[] {
  const rng = createRng(hash32(seed, 0x5eed))
  // Scenes: every kind once per round, reshuffled each round, never the same kind twice in a row.
  const scenes: DemoSceneKind[] = []
  while (scenes.length < count) {
    const round = rng.shuffle([...DEMO_SCENE_KINDS])
    if (round[0] === scenes.at(-1)) round.push(round.shift()!)
    scenes.push(...round)
  }
  const usedTitles = new Set<string>()
  const drafts = scenes.slice(0, count).map((scene, i) => {
    const def = SCENES[scene]
    const fresh = def.titles.filter((t) => !usedTitles.has(t))
    const title = rng.pick(fresh.length > 0 ? fresh : def.titles)
    usedTitles.add(title)
    return { scene, title, capturedAt: captureDate(rng, def, scene), seed: hash32(seed, i, 0xa1b) }
  })
  drafts.sort((a, b) => a.capturedAt.getTime() - b.capturedAt.getTime())
  const orientations = quota<DemoPhotoSpec['orientation']>(
    rng,
    count,
    [
      ['landscape', 0.5],
      ['portrait', 0.3],
    ],
    'square',
  )
  const exif = quota<DemoPhotoSpec['exifOrientation']>(
    rng,
    count,
    [
      [6, 1 / 36],
      [8, 1 / 36],
      [3, 1 / 36],
    ],
    1,
  )
  const favorites = quota(rng, count, [[true, 0.2]], false)
  const recommended = quota(rng, count, [[true, 1 / 3]], false)
  return drafts.map((d, index) => {
    const orientation = orientations[index]!
    return {
      index,
      title: d.title,
      orientation,
      ...SIZES[orientation],
      exifOrientation: exif[index]!,
      favorite: favorites[index]!,
      recommended: recommended[index]!,
      capturedAt: d.capturedAt,
      scene: d.scene,
      seed: d.seed,
    }
  })
}

// ---------------------------------------------------------------------------------------------------------------
// Rendering

function drawScene(spec: Pick<DemoPhotoSpec, 'scene' | 'seed' | 'width' | 'height'>): Canvas {
  const canvas = new Canvas(spec.width, spec.height, createRng(spec.seed))
  SCENES[spec.scene].draw(canvas)
  return canvas
}

const NOISE_BITS = 18
let noiseTable: Int8Array | undefined

/** Film grain and vignette in one pass over the RGB pixels. */
function developPixels(px: Buffer, width: number, height: number, vignette: number, seed: number) {
  if (!noiseTable) {
    const rng = createRng(0x9a1e)
    noiseTable = new Int8Array(1 << NOISE_BITS)
    for (let i = 0; i < noiseTable.length; i++) noiseTable[i] = Math.round((rng.next() + rng.next() + rng.next() - 1.5) * 9)
  }
  const noise = noiseTable
  const mask = (1 << NOISE_BITS) - 1
  // Vignette factor (×256) by squared distance from the centre, normalised to the half diagonal.
  const LUT = 1024
  const lut = new Int32Array(LUT + 1)
  for (let i = 0; i <= LUT; i++) {
    const r = Math.sqrt(i / LUT)
    const t = Math.min(1, Math.max(0, (r - 0.5) / 0.55))
    lut[i] = Math.round(256 * (1 - vignette * t * t * (3 - 2 * t)))
  }
  const half2 = (width * width + height * height) / 4
  const dx2 = new Float64Array(width)
  for (let x = 0; x < width; x++) dx2[x] = ((x + 0.5 - width / 2) ** 2 / half2) * LUT
  const out = new Uint8ClampedArray(px.buffer, px.byteOffset, px.length)
  const rows = createRng(hash32(seed, 0x6a1))
  let i = 0
  for (let y = 0; y < height; y++) {
    const dy2 = ((y + 0.5 - height / 2) ** 2 / half2) * LUT
    let n = Math.floor(rows.next() * mask)
    for (let x = 0; x < width; x++, i += 3, n++) {
      const v = lut[Math.min(LUT, (dx2[x]! + dy2) | 0)]!
      const g = noise[n & mask]!
      out[i] = ((px[i]! * v) >> 8) + g
      out[i + 1] = ((px[i + 1]! * v) >> 8) + g
      out[i + 2] = ((px[i + 2]! * v) >> 8) + g
    }
  }
}

const ROTATE_FOR_EXIF = { 1: 0, 3: 180, 6: 270, 8: 90 } as const

const exifDate = (d: Date) => d.toISOString().slice(0, 19).replace('T', ' ').replace(/-/g, ':')

/**
 * A JPEG of the spec. For EXIF orientations other than 1 the pixels are stored rotated and tagged, so a viewer that
 * honours EXIF shows the scene upright at `spec.width`×`spec.height`.
 */
export async function renderDemoPhoto(spec: DemoPhotoSpec): Promise<Buffer> {
  const canvas = drawScene(spec)
  const { data, info } = await sharp(Buffer.from(canvas.toSvg())).removeAlpha().raw().toBuffer({ resolveWithObject: true })
  developPixels(data, info.width, info.height, canvas.vignette, spec.seed)
  const taken = exifDate(spec.capturedAt)
  let image = sharp(data, { raw: { width: info.width, height: info.height, channels: 3 } })
  image = image.withExif({ IFD0: { Make: 'Keepsake', Model: 'Demo album', DateTime: taken }, IFD2: { DateTimeOriginal: taken } })
  const angle = ROTATE_FOR_EXIF[spec.exifOrientation]
  // libvips writes the Orientation tag from its own field, which only withMetadata sets (it also attaches an sRGB
  // profile, which costs a colour transform, so upright photos skip it).
  if (angle !== 0) image = image.rotate(angle).withMetadata({ orientation: spec.exifOrientation })
  return image.jpeg({ quality: 88, chromaSubsampling: '4:2:0' }).toBuffer()
}

function specKey(spec: DemoPhotoSpec): string {
  return createHash('sha256')
    .update(JSON.stringify({ ...spec, capturedAt: spec.capturedAt.toISOString() }))
    .digest('hex')
    .slice(0, 8)
}

/** The cache file name of a spec: generator version, index and a hash of the spec, so stale renders are never reused. */
export function demoPhotoFileName(spec: DemoPhotoSpec): string {
  return `v${DEMO_PHOTO_GENERATOR_VERSION}-${String(spec.index).padStart(3, '0')}-${specKey(spec)}.jpg`
}

const exists = (file: string) =>
  access(file).then(
    () => true,
    () => false,
  )

/**
 * Renders each demo photo once into `cacheDir` (two at a time), skipping files already there. Files are written under
 * a temporary name and renamed, so a concurrent process never sees half a JPEG.
 */
export async function ensureDemoPhotoLibrary(
  cacheDir: string,
  count: number = DEFAULT_DEMO_PHOTO_COUNT,
  seed: number = DEFAULT_DEMO_PHOTO_SEED,
): Promise<{ spec: DemoPhotoSpec; file: string }[]> {
  await mkdir(cacheDir, { recursive: true })
  const entries = demoPhotoSpecs(count, seed).map((spec) => ({ spec, file: path.join(cacheDir, demoPhotoFileName(spec)) }))
  let next = 0
  const worker = async () => {
    while (next < entries.length) {
      const { spec, file } = entries[next++]!
      if (await exists(file)) continue
      const tmp = `${file}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`
      try {
        await writeFile(tmp, await renderDemoPhoto(spec))
        await rename(tmp, file)
      } catch (error) {
        await unlink(tmp).catch(() => {})
        throw error
      }
    }
  }
  await Promise.all([worker(), worker()])
  return entries
}
