/**
 * npm run art:ornaments — generates every piece of ornament artwork under public/photo-products/ from
 * the geometry in app/catalogue/ornaments.ts: per shape the mask, frame, seamless pattern tile and preview
 * thumbnail, and per variant the fourteen back-side designs (full template size) with their pickers'
 * thumbnails. Deterministic: all variation comes from a seeded PRNG, so a re-run writes the same art.
 *
 * Everything is drawn as SVG and rendered with sharp (librsvg); layers are combined with sharp's
 * composite (the mask's alpha clips designs, the frame goes on top).
 */
import fs from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import sharp, { type Sharp } from 'sharp'
import {
  BACK_SIDES_PER_VARIANT,
  PATTERN_TILE_SIZE,
  backSideName,
  backSideThumbnailUrl,
  backSideUrl,
  ornamentShapes,
  photoCells,
  pseudoTemplates,
  templateArtUrl,
  templateThumbnailAvifUrl,
  variantOfShape,
  type OrnamentShape,
  type OrnamentVariant,
} from '../app/catalogue/ornaments'

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
const PUBLIC = path.join(ROOT, 'public')
const TEMPLATE_THUMB_WIDTH = 480
const BACK_THUMB_WIDTH = 320
const CONCURRENCY = 2

sharp.concurrency(1)
sharp.cache(false)

// ---------------------------------------------------------------------------------------------
// Small helpers

type Pt = [number, number]
type Box = { x: number; y: number; w: number; h: number }
type Rng = () => number

/** mulberry32: a tiny seeded PRNG, so every "random" scatter is the same on every run. */
function makeRng(seed: number): Rng {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}
const seedOf = (s: string) => {
  let h = 2166136261
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 16777619)
  return h >>> 0
}
const between = (r: Rng, a: number, b: number) => a + (b - a) * r()
const pick = <T>(r: Rng, xs: readonly T[]): T => xs[Math.floor(r() * xs.length)]!

/** Numbers in SVG with at most one decimal, to keep the markup short. */
const n = (v: number) => String(Math.round(v * 10) / 10)
const pt = (p: Pt) => `${n(p[0])} ${n(p[1])}`
/** Opacities with two decimals. */
const op = (v: number) => String(Math.round(v * 100) / 100)

/**
 * A closed path through the points with every corner rounded: each corner is cut back by its radius
 * along both edges and joined with a quadratic curve whose control point is the corner.
 */
function roundedPolygon(points: Pt[], radii: number | number[]): string {
  const m = points.length
  const parts: string[] = []
  const cut = points.map((p, i) => {
    const prev = points[(i - 1 + m) % m]!
    const next = points[(i + 1) % m]!
    const dp = Math.hypot(prev[0] - p[0], prev[1] - p[1])
    const dn = Math.hypot(next[0] - p[0], next[1] - p[1])
    const r = Math.min(typeof radii === 'number' ? radii : radii[i]!, dp / 2, dn / 2)
    const a: Pt = [p[0] + ((prev[0] - p[0]) / dp) * r, p[1] + ((prev[1] - p[1]) / dp) * r]
    const b: Pt = [p[0] + ((next[0] - p[0]) / dn) * r, p[1] + ((next[1] - p[1]) / dn) * r]
    return { a, b, p }
  })
  parts.push(`M${pt(cut[0]!.b)}`)
  for (let i = 1; i <= m; i++) {
    const c = cut[i % m]!
    parts.push(`L${pt(c.a)}Q${pt(c.p)} ${pt(c.b)}`)
  }
  return parts.join('') + 'Z'
}

function svgDoc(width: number, height: number, body: string): Buffer {
  return Buffer.from(
    `<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}">${body}</svg>`,
  )
}

async function writePng(file: string, image: Sharp, palette: boolean) {
  fs.mkdirSync(path.dirname(file), { recursive: true })
  const out = palette ? image.png({ palette: true, quality: 90, effort: 8, compressionLevel: 9 }) : image.png({ compressionLevel: 9, adaptiveFiltering: true }) // full colour (no effort/quality: those imply a palette)
  await out.toFile(file)
}

async function pool<T>(items: T[], limit: number, work: (item: T) => Promise<void>) {
  let next = 0
  await Promise.all(
    Array.from({ length: Math.min(limit, items.length) }, async () => {
      while (next < items.length) await work(items[next++]!)
    }),
  )
}

const publicFile = (url: string) => path.join(PUBLIC, ...url.split('/').filter(Boolean))

// ---------------------------------------------------------------------------------------------
// Silhouettes

/** One ornament on a sheet: its outline, where it sits and where a design's main motif fits. */
type Ornament = {
  shape: OrnamentShape
  side: 0 | 1
  /** Unique id prefix for SVG defs. */
  id: string
  /** Centre of the photo cell. */
  cx: number
  cy: number
  cell: Box
  /** The silhouette's outline. */
  d: string
  /** Bounding box of the outline. */
  bbox: Box
  /** The largest comfortable rectangle inside the silhouette, for a design's main motif. */
  core: Box
  /** Where the hanging loop meets the silhouette (its top edge). */
  anchor: Pt
  /** +1 when a stocking's toe points right, -1 left; 0 for symmetric shapes. */
  toe: 1 | -1 | 0
  /** The star's centre and radii, the stocking's leg and foot: handy anchors for designs. */
  extra: Record<string, number>
  /** Secondary places for motifs (centre and size): top, sideL, sideR, and shape-specific ones. */
  spots: Record<string, Spot>
}
type Spot = { x: number; y: number; s: number }

const SIL_TOP = 150 // silhouettes start here: the loop has the 150 px above

function boxOf(points: Pt[]): Box {
  const xs = points.map((p) => p[0])
  const ys = points.map((p) => p[1])
  const x = Math.min(...xs)
  const y = Math.min(...ys)
  return { x, y, w: Math.max(...xs) - x, h: Math.max(...ys) - y }
}

function treeOrnament(cx: number, cy: number, cell: Box, side: 0 | 1): Ornament {
  // Right half of the outline from the tip down to the trunk, as [dx, y, corner radius].
  const half: [number, number, number][] = [
    [450, 610, 45], // tier 1 tip
    [285, 575, 30], // notch
    [570, 1110, 50], // tier 2 tip
    [395, 1075, 30], // notch
    [640, 1650, 55], // tier 3 tip
    [150, 1650, 22], // trunk joint
    [150, 1824, 14], // trunk foot
  ]
  const pts: Pt[] = [[cx, SIL_TOP]]
  const radii = [70]
  for (const [dx, y, r] of half) {
    pts.push([cx + dx, y])
    radii.push(r)
  }
  for (const [dx, y, r] of [...half].reverse()) {
    pts.push([cx - dx, y])
    radii.push(r)
  }
  const bbox = boxOf(pts)
  return {
    shape: 'tree',
    side,
    id: `tree${side}`,
    cx,
    cy,
    cell,
    d: roundedPolygon(pts, radii),
    bbox,
    core: { x: cx - 330, y: 700, w: 660, h: 920 },
    anchor: [cx, SIL_TOP + 14],
    toe: 0,
    extra: { trunkTop: 1650, tier1: 610, tier2: 1110 },
    spots: {
      top: { x: cx, y: 430, s: 250 },
      sideL: { x: cx - 390, y: 1530, s: 190 },
      sideR: { x: cx + 390, y: 1530, s: 190 },
      trunk: { x: cx, y: 1737, s: 150 },
    },
  }
}

const STAR = { R: 680, inner: 0.56, sy: 1.085 }

function starOrnament(cx: number, cy: number, cell: Box, side: 0 | 1): Ornament {
  const { R, inner, sy } = STAR
  const r = R * inner
  const scy = SIL_TOP + R * sy // star centre: top point at SIL_TOP
  const pts: Pt[] = []
  const radii: number[] = []
  for (let k = 0; k < 10; k++) {
    const a = (k * Math.PI) / 5
    const rad = k % 2 === 0 ? R : r
    pts.push([cx + rad * Math.sin(a), scy - rad * Math.cos(a) * sy])
    radii.push(k % 2 === 0 ? 95 : 70)
  }
  const bbox = boxOf(pts)
  const coreHalf = r * 0.78
  return {
    shape: 'star',
    side,
    id: `star${side}`,
    cx,
    cy,
    cell,
    d: roundedPolygon(pts, radii),
    bbox,
    core: { x: cx - coreHalf, y: scy - coreHalf * sy, w: coreHalf * 2, h: coreHalf * 2 * sy },
    anchor: [cx, SIL_TOP + 30],
    toe: 0,
    extra: { scy, R, r, sy },
    spots: {
      top: { x: cx, y: scy - 430, s: 200 },
      sideL: { x: cx - 440, y: scy - 150, s: 190 },
      sideR: { x: cx + 440, y: scy - 150, s: 190 },
      legL: { x: cx - 270, y: scy + 330, s: 190 },
      legR: { x: cx + 270, y: scy + 330, s: 190 },
    },
  }
}

function stockingOrnament(cx: number, cy: number, cell: Box, side: 0 | 1): Ornament {
  const toe: 1 | -1 = side === 0 ? -1 : 1
  // Toe-right outline as [dx, y, corner radius]; mirrored for a toe pointing left.
  const outline: [number, number, number][] = [
    [-565, SIL_TOP, 34], // cuff top, back
    [385, SIL_TOP, 34], // cuff top, front
    [385, 455, 24], // cuff bottom, front
    [325, 455, 24], // leg front
    [325, 1120, 210], // instep
    [628, 1370, 250], // toe top
    [628, 1985, 250], // toe bottom
    [-505, 1985, 390], // heel
    [-535, 455, 24], // leg back
    [-565, 455, 24], // cuff bottom, back
  ]
  const pts: Pt[] = outline.map(([dx, y]) => [cx + toe * dx, y])
  const bbox = boxOf(pts)
  const legX0 = cx + toe * -535
  const legX1 = cx + toe * 325
  return {
    shape: 'stocking',
    side,
    id: `stocking${side}`,
    cx,
    cy,
    cell,
    d: roundedPolygon(
      pts,
      outline.map((o) => o[2]),
    ),
    bbox,
    core: { x: Math.min(legX0, legX1) + 30, y: 500, w: 800, h: 900 },
    anchor: [cx + toe * -330, SIL_TOP + 14],
    toe,
    extra: {
      cuffTop: SIL_TOP,
      cuffBottom: 455,
      cuffBack: cx - toe * 565,
      cuffFront: cx + toe * 385,
      legFront: cx + toe * 325,
      legBack: cx - toe * 535,
      sole: 1985,
      toeX: cx + toe * 628,
    },
    spots: {
      top: { x: cx + toe * -90, y: 300, s: 260 },
      toe: { x: cx + toe * 420, y: 1700, s: 300 },
      heel: { x: cx - toe * 300, y: 1760, s: 230 },
      sideL: toe === 1 ? { x: cx - 300, y: 1760, s: 230 } : { x: cx - 420, y: 1700, s: 300 },
      sideR: toe === 1 ? { x: cx + 420, y: 1700, s: 300 } : { x: cx + 300, y: 1760, s: 230 },
    },
  }
}

function ornamentsOf(shape: OrnamentShape): Ornament[] {
  const template = pseudoTemplates[shape]
  return photoCells(template).map((c, i) => {
    const cell = { x: c.absoluteCenterX - c.width / 2, y: c.absoluteCenterY - c.height / 2, w: c.width, h: c.height }
    const side = i as 0 | 1
    if (shape === 'tree') return treeOrnament(c.absoluteCenterX, c.absoluteCenterY, cell, side)
    if (shape === 'star') return starOrnament(c.absoluteCenterX, c.absoluteCenterY, cell, side)
    return stockingOrnament(c.absoluteCenterX, c.absoluteCenterY, cell, side)
  })
}

// ---------------------------------------------------------------------------------------------
// Frame: gold rim, hanging loop, stocking cuff

const RIM = 32

function goldGradient(id: string, box: Box, angle = 0.35) {
  const x1 = box.x
  const y1 = box.y
  const x2 = box.x + box.w
  const y2 = box.y + box.h * (1 + angle)
  return `<linearGradient id="${id}" gradientUnits="userSpaceOnUse" x1="${n(x1)}" y1="${n(y1)}" x2="${n(x2)}" y2="${n(y2)}">
    <stop offset="0" stop-color="#f7e08a"/><stop offset="0.18" stop-color="#c9982f"/><stop offset="0.38" stop-color="#fff1b8"/>
    <stop offset="0.55" stop-color="#b8862a"/><stop offset="0.75" stop-color="#f3d477"/><stop offset="1" stop-color="#9c6d1c"/></linearGradient>`
}

function rimSvg(o: Ornament) {
  const gid = `${o.id}-rimg`
  return `<defs>${goldGradient(gid, o.bbox)}</defs>
  <path d="${o.d}" fill="none" stroke="#6e4b10" stroke-opacity="0.55" stroke-width="${RIM + 6}" stroke-linejoin="round"/>
  <path d="${o.d}" fill="none" stroke="url(#${gid})" stroke-width="${RIM}" stroke-linejoin="round"/>
  <path d="${o.d}" fill="none" stroke="#fff6cf" stroke-opacity="0.55" stroke-width="5" stroke-linejoin="round"/>`
}

function loopSvg(o: Ornament) {
  const [ax, ay] = o.anchor
  const id = o.id
  const capW = 120
  const capH = 62
  const capTop = ay - capH + 18
  const ringCy = capTop - 20
  const ringR = 26
  const top = 16
  const ribbonW = 20
  return `<defs>
    <linearGradient id="${id}-capg" x1="0" y1="0" x2="1" y2="0">
      <stop offset="0" stop-color="#8d6218"/><stop offset="0.3" stop-color="#f6dc86"/><stop offset="0.55" stop-color="#c8972f"/><stop offset="0.8" stop-color="#f2d37a"/><stop offset="1" stop-color="#7d5512"/></linearGradient>
    <linearGradient id="${id}-ribg" x1="0" y1="0" x2="1" y2="0">
      <stop offset="0" stop-color="#7e0d17"/><stop offset="0.5" stop-color="#d8283a"/><stop offset="1" stop-color="#8a1020"/></linearGradient>
  </defs>
  <path d="M${n(ax - 12)} ${n(ringCy - ringR + 2)} C${n(ax - 110)} ${n(ringCy - 40)} ${n(ax - 80)} ${top} ${n(ax)} ${top} C${n(ax + 80)} ${top} ${n(ax + 110)} ${n(ringCy - 40)} ${n(ax + 12)} ${n(ringCy - ringR + 2)}"
    fill="none" stroke="#5a0810" stroke-width="${ribbonW + 5}" stroke-linecap="round"/>
  <path d="M${n(ax - 12)} ${n(ringCy - ringR + 2)} C${n(ax - 110)} ${n(ringCy - 40)} ${n(ax - 80)} ${top} ${n(ax)} ${top} C${n(ax + 80)} ${top} ${n(ax + 110)} ${n(ringCy - 40)} ${n(ax + 12)} ${n(ringCy - ringR + 2)}"
    fill="none" stroke="url(#${id}-ribg)" stroke-width="${ribbonW}" stroke-linecap="round"/>
  <path d="M${n(ax - 70)} ${n(top + 22)} C${n(ax - 40)} ${n(top + 4)} ${n(ax + 40)} ${n(top + 4)} ${n(ax + 70)} ${n(top + 22)}" fill="none" stroke="#ff8a94" stroke-opacity="0.6" stroke-width="4" stroke-linecap="round"/>
  <circle cx="${n(ax)}" cy="${n(ringCy)}" r="${ringR}" fill="none" stroke="#6e4b10" stroke-width="16"/>
  <circle cx="${n(ax)}" cy="${n(ringCy)}" r="${ringR}" fill="none" stroke="url(#${id}-capg)" stroke-width="11"/>
  <rect x="${n(ax - capW / 2)}" y="${n(capTop)}" width="${capW}" height="${capH}" rx="14" fill="url(#${id}-capg)" stroke="#6e4b10" stroke-width="4"/>
  ${[0.28, 0.5, 0.72].map((f) => `<line x1="${n(ax - capW / 2 + 8)}" x2="${n(ax + capW / 2 - 8)}" y1="${n(capTop + capH * f)}" y2="${n(capTop + capH * f)}" stroke="#7d5512" stroke-opacity="0.55" stroke-width="4"/>`).join('')}`
}

/** The stocking's white, fluffy cuff band: overlapping soft puffs clipped to the cuff. */
function cuffSvg(o: Ornament, rng: Rng) {
  const x0 = Math.min(o.extra.cuffBack!, o.extra.cuffFront!)
  const x1 = Math.max(o.extra.cuffBack!, o.extra.cuffFront!)
  const y0 = o.extra.cuffTop!
  const y1 = o.extra.cuffBottom! + 18
  const id = o.id
  const puffs: string[] = []
  // Many small soft tufts at random, then a row of bigger ones along the bottom edge.
  const tufts = Math.round(((x1 - x0) * (y1 - y0)) / 700)
  for (let i = 0; i < tufts; i++) {
    const x = between(rng, x0 - 10, x1 + 10)
    const y = between(rng, y0 + 10, y1 - 20)
    puffs.push(`<circle cx="${n(x)}" cy="${n(y)}" r="${n(between(rng, 18, 34))}" fill="url(#${id}-puff)"/>`)
  }
  for (let x = x0; x < x1 + 20; x += between(rng, 26, 38))
    puffs.push(`<circle cx="${n(x)}" cy="${n(y1 - 16 + between(rng, -8, 8))}" r="${n(between(rng, 30, 40))}" fill="url(#${id}-puff)"/>`)
  return `<defs>
    <radialGradient id="${id}-puff" cx="0.45" cy="0.4" r="0.55"><stop offset="0" stop-color="#ffffff"/><stop offset="0.55" stop-color="#faf8f4"/><stop offset="0.85" stop-color="#e9e4dc" stop-opacity="0.8"/><stop offset="1" stop-color="#e2ddd4" stop-opacity="0"/></radialGradient>
    <clipPath id="${id}-cuffclip"><path d="${o.d}"/></clipPath>
  </defs>
  <g clip-path="url(#${id}-cuffclip)">
    <rect x="${n(x0 - 20)}" y="${n(y0 - 10)}" width="${n(x1 - x0 + 40)}" height="${n(y1 - y0 - 10)}" fill="#f1ede6"/>
    ${puffs.join('')}
    <rect x="${n(x0 - 20)}" y="${n(y1 + 6)}" width="${n(x1 - x0 + 40)}" height="14" fill="#000" fill-opacity="0.12"/>
  </g>`
}

function frameSvg(shape: OrnamentShape, orns: Ornament[], withCuff: boolean) {
  const { width, height } = pseudoTemplates[shape]
  const rng = makeRng(seedOf(`cuff-${shape}`))
  const body = orns.map((o) => `${withCuff && o.shape === 'stocking' ? cuffSvg(o, rng) : ''}${rimSvg(o)}${loopSvg(o)}`).join('')
  return svgDoc(width, height, body)
}

function maskSvg(shape: OrnamentShape, orns: Ornament[]) {
  const { width, height } = pseudoTemplates[shape]
  return svgDoc(width, height, orns.map((o) => `<path d="${o.d}" fill="#000"/>`).join(''))
}

// ---------------------------------------------------------------------------------------------
// Pattern tiles (seamless: every element is drawn at its place and wrapped across the edges)

const T = PATTERN_TILE_SIZE

/** Draws `el(x, y)` at (x, y) and at the copies one tile away, so it wraps seamlessly. */
function wrapped(x: number, y: number, el: (x: number, y: number) => string) {
  let out = ''
  for (const ox of [-T, 0, T])
    for (const oy of [-T, 0, T]) {
      const X = x + ox
      const Y = y + oy
      if (X > -60 && X < T + 60 && Y > -60 && Y < T + 60) out += el(X, Y)
    }
  return out
}

function patternSvg(shape: OrnamentShape): Buffer {
  const rng = makeRng(seedOf(`pattern-${shape}`))
  let body = ''
  if (shape === 'tree') {
    body += `<rect width="${T}" height="${T}" fill="#1d5631"/>`
    // Soft darker and lighter needle strokes.
    for (let i = 0; i < 46; i++) {
      const x = rng() * T
      const y = rng() * T
      const a = between(rng, -0.9, 0.9) + (i % 2 ? Math.PI / 2 : 0)
      const len = between(rng, 9, 16)
      const col = pick(rng, ['#174a29', '#24683b', '#2a7444', '#163f25'])
      body += wrapped(
        x,
        y,
        (X, Y) =>
          `<line x1="${n(X)}" y1="${n(Y)}" x2="${n(X + Math.cos(a) * len)}" y2="${n(Y + Math.sin(a) * len)}" stroke="${col}" stroke-width="2.4" stroke-linecap="round"/>`,
      )
    }
    // Small gold dots in a loose diagonal lattice.
    for (let i = 0; i < 4; i++)
      for (let j = 0; j < 4; j++) {
        const x = i * 40 + (j % 2) * 20 + between(rng, -4, 4)
        const y = j * 40 + 12 + between(rng, -4, 4)
        const r = between(rng, 2.2, 3.4)
        body += wrapped(
          x,
          y,
          (X, Y) =>
            `<circle cx="${n(X)}" cy="${n(Y)}" r="${n(r)}" fill="#e2bd55"/><circle cx="${n(X - r * 0.3)}" cy="${n(Y - r * 0.3)}" r="${n(r * 0.4)}" fill="#fff2b5"/>`,
        )
      }
  } else if (shape === 'star') {
    body += `<defs><radialGradient id="g" cx="0.5" cy="0.5" r="0.75"><stop offset="0" stop-color="#e0b84e"/><stop offset="1" stop-color="#cfa13a"/></radialGradient></defs>
      <rect width="${T}" height="${T}" fill="#d7ab43"/>`
    for (let i = 0; i < 260; i++) {
      const x = rng() * T
      const y = rng() * T
      const r = between(rng, 0.8, 2.2)
      const col = pick(rng, ['#f7e39a', '#b5852a', '#fff6d0', '#c49434', '#ecd07a', '#9e7220'])
      body += wrapped(x, y, (X, Y) => `<circle cx="${n(X)}" cy="${n(Y)}" r="${n(r)}" fill="${col}"/>`)
    }
    for (let i = 0; i < 5; i++) {
      const x = rng() * T
      const y = rng() * T
      const s = between(rng, 5, 9)
      body += wrapped(
        x,
        y,
        (X, Y) =>
          `<path d="M${n(X)} ${n(Y - s)}Q${n(X)} ${n(Y)} ${n(X + s)} ${n(Y)}Q${n(X)} ${n(Y)} ${n(X)} ${n(Y + s)}Q${n(X)} ${n(Y)} ${n(X - s)} ${n(Y)}Q${n(X)} ${n(Y)} ${n(X)} ${n(Y - s)}Z" fill="#fffbe8"/>`,
      )
    }
  } else {
    // Red and cream knit: rows of V stitches, a cream band with a small dotted motif.
    const st = 20
    body += `<rect width="${T}" height="${T}" fill="#a3141f"/>`
    for (let row = 0; row < T / st; row++)
      for (let col = 0; col < T / st; col++) {
        const band = row === 3 || row === 4
        const dot = (row === 3 && col % 4 === 1) || (row === 4 && col % 4 === 3)
        const colr = band && !dot ? '#f4ead8' : '#c51f2c'
        const shade = band && !dot ? '#d9cbb3' : '#8b101a'
        const x = col * st
        const y = row * st
        for (const s of [-1, 1])
          body += wrapped(
            x + st / 2 + (s * st) / 4.4,
            y + st / 2,
            (X, Y) =>
              `<ellipse cx="${n(X)}" cy="${n(Y)}" rx="${n(st / 4.6)}" ry="${n(st / 1.7)}" transform="rotate(${s * -28} ${n(X)} ${n(Y)})" fill="${colr}" stroke="${shade}" stroke-width="1.3"/>`,
          )
      }
  }
  return svgDoc(T, T, body)
}

// ---------------------------------------------------------------------------------------------
// Template preview: placeholder photos

function placeholderPhotoSvg(w: number, h: number, variant: number) {
  const tones = variant === 0 ? ['#fde6cc', '#f4ad86'] : ['#ffe9cf', '#f0a09a']
  const cx = w / 2
  const s = Math.min(w, h) / 1000
  const bottom = h + 40 // bodies run off the bottom edge, like a portrait
  /** Head and shoulders: a circle over a rounded-top body. */
  const person = (x: number, top: number, headR: number, bodyW: number, col: string, edge = 'none') =>
    `<g fill="${col}" stroke="${edge}" stroke-width="${n(14 * s)}"><rect x="${n(x - bodyW / 2)}" y="${n(top + headR * 2.3)}" width="${n(bodyW)}" height="${n(bottom - top - headR * 2.3)}" rx="${n(bodyW * 0.42)}"/>
     <circle cx="${n(x)}" cy="${n(top + headR)}" r="${n(headR)}"/></g>`
  const base = h * 0.6
  return svgDoc(
    w,
    h,
    `<defs><linearGradient id="p" x1="0" y1="0" x2="0.4" y2="1"><stop offset="0" stop-color="${tones[0]}"/><stop offset="1" stop-color="${tones[1]}"/></linearGradient>
     <radialGradient id="sun" cx="0.72" cy="0.2" r="0.5"><stop offset="0" stop-color="#fffaf0" stop-opacity="0.95"/><stop offset="1" stop-color="#fffaf0" stop-opacity="0"/></radialGradient></defs>
     <rect width="${w}" height="${h}" fill="url(#p)"/><rect width="${w}" height="${h}" fill="url(#sun)"/>
     <path d="M0 ${n(h * 0.8)}Q${n(w * 0.5)} ${n(h * 0.7)} ${w} ${n(h * 0.78)}L${w} ${h}L0 ${h}Z" fill="#fff" fill-opacity="0.22"/>
     <g opacity="0.9">
     ${person(cx - 205 * s, base - 250 * s, 92 * s, 270 * s, '#fff3e6')}
     ${person(cx + 205 * s, base - 215 * s, 86 * s, 255 * s, '#fff3e6')}
     ${person(cx, base + 10 * s, 70 * s, 195 * s, '#ffffff', tones[1])}
     </g>`,
  )
}

// ---------------------------------------------------------------------------------------------
// Motifs shared by the back-side designs (all sizes in template pixels)

const grow = (b: Box, m: number): Box => ({ x: b.x - m, y: b.y - m, w: b.w + 2 * m, h: b.h + 2 * m })
const rectOf = (b: Box, fill: string, extra = '') => `<rect x="${n(b.x)}" y="${n(b.y)}" width="${n(b.w)}" height="${n(b.h)}" fill="${fill}" ${extra}/>`
const stopsOf = (stops: [number, string, number?][]) =>
  stops.map(([o, c, a]) => `<stop offset="${o}" stop-color="${c}"${a === undefined ? '' : ` stop-opacity="${a}"`}/>`).join('')
const linear = (id: string, x1: number, y1: number, x2: number, y2: number, stops: [number, string, number?][], user = true) =>
  `<linearGradient id="${id}" ${user ? 'gradientUnits="userSpaceOnUse" ' : ''}x1="${n(x1)}" y1="${n(y1)}" x2="${n(x2)}" y2="${n(y2)}">${stopsOf(stops)}</linearGradient>`
const radial = (id: string, cx: number, cy: number, r: number, stops: [number, string, number?][], user = true) =>
  `<radialGradient id="${id}" ${user ? 'gradientUnits="userSpaceOnUse" ' : ''}cx="${n(cx)}" cy="${n(cy)}" r="${n(r)}">${stopsOf(stops)}</radialGradient>`

/** Points scattered over a box, kept `gap` apart where possible (dart throwing, seeded). */
function scatter(rng: Rng, box: Box, count: number, gap: number, inside?: (x: number, y: number) => boolean): Pt[] {
  const out: Pt[] = []
  for (let tries = 0; out.length < count && tries < count * 60; tries++) {
    const p: Pt = [box.x + rng() * box.w, box.y + rng() * box.h]
    if (inside && !inside(p[0], p[1])) continue
    if (out.every((q) => Math.hypot(q[0] - p[0], q[1] - p[1]) >= gap)) out.push(p)
  }
  return out
}

function snowflakePath(size: number) {
  let d = ''
  for (let k = 0; k < 6; k++) {
    const a = (k * Math.PI) / 3
    const ux = Math.sin(a)
    const uy = -Math.cos(a)
    d += `M0 0L${n(size * ux)} ${n(size * uy)}`
    for (const [f, bl] of [
      [0.45, 0.32],
      [0.72, 0.22],
    ] as const) {
      const bx = f * size * ux
      const by = f * size * uy
      for (const s of [-1, 1]) {
        const b = a + (s * Math.PI) / 4
        d += `M${n(bx)} ${n(by)}L${n(bx + bl * size * Math.sin(b))} ${n(by - bl * size * Math.cos(b))}`
      }
    }
  }
  return d
}
const snowflake = (x: number, y: number, size: number, rot: number, sw: number, color = '#fff', opacity = 1) =>
  `<path d="${snowflakePath(size)}" transform="translate(${n(x)} ${n(y)}) rotate(${n(rot)})" fill="none" stroke="${color}" stroke-width="${n(sw)}" stroke-linecap="round" opacity="${op(opacity)}"/>`

function starPath(x: number, y: number, R: number, r: number, rot = 0, points = 5) {
  const pts: string[] = []
  for (let k = 0; k < points * 2; k++) {
    const a = (k * Math.PI) / points + (rot * Math.PI) / 180
    const rad = k % 2 === 0 ? R : r
    pts.push(`${n(x + rad * Math.sin(a))} ${n(y - rad * Math.cos(a))}`)
  }
  return `M${pts.join('L')}Z`
}
const sparkle = (x: number, y: number, s: number, fill: string, opacity = 1) =>
  `<path d="M${n(x)} ${n(y - s)}Q${n(x + s * 0.12)} ${n(y - s * 0.12)} ${n(x + s)} ${n(y)}Q${n(x + s * 0.12)} ${n(y + s * 0.12)} ${n(x)} ${n(y + s)}Q${n(x - s * 0.12)} ${n(y + s * 0.12)} ${n(x - s)} ${n(y)}Q${n(x - s * 0.12)} ${n(y - s * 0.12)} ${n(x)} ${n(y - s)}Z" fill="${fill}" opacity="${opacity}"/>`

const BAUBLES: Record<string, [string, string, string]> = {
  red: ['#ff9a9a', '#d0142c', '#5e0510'],
  gold: ['#fff4bf', '#d9a83a', '#6e4b0c'],
  blue: ['#b5dcff', '#2a6fd0', '#0b2357'],
  green: ['#b6f5c2', '#1f9a45', '#083a1c'],
  silver: ['#ffffff', '#c3ccd6', '#5d6977'],
  purple: ['#ecc6ff', '#8a3fc7', '#33104f'],
  pink: ['#ffd3e6', '#e8588f', '#6d1437'],
}
const baubleDefs = (p: string) =>
  Object.entries(BAUBLES)
    .map(
      ([k, [hi, mid, lo]]) =>
        `<radialGradient id="${p}-b-${k}" cx="0.36" cy="0.32" r="0.78" fx="0.3" fy="0.26">${stopsOf([
          [0, hi],
          [0.45, mid],
          [1, lo],
        ])}</radialGradient>`,
    )
    .join('') +
  `<linearGradient id="${p}-cap" x1="0" y1="0" x2="1" y2="0">${stopsOf([
    [0, '#7a5512'],
    [0.35, '#f6dc86'],
    [0.65, '#c8972f'],
    [1, '#6e4b10'],
  ])}</linearGradient>`

function bauble(p: string, x: number, y: number, r: number, col: string, hang = 0) {
  const capW = r * 0.56
  const capH = r * 0.32
  const capY = y - r * 0.98 - capH * 0.6
  const string =
    hang > 0
      ? `<line x1="${n(x)}" y1="${n(capY - hang)}" x2="${n(x)}" y2="${n(capY - r * 0.12)}" stroke="#e9d8a6" stroke-width="${n(Math.max(3, r * 0.05))}"/>`
      : ''
  return `${string}<circle cx="${n(x)}" cy="${n(capY - r * 0.1)}" r="${n(r * 0.12)}" fill="none" stroke="#b8862a" stroke-width="${n(r * 0.06)}"/>
  <circle cx="${n(x)}" cy="${n(y)}" r="${n(r)}" fill="url(#${p}-b-${col})"/>
  <path d="M${n(x - r * 0.96)} ${n(y + r * 0.1)}Q${n(x)} ${n(y + r * 0.42)} ${n(x + r * 0.96)} ${n(y + r * 0.1)}" fill="none" stroke="#fff" stroke-opacity="0.35" stroke-width="${n(r * 0.09)}"/>
  <ellipse cx="${n(x - r * 0.35)}" cy="${n(y - r * 0.38)}" rx="${n(r * 0.22)}" ry="${n(r * 0.13)}" transform="rotate(-35 ${n(x - r * 0.35)} ${n(y - r * 0.38)})" fill="#fff" opacity="0.7"/>
  <rect x="${n(x - capW / 2)}" y="${n(capY)}" width="${n(capW)}" height="${n(capH)}" rx="${n(capH * 0.25)}" fill="url(#${p}-cap)"/>`
}

let uid = 0
/** A candy cane in local units: shaft from (0, h) up to the hook of radius R, stripes at an angle. */
function candyCane(p: string, x: number, y: number, h: number, R: number, w: number, rot: number, flip = 1) {
  const id = `${p}-cane${uid++}`
  const d = `M0 ${n(h)}L0 ${n(R)}A${n(R)} ${n(R)} 0 0 0 ${n(-2 * R)} ${n(R)}L${n(-2 * R)} ${n(R * 1.5)}`
  const period = w * 1.25
  return `<defs>
    <mask id="${id}-m" maskUnits="userSpaceOnUse" x="${n(-3 * R - w)}" y="${n(-w)}" width="${n(4 * R + 3 * w)}" height="${n(h + 2 * w)}"><path d="${d}" fill="none" stroke="#fff" stroke-width="${n(w)}" stroke-linecap="round"/></mask>
    <pattern id="${id}-s" patternUnits="userSpaceOnUse" width="${n(period)}" height="${n(period)}" patternTransform="rotate(38)">
      <rect width="${n(period * 0.42)}" height="${n(period)}" fill="#d3102b"/><rect x="${n(period * 0.6)}" width="${n(period * 0.1)}" height="${n(period)}" fill="#1f8a46"/></pattern>
  </defs>
  <g transform="translate(${n(x)} ${n(y)}) rotate(${n(rot)}) scale(${flip} 1)">
    <path d="${d}" fill="none" stroke="#000" stroke-opacity="0.22" stroke-width="${n(w + 10)}" stroke-linecap="round" transform="translate(${n(w * 0.12)} ${n(w * 0.18)})"/>
    <path d="${d}" fill="none" stroke="#6b0a12" stroke-width="${n(w + 12)}" stroke-linecap="round"/>
    <path d="${d}" fill="none" stroke="#fffaf3" stroke-width="${n(w)}" stroke-linecap="round"/>
    <rect x="${n(-3 * R - w)}" y="${n(-w)}" width="${n(4 * R + 3 * w)}" height="${n(h + 2 * w)}" fill="url(#${id}-s)" mask="url(#${id}-m)"/>
    <path d="${d}" fill="none" stroke="#fff" stroke-opacity="0.4" stroke-width="${n(w * 0.16)}" stroke-linecap="round" transform="translate(${n(-w * 0.2)} 0)"/>
  </g>`
}

function hollyLeafPath(L: number, W: number) {
  const tips = [0, 0.18, 0.38, 0.58, 0.78, 1]
  const width = (t: number) => (t === 0 || t === 1 ? 0 : W * Math.sin(Math.PI * (0.15 + 0.8 * t)))
  const side = (s: number) => tips.map((t) => [t === 1 ? L * 1.08 : t * L, s * width(t)] as Pt)
  const top = side(-1)
  const bottom = side(1).reverse()
  let d = `M0 0`
  for (let i = 1; i < top.length; i++) {
    const a = top[i - 1]!
    const b = top[i]!
    d += `Q${n((a[0] + b[0]) / 2)} ${n(((a[1] + b[1]) / 2) * 0.35)} ${pt(b)}`
  }
  for (let i = 1; i < bottom.length; i++) {
    const a = bottom[i - 1]!
    const b = bottom[i]!
    d += `Q${n((a[0] + b[0]) / 2)} ${n(((a[1] + b[1]) / 2) * 0.35)} ${pt(b)}`
  }
  return d + 'Z'
}
const hollyDefs = (p: string) =>
  `${linear(
    `${p}-leaf`,
    0,
    0,
    0,
    1,
    [
      [0, '#2f8a45'],
      [0.5, '#1b6331'],
      [1, '#0d3d1d'],
    ],
    false,
  )}
   <radialGradient id="${p}-berry" cx="0.35" cy="0.32" r="0.75">${stopsOf([
     [0, '#ff8a8a'],
     [0.4, '#e0182d'],
     [1, '#7a0612'],
   ])}</radialGradient>`
function hollyLeaf(p: string, x: number, y: number, L: number, rot: number) {
  const W = L * 0.3
  return `<g transform="translate(${n(x)} ${n(y)}) rotate(${n(rot)})">
    <path d="${hollyLeafPath(L, W)}" fill="url(#${p}-leaf)" stroke="#0b3318" stroke-width="${n(L * 0.02)}" stroke-linejoin="round"/>
    <path d="M0 0Q${n(L * 0.5)} ${n(-L * 0.03)} ${n(L)} 0" fill="none" stroke="#8fd19e" stroke-opacity="0.8" stroke-width="${n(L * 0.025)}"/>
    ${[0.3, 0.5, 0.7].map((t) => `<path d="M${n(t * L)} 0L${n(t * L + L * 0.1)} ${n(-W * 0.5)}M${n(t * L)} 0L${n(t * L + L * 0.1)} ${n(W * 0.5)}" stroke="#8fd19e" stroke-opacity="0.45" stroke-width="${n(L * 0.012)}"/>`).join('')}
  </g>`
}
const berry = (p: string, x: number, y: number, r: number) =>
  `<circle cx="${n(x)}" cy="${n(y)}" r="${n(r)}" fill="url(#${p}-berry)" stroke="#5c0410" stroke-width="${n(r * 0.06)}"/><circle cx="${n(x - r * 0.35)}" cy="${n(y - r * 0.38)}" r="${n(r * 0.2)}" fill="#fff" opacity="0.75"/>`
function hollySprig(p: string, x: number, y: number, L: number, rot: number) {
  return `${hollyLeaf(p, x, y, L, rot - 150)}${hollyLeaf(p, x, y, L, rot - 30)}${hollyLeaf(p, x, y, L * 0.9, rot + 80)}
    ${berry(p, x - L * 0.12, y - L * 0.05, L * 0.13)}${berry(p, x + L * 0.12, y - L * 0.08, L * 0.13)}${berry(p, x, y + L * 0.1, L * 0.13)}`
}

/** A spruce branch from (x, y) in direction `ang` (degrees, 0 = right), with needles, side twigs and frost. */
type Branch = { dark: string; light: string; bright: string; frost: string; stems: string }
function spruceBranch(rng: Rng, x: number, y: number, ang: number, len: number, needle: number, depth = 0): Branch {
  const a = (ang * Math.PI) / 180
  const bend = between(rng, -0.2, 0.2)
  const p0: Pt = [x, y]
  const p2: Pt = [x + Math.cos(a) * len, y + Math.sin(a) * len]
  const p1: Pt = [x + Math.cos(a + bend) * len * 0.5, y + Math.sin(a + bend) * len * 0.5]
  const at = (t: number): Pt => [
    (1 - t) * (1 - t) * p0[0] + 2 * (1 - t) * t * p1[0] + t * t * p2[0],
    (1 - t) * (1 - t) * p0[1] + 2 * (1 - t) * t * p1[1] + t * t * p2[1],
  ]
  const b: Branch = { dark: '', light: '', bright: '', frost: '', stems: `M${pt(p0)}Q${pt(p1)} ${pt(p2)}` }
  const steps = Math.floor(len / 12)
  for (let i = 0; i <= steps; i++) {
    const t = i / steps
    const p = at(t)
    const q = at(Math.min(1, t + 0.01))
    const tang = Math.atan2(q[1] - p[1], q[0] - p[0]) || a
    const taper = Math.min(1, 0.55 + t * 2) * (t < 0.8 ? 1 : 1 - (t - 0.8) * 2.6)
    for (const s of [-1, 1]) {
      const na = tang + s * between(rng, 0.7, 1.05)
      const nl = needle * taper * between(rng, 0.85, 1.1)
      const e: Pt = [p[0] + Math.cos(na) * nl, p[1] + Math.sin(na) * nl]
      const d = `M${pt(p)}L${pt(e)}`
      if (s === 1) b.dark += d
      else if (rng() < 0.3) b.bright += d
      else b.light += d
      if (rng() < 0.12) b.frost += `M${pt(e)}h0.1`
    }
  }
  b.frost += `M${pt(p2)}h0.1`
  if (depth === 0) {
    for (const t of [0.2, 0.36, 0.52, 0.68]) {
      const p = at(t)
      for (const side of [-1, 1]) {
        if (rng() < 0.2) continue
        const sub = spruceBranch(rng, p[0], p[1], ang + side * between(rng, 36, 50), len * (0.4 - t * 0.3), needle * 0.85, 1)
        b.dark += sub.dark
        b.light += sub.light
        b.bright += sub.bright
        b.frost += sub.frost
        b.stems += sub.stems
      }
    }
  }
  return b
}
function spruceSvg(b: Branch, sw: number) {
  const line = (d: string, col: string, w: number, extra = '') =>
    `<path d="${d}" fill="none" stroke="${col}" stroke-width="${n(w)}" stroke-linecap="round" ${extra}/>`
  return `<g>${line(b.dark + b.light + b.bright, '#0b2a22', sw * 1.6, 'opacity="0.18" transform="translate(8 12)"')}
    ${line(b.stems, '#5e3b1e', sw * 1.5)}${line(b.dark, '#1c4a3e', sw)}${line(b.light, '#32735f', sw)}${line(b.bright, '#5d9c83', sw)}
    ${line(b.frost, '#ffffff', sw * 1.6, 'opacity="0.9"')}</g>`
}

function pinecone(x: number, y: number, len: number, rot: number) {
  const w = len * 0.55
  let scales = ''
  for (let row = 0; row < 7; row++) {
    const t = row / 6
    const ry = -len / 2 + len * 0.08 + t * len * 0.84
    const rowW = w * Math.sin(Math.PI * (0.12 + 0.76 * t)) * 0.5
    const cnt = 3 + (row % 2)
    for (let i = 0; i < cnt; i++) {
      const rx = -rowW + (cnt === 1 ? rowW : (2 * rowW * i) / (cnt - 1))
      scales += `<path d="M${n(rx - w * 0.16)} ${n(ry - len * 0.02)}Q${n(rx)} ${n(ry + len * 0.14)} ${n(rx + w * 0.16)} ${n(ry - len * 0.02)}Q${n(rx)} ${n(ry + len * 0.04)} ${n(rx - w * 0.16)} ${n(ry - len * 0.02)}Z" fill="#8a5a2b" stroke="#3e2410" stroke-width="${n(len * 0.012)}"/>`
    }
  }
  return `<g transform="translate(${n(x)} ${n(y)}) rotate(${n(rot)})"><ellipse rx="${n(w / 2)}" ry="${n(len / 2)}" fill="#5c3817"/>${scales}</g>`
}

/** A bow centred on (x, y), `s` is half its width. */
function bow(x: number, y: number, s: number, col: string, dark: string, tails = true) {
  const loop = (f: number) =>
    `<path d="M0 0C${n(f * -0.45 * s)} ${n(-0.62 * s)} ${n(f * -1.1 * s)} ${n(-0.55 * s)} ${n(f * -1.0 * s)} ${n(0.02 * s)}C${n(f * -0.92 * s)} ${n(0.42 * s)} ${n(f * -0.42 * s)} ${n(0.28 * s)} 0 0Z" fill="${col}" stroke="${dark}" stroke-width="${n(s * 0.05)}" stroke-linejoin="round"/>
     <path d="M${n(f * -0.15 * s)} ${n(-0.05 * s)}C${n(f * -0.45 * s)} ${n(-0.32 * s)} ${n(f * -0.8 * s)} ${n(-0.3 * s)} ${n(f * -0.78 * s)} ${n(-0.02 * s)}" fill="none" stroke="${dark}" stroke-opacity="0.5" stroke-width="${n(s * 0.05)}"/>`
  const tail = (f: number) =>
    `<path d="M${n(f * 0.05 * s)} ${n(0.05 * s)}L${n(f * 0.5 * s)} ${n(0.95 * s)}L${n(f * 0.35 * s)} ${n(0.86 * s)}L${n(f * 0.27 * s)} ${n(1.02 * s)}L${n(f * -0.1 * s)} ${n(0.12 * s)}Z" fill="${col}" stroke="${dark}" stroke-width="${n(s * 0.05)}" stroke-linejoin="round"/>`
  return `<g transform="translate(${n(x)} ${n(y)})">${tails ? tail(-1) + tail(1) : ''}${loop(1)}${loop(-1)}
    <ellipse rx="${n(s * 0.2)}" ry="${n(s * 0.17)}" fill="${col}" stroke="${dark}" stroke-width="${n(s * 0.05)}"/><ellipse cx="${n(-s * 0.05)}" cy="${n(-s * 0.05)}" rx="${n(s * 0.07)}" ry="${n(s * 0.04)}" fill="#fff" opacity="0.45"/></g>`
}

function gift(x: number, y: number, w: number, h: number, col: string, dark: string, ribbon: string) {
  const lid = h * 0.22
  return `<g>
    <rect x="${n(x)}" y="${n(y + lid * 0.6)}" width="${n(w)}" height="${n(h - lid * 0.6)}" fill="${col}" stroke="${dark}" stroke-width="${n(w * 0.02)}"/>
    <rect x="${n(x + w * 0.55)}" y="${n(y + lid * 0.6)}" width="${n(w * 0.45)}" height="${n(h - lid * 0.6)}" fill="#000" opacity="0.15"/>
    <rect x="${n(x + w * 0.42)}" y="${n(y)}" width="${n(w * 0.16)}" height="${n(h)}" fill="${ribbon}"/>
    <rect x="${n(x - w * 0.04)}" y="${n(y)}" width="${n(w * 1.08)}" height="${n(lid)}" rx="${n(lid * 0.12)}" fill="${col}" stroke="${dark}" stroke-width="${n(w * 0.02)}"/>
    <rect x="${n(x + w * 0.42)}" y="${n(y)}" width="${n(w * 0.16)}" height="${n(lid)}" fill="${ribbon}"/>
    ${bow(x + w / 2, y - w * 0.02, w * 0.3, ribbon, dark, false)}
  </g>`
}

/** A mitten with its thumb to the right (flip = -1 mirrors it); `s` is its height. */
function mitten(x: number, y: number, s: number, flip: number, col: string, dark: string, trim: string) {
  const u = (v: number) => n(v * s)
  return `<g transform="translate(${n(x)} ${n(y)}) scale(${flip} 1)">
    <path d="M${u(-0.28)} ${u(0.3)}L${u(-0.3)} ${u(-0.18)}C${u(-0.31)} ${u(-0.55)} ${u(0.27)} ${u(-0.55)} ${u(0.27)} ${u(-0.18)}L${u(0.27)} ${u(-0.06)}C${u(0.37)} ${u(-0.2)} ${u(0.52)} ${u(-0.1)} ${u(0.45)} ${u(0.02)}L${u(0.3)} ${u(0.24)}L${u(0.27)} ${u(0.3)}Z" fill="${col}" stroke="${dark}" stroke-width="${u(0.02)}" stroke-linejoin="round"/>
    <path d="M${u(-0.29)} ${u(0.05)}L${u(-0.2)} ${u(-0.02)}L${u(-0.1)} ${u(0.05)}L${u(0)} ${u(-0.02)}L${u(0.1)} ${u(0.05)}L${u(0.2)} ${u(-0.02)}L${u(0.28)} ${u(0.04)}" fill="none" stroke="${trim}" stroke-width="${u(0.035)}" stroke-linejoin="round"/>
    <path d="M${u(-0.29)} ${u(0.14)}L${u(-0.2)} ${u(0.07)}L${u(-0.1)} ${u(0.14)}L${u(0)} ${u(0.07)}L${u(0.1)} ${u(0.14)}L${u(0.2)} ${u(0.07)}L${u(0.28)} ${u(0.13)}" fill="none" stroke="${trim}" stroke-width="${u(0.035)}" stroke-linejoin="round"/>
    ${snowflake(-0.01 * s, -0.24 * s, 0.11 * s, 0, 0.022 * s, trim)}
    <rect x="${u(-0.33)}" y="${u(0.26)}" width="${u(0.64)}" height="${u(0.22)}" rx="${u(0.05)}" fill="${trim}" stroke="${dark}" stroke-width="${u(0.015)}"/>
    ${[-0.24, -0.14, -0.04, 0.06, 0.16].map((v) => `<line x1="${u(v + 0.04)}" x2="${u(v + 0.04)}" y1="${u(0.29)}" y2="${u(0.45)}" stroke="${dark}" stroke-opacity="0.25" stroke-width="${u(0.015)}"/>`).join('')}
  </g>`
}

function mug(x: number, y: number, s: number) {
  const u = (v: number) => n(v * s)
  return `<g transform="translate(${n(x)} ${n(y)})">
    ${[-0.16, 0, 0.16].map((v, i) => `<path d="M${u(v)} ${u(-0.36)}c${u(-0.08)} ${u(-0.08)} ${u(0.08)} ${u(-0.14)} 0 ${u(-0.22)}s${u(0.08)} ${u(-0.14)} 0 ${u(-0.22)}" fill="none" stroke="#fff" stroke-opacity="${0.75 - i * 0.1}" stroke-width="${u(0.035)}" stroke-linecap="round"/>`).join('')}
    <path d="M${u(0.28)} ${u(-0.18)}c${u(0.26)} ${u(-0.04)} ${u(0.3)} ${u(0.32)} ${u(0.02)} ${u(0.34)}" fill="none" stroke="#8e1420" stroke-width="${u(0.09)}" stroke-linecap="round"/>
    <path d="M${u(-0.34)} ${u(-0.28)}L${u(0.34)} ${u(-0.28)}L${u(0.3)} ${u(0.3)}Q${u(0.29)} ${u(0.4)} ${u(0.18)} ${u(0.4)}L${u(-0.18)} ${u(0.4)}Q${u(-0.29)} ${u(0.4)} ${u(-0.3)} ${u(0.3)}Z" fill="#c81d2c" stroke="#6b0a12" stroke-width="${u(0.02)}"/>
    <rect x="${u(-0.325)}" y="${u(-0.02)}" width="${u(0.645)}" height="${u(0.14)}" fill="#fff6ea"/>
    ${[-0.2, 0, 0.2].map((v) => `<path d="${starPath(v * s, 0.05 * s, 0.05 * s, 0.022 * s)}" fill="#c81d2c"/>`).join('')}
    <ellipse cy="${u(-0.28)}" rx="${u(0.34)}" ry="${u(0.07)}" fill="#5a3016" stroke="#6b0a12" stroke-width="${u(0.02)}"/>
    <rect x="${u(-0.2)}" y="${u(-0.36)}" width="${u(0.12)}" height="${u(0.1)}" rx="${u(0.02)}" fill="#fffdf8" transform="rotate(-12 ${u(-0.14)} ${u(-0.31)})"/>
    <rect x="${u(0.02)}" y="${u(-0.38)}" width="${u(0.12)}" height="${u(0.1)}" rx="${u(0.02)}" fill="#fff4f4" transform="rotate(10 ${u(0.08)} ${u(-0.33)})"/>
    <rect x="${u(-0.26)}" y="${u(-0.22)}" width="${u(0.06)}" height="${u(0.44)}" rx="${u(0.03)}" fill="#fff" opacity="0.25"/>
  </g>`
}

/** A quadratic "string" from a to b sagging by `sag`, and a point at t on it. */
function swag(a: Pt, b: Pt, sag: number) {
  const c: Pt = [(a[0] + b[0]) / 2, (a[1] + b[1]) / 2 + sag * 2]
  const at = (t: number): Pt => [
    (1 - t) * (1 - t) * a[0] + 2 * (1 - t) * t * c[0] + t * t * b[0],
    (1 - t) * (1 - t) * a[1] + 2 * (1 - t) * t * c[1] + t * t * b[1],
  ]
  return { d: `M${pt(a)}Q${pt(c)} ${pt(b)}`, at }
}

function bunting(a: Pt, b: Pt, sag: number, flag: number, colors: string[], line = '#f4e7c8') {
  const s = swag(a, b, sag)
  const count = Math.max(3, Math.round(Math.hypot(b[0] - a[0], b[1] - a[1]) / (flag * 1.12)))
  let out = ''
  for (let i = 0; i < count; i++) {
    const t = (i + 0.5) / count
    const p = s.at(t)
    const col = colors[i % colors.length]!
    out += `<path d="M${n(p[0] - flag / 2)} ${n(p[1])}L${n(p[0] + flag / 2)} ${n(p[1])}L${n(p[0])} ${n(p[1] + flag * 1.15)}Z" fill="${col}" stroke="#000" stroke-opacity="0.25" stroke-width="${n(flag * 0.03)}"/>
      <path d="M${n(p[0] - flag * 0.3)} ${n(p[1] + flag * 0.12)}L${n(p[0] + flag * 0.3)} ${n(p[1] + flag * 0.12)}" stroke="#fff" stroke-opacity="0.5" stroke-width="${n(flag * 0.06)}"/>
      <circle cx="${n(p[0])}" cy="${n(p[1] + flag * 0.42)}" r="${n(flag * 0.1)}" fill="#fff" opacity="0.55"/>`
  }
  return `<path d="${s.d}" fill="none" stroke="${line}" stroke-width="${n(flag * 0.05)}"/>${out}`
}

function lights(a: Pt, b: Pt, sag: number, bulb: number, rng: Rng) {
  const s = swag(a, b, sag)
  const count = Math.max(3, Math.round(Math.hypot(b[0] - a[0], b[1] - a[1]) / (bulb * 3.2)))
  const cols = ['#ff4d5e', '#ffd34d', '#4de07a', '#4db8ff', '#ff8a3d', '#d67bff']
  let glow = ''
  let bulbs = ''
  for (let i = 0; i < count; i++) {
    const t = (i + 0.5) / count
    const q = s.at(t)
    const col = cols[(i + Math.floor(rng() * 2)) % cols.length]!
    const ang = between(rng, -20, 20)
    bulbs += `<g transform="translate(${n(q[0])} ${n(q[1])}) rotate(${n(ang)})">
      <rect x="${n(-bulb * 0.32)}" y="0" width="${n(bulb * 0.64)}" height="${n(bulb * 0.55)}" rx="${n(bulb * 0.1)}" fill="#1e3b24"/>
      <ellipse cy="${n(bulb * 1.25)}" rx="${n(bulb * 0.55)}" ry="${n(bulb * 0.85)}" fill="${col}"/>
      <ellipse cx="${n(-bulb * 0.18)}" cy="${n(bulb * 1.0)}" rx="${n(bulb * 0.15)}" ry="${n(bulb * 0.3)}" fill="#fff" opacity="0.6"/></g>`
    glow += `<circle cx="${n(q[0])}" cy="${n(q[1] + bulb * 1.2)}" r="${n(bulb * 2.4)}" fill="${col}" opacity="0.16"/>`
  }
  return `<path d="${s.d}" fill="none" stroke="#1e3b24" stroke-width="${n(bulb * 0.16)}"/>${glow}${bulbs}`
}

// ---------------------------------------------------------------------------------------------
// Back-side designs. Each draws one ornament's back in template pixels, around its bounding box;
// the sheet clips it to the silhouette and puts the rim and loop on top.

type Design = { name: string; palette: boolean; draw: (o: Ornament, rng: Rng) => string }

const bleed = (o: Ornament) => grow(o.bbox, 40)
/** The x centre of the part of the silhouette designs centre on (a stocking's leg). */
const midX = (o: Ornament) => (o.shape === 'stocking' ? o.core.x + o.core.w / 2 : o.cx)
const text = (x: number, y: number, size: number, fill: string, s: string, extra = '', family = 'DejaVu Serif, serif') =>
  `<text x="${n(x)}" y="${n(y)}" font-family="${family}" font-weight="bold" font-size="${n(size)}" text-anchor="middle" fill="${fill}" ${extra}>${s}</text>`

function santasWorkshop(o: Ornament, rng: Rng): string {
  const p = `${o.id}-sw`
  const B = bleed(o)
  const mx = midX(o)
  const sc = o.extra.scy ?? 0
  const L =
    o.shape === 'tree'
      ? {
          lamp: [mx, 420],
          sign: { x: mx - 300, y: 700, w: 600, h: 210 },
          win: { x: mx - 330, y: 975, w: 300, h: 290 },
          shelfY: 1210,
          shelfX: mx + 20,
          shelfW: 320,
          bench: 1340,
          floor: 1600,
          benchW: 880,
        }
      : o.shape === 'star'
        ? {
            lamp: [mx, sc - 420],
            sign: { x: mx - 430, y: sc - 300, w: 860, h: 200 },
            win: { x: mx - 300, y: sc - 60, w: 260, h: 250 },
            shelfY: sc + 150,
            shelfX: mx + 30,
            shelfW: 270,
            bench: sc + 290,
            floor: sc + 520,
            benchW: 700,
          }
        : {
            lamp: [mx, 300],
            sign: { x: mx - 390, y: 520, w: 780, h: 220 },
            win: { x: mx - 400, y: 820, w: 340, h: 330 },
            shelfY: 1100,
            shelfX: mx + 20,
            shelfW: 380,
            bench: 1330,
            floor: 1640,
            benchW: 1000,
          }
  const [lx, ly] = L.lamp as [number, number]
  const wood = ['#93613a', '#7f512d', '#8a5934']
  let planks = ''
  for (let i = 0; i < 3; i++) {
    planks += `<rect y="${i * 90}" width="540" height="90" fill="${wood[i]}"/>`
    planks += `<path d="M0 ${i * 90 + 30}q135 -10 270 0t270 0M0 ${i * 90 + 62}q135 8 270 0t270 0" fill="none" stroke="#5e3a1c" stroke-opacity="0.25" stroke-width="3"/>`
    const j = [170, 400, 80][i]!
    planks += `<line x1="${j}" x2="${j}" y1="${i * 90}" y2="${i * 90 + 90}" stroke="#4a2c15" stroke-width="6"/>`
    planks += `<circle cx="${j - 16}" cy="${i * 90 + 20}" r="4" fill="#3a2210"/><circle cx="${j + 16}" cy="${i * 90 + 70}" r="4" fill="#3a2210"/>`
    planks += `<line x1="0" x2="540" y1="${i * 90 + 1}" y2="${i * 90 + 1}" stroke="#4a2c15" stroke-width="6"/>`
  }
  const s = L.sign
  const w = L.win
  const teddy = (x: number, y: number, h: number) => {
    const u = (v: number) => n(v * h)
    return `<g transform="translate(${n(x)} ${n(y)})" fill="#a86b35" stroke="#5a3416" stroke-width="${u(0.02)}">
      <ellipse cx="0" cy="${u(-0.3)}" rx="${u(0.27)}" ry="${u(0.3)}"/><circle cx="${u(-0.26)}" cy="${u(-0.05)}" r="${u(0.1)}"/><circle cx="${u(0.26)}" cy="${u(-0.05)}" r="${u(0.1)}"/>
      <circle cx="${u(-0.19)}" cy="${u(-0.88)}" r="${u(0.09)}"/><circle cx="${u(0.19)}" cy="${u(-0.88)}" r="${u(0.09)}"/><circle cx="0" cy="${u(-0.72)}" r="${u(0.22)}"/>
      <ellipse cx="0" cy="${u(-0.66)}" rx="${u(0.1)}" ry="${u(0.07)}" fill="#e2b98a" stroke="none"/><circle cx="0" cy="${u(-0.69)}" r="${u(0.03)}" fill="#2a1608" stroke="none"/>
      <circle cx="${u(-0.08)}" cy="${u(-0.77)}" r="${u(0.025)}" fill="#2a1608" stroke="none"/><circle cx="${u(0.08)}" cy="${u(-0.77)}" r="${u(0.025)}" fill="#2a1608" stroke="none"/>
      <path d="M${u(-0.14)} ${u(-0.5)}L${u(0.14)} ${u(-0.5)}L${u(0.05)} ${u(-0.42)}L0 ${u(-0.5)}L${u(-0.05)} ${u(-0.42)}Z" fill="#d0142c" stroke="none"/></g>`
  }
  const block = (x: number, y: number, size: number, col: string, letter: string) =>
    `<rect x="${n(x)}" y="${n(y - size)}" width="${n(size)}" height="${n(size)}" rx="${n(size * 0.08)}" fill="${col}" stroke="#3a2210" stroke-width="${n(size * 0.04)}"/>${text(x + size / 2, y - size * 0.25, size * 0.62, '#fff', letter)}`
  const train = (x: number, y: number, len: number) => {
    const u = (v: number) => n(v * len)
    return `<g transform="translate(${n(x)} ${n(y)})">
      <rect x="${u(0.02)}" y="${u(-0.34)}" width="${u(0.55)}" height="${u(0.22)}" rx="${u(0.05)}" fill="#d0142c" stroke="#5e0510" stroke-width="${u(0.012)}"/>
      <rect x="${u(0.5)}" y="${u(-0.6)}" width="${u(0.34)}" height="${u(0.48)}" rx="${u(0.03)}" fill="#1f7a3d" stroke="#0b3318" stroke-width="${u(0.012)}"/>
      <rect x="${u(0.56)}" y="${u(-0.53)}" width="${u(0.22)}" height="${u(0.15)}" fill="#ffe08a"/>
      <rect x="${u(0.46)}" y="${u(-0.66)}" width="${u(0.42)}" height="${u(0.07)}" fill="#5e0510"/>
      <rect x="${u(0.12)}" y="${u(-0.55)}" width="${u(0.1)}" height="${u(0.21)}" fill="#2b2b2b"/><rect x="${u(0.09)}" y="${u(-0.6)}" width="${u(0.16)}" height="${u(0.06)}" fill="#2b2b2b"/>
      <path d="M${u(0.02)} ${u(-0.12)}L${u(-0.08)} ${u(-0.02)}L${u(0.02)} ${u(-0.02)}Z" fill="#e0b84e"/>
      ${[0.14, 0.36, 0.7].map((v) => `<circle cx="${u(v)}" cy="${u(-0.08)}" r="${u(0.085)}" fill="#2b2b2b"/><circle cx="${u(v)}" cy="${u(-0.08)}" r="${u(0.035)}" fill="#e0b84e"/>`).join('')}
    </g>`
  }
  const benchX = mx - L.benchW / 2
  return `<defs>
    <pattern id="${p}-planks" patternUnits="userSpaceOnUse" width="540" height="270">${planks}</pattern>
    ${radial(`${p}-glow`, lx, ly + 80, B.w * 0.75, [
      [0, '#ffdf8f', 0.75],
      [0.45, '#ffb950', 0.3],
      [1, '#ff9a30', 0],
    ])}
    ${radial(`${p}-vig`, mx, B.y + B.h * 0.5, Math.max(B.w, B.h) * 0.62, [
      [0.55, '#1c0d03', 0],
      [1, '#1c0d03', 0.55],
    ])}
    ${linear(`${p}-night`, 0, w.y, 0, w.y + w.h, [
      [0, '#0e1a40'],
      [1, '#2f4f8f'],
    ])}
    ${linear(`${p}-board`, 0, s.y, 0, s.y + s.h, [
      [0, '#b3281c'],
      [1, '#7d170f'],
    ])}
    ${linear(`${p}-bench`, 0, L.bench, 0, L.bench + 50, [
      [0, '#d19a5c'],
      [1, '#9a6634'],
    ])}
    ${radial(`${p}-bulb`, lx, ly + 60, 60, [
      [0, '#fffbe6'],
      [0.6, '#ffe28a'],
      [1, '#ffc94a'],
    ])}
  </defs>
  ${rectOf(B, `url(#${p}-planks)`)}
  ${rectOf({ x: B.x, y: L.floor, w: B.w, h: B.y + B.h - L.floor }, '#5b3a1f')}
  ${Array.from({ length: 8 }, (_, i) => `<line x1="${n(B.x)}" x2="${n(B.x + B.w)}" y1="${n(L.floor + 8 + i * 46)}" y2="${n(L.floor + 8 + i * 46)}" stroke="#3d2512" stroke-width="5"/>`).join('')}
  ${rectOf({ x: B.x, y: L.floor - 10, w: B.w, h: 22 }, '#4a2c15')}
  <!-- window with a snowy night outside -->
  <rect x="${n(w.x - 22)}" y="${n(w.y - 22)}" width="${n(w.w + 44)}" height="${n(w.h + 44)}" rx="10" fill="#4e2e14"/>
  <rect x="${n(w.x)}" y="${n(w.y)}" width="${n(w.w)}" height="${n(w.h)}" fill="url(#${p}-night)"/>
  <circle cx="${n(w.x + w.w * 0.74)}" cy="${n(w.y + w.h * 0.24)}" r="${n(w.w * 0.1)}" fill="#fff6cf"/>
  ${Array.from({ length: 22 }, () => `<circle cx="${n(w.x + rng() * w.w)}" cy="${n(w.y + rng() * w.h * 0.8)}" r="${n(between(rng, 3, 7))}" fill="#fff" opacity="0.85"/>`).join('')}
  <path d="M${n(w.x)} ${n(w.y + w.h * 0.8)}Q${n(w.x + w.w * 0.3)} ${n(w.y + w.h * 0.68)} ${n(w.x + w.w * 0.6)} ${n(w.y + w.h * 0.8)}T${n(w.x + w.w)} ${n(w.y + w.h * 0.76)}L${n(w.x + w.w)} ${n(w.y + w.h)}L${n(w.x)} ${n(w.y + w.h)}Z" fill="#eef5fb"/>
  <path d="M${n(w.x + w.w * 0.2)} ${n(w.y + w.h * 0.78)}l${n(w.w * 0.08)} ${n(-w.h * 0.22)}l${n(w.w * 0.08)} ${n(w.h * 0.22)}Z" fill="#1b4d2e"/>
  <rect x="${n(w.x + w.w / 2 - 8)}" y="${n(w.y)}" width="16" height="${n(w.h)}" fill="#4e2e14"/><rect x="${n(w.x)}" y="${n(w.y + w.h / 2 - 8)}" width="${n(w.w)}" height="16" fill="#4e2e14"/>
  <path d="M${n(w.x - 30)} ${n(w.y - 30)}L${n(w.x + w.w * 0.32)} ${n(w.y - 30)}Q${n(w.x + w.w * 0.1)} ${n(w.y + w.h * 0.3)} ${n(w.x - 10)} ${n(w.y + w.h * 0.55)}Z" fill="#b81f2a"/>
  <path d="M${n(w.x + w.w + 30)} ${n(w.y - 30)}L${n(w.x + w.w * 0.68)} ${n(w.y - 30)}Q${n(w.x + w.w * 0.9)} ${n(w.y + w.h * 0.3)} ${n(w.x + w.w + 10)} ${n(w.y + w.h * 0.55)}Z" fill="#b81f2a"/>
  <rect x="${n(w.x - 40)}" y="${n(w.y + w.h + 16)}" width="${n(w.w + 80)}" height="26" rx="6" fill="#6d4421"/>
  <!-- shelf with toys -->
  <rect x="${n(L.shelfX)}" y="${n(L.shelfY)}" width="${n(L.shelfW)}" height="22" fill="#6d4421" stroke="#3d2512" stroke-width="4"/>
  <path d="M${n(L.shelfX + 30)} ${n(L.shelfY + 22)}l0 40l40 -40ZM${n(L.shelfX + L.shelfW - 30)} ${n(L.shelfY + 22)}l0 40l-40 -40Z" fill="#4e2e14"/>
  ${teddy(L.shelfX + L.shelfW * 0.28, L.shelfY, L.shelfW * 0.62)}
  ${block(L.shelfX + L.shelfW * 0.56, L.shelfY, L.shelfW * 0.2, '#2a6fd0', 'A')}
  ${block(L.shelfX + L.shelfW * 0.77, L.shelfY, L.shelfW * 0.2, '#d0142c', 'B')}
  ${block(L.shelfX + L.shelfW * 0.665, L.shelfY - L.shelfW * 0.2, L.shelfW * 0.2, '#1f9a45', 'C')}
  <!-- workbench with a toy train, a hammer and a present -->
  <rect x="${n(benchX + 40)}" y="${n(L.bench + 40)}" width="34" height="${n(L.floor - L.bench)}" fill="#6a4222"/>
  <rect x="${n(benchX + L.benchW - 74)}" y="${n(L.bench + 40)}" width="34" height="${n(L.floor - L.bench)}" fill="#6a4222"/>
  <rect x="${n(benchX + 40)}" y="${n(L.bench + (L.floor - L.bench) * 0.7)}" width="${n(L.benchW - 80)}" height="22" fill="#5b3a1f"/>
  <rect x="${n(benchX)}" y="${n(L.bench)}" width="${n(L.benchW)}" height="50" rx="6" fill="url(#${p}-bench)" stroke="#4e2e14" stroke-width="5"/>
  ${train(benchX + L.benchW * 0.1, L.bench + 2, L.benchW * 0.34)}
  <g transform="rotate(-8 ${n(benchX + L.benchW * 0.55)} ${n(L.bench)})"><rect x="${n(benchX + L.benchW * 0.5)}" y="${n(L.bench - 26)}" width="${n(L.benchW * 0.16)}" height="16" rx="6" fill="#c8955a" stroke="#5b3a1f" stroke-width="3"/><rect x="${n(benchX + L.benchW * 0.64)}" y="${n(L.bench - 44)}" width="34" height="52" rx="5" fill="#8c969f" stroke="#3f464d" stroke-width="3"/></g>
  ${gift(benchX + L.benchW * 0.72, L.bench - L.benchW * 0.17, L.benchW * 0.17, L.benchW * 0.17, '#1f7a3d', '#0b3318', '#e0b84e')}
  <!-- hanging lamp and its warm light -->
  ${rectOf(B, `url(#${p}-glow)`)}
  <line x1="${n(lx)}" y1="${n(B.y)}" x2="${n(lx)}" y2="${n(ly)}" stroke="#2a1608" stroke-width="6"/>
  <circle cx="${n(lx)}" cy="${n(ly + 62)}" r="40" fill="url(#${p}-bulb)"/>
  <path d="M${n(lx - 28)} ${n(ly)}L${n(lx + 28)} ${n(ly)}L${n(lx + 95)} ${n(ly + 62)}L${n(lx - 95)} ${n(ly + 62)}Z" fill="#1f5a34" stroke="#0b3318" stroke-width="5"/>
  <!-- the sign -->
  <line x1="${n(s.x + s.w * 0.2)}" y1="${n(s.y - 90)}" x2="${n(s.x + s.w * 0.2)}" y2="${n(s.y + 10)}" stroke="#3a2210" stroke-width="7"/>
  <line x1="${n(s.x + s.w * 0.8)}" y1="${n(s.y - 90)}" x2="${n(s.x + s.w * 0.8)}" y2="${n(s.y + 10)}" stroke="#3a2210" stroke-width="7"/>
  <rect x="${n(s.x + 8)}" y="${n(s.y + 12)}" width="${n(s.w)}" height="${n(s.h)}" rx="22" fill="#000" opacity="0.3"/>
  <rect x="${n(s.x)}" y="${n(s.y)}" width="${n(s.w)}" height="${n(s.h)}" rx="22" fill="url(#${p}-board)" stroke="#e2b955" stroke-width="10"/>
  <rect x="${n(s.x + 18)}" y="${n(s.y + 18)}" width="${n(s.w - 36)}" height="${n(s.h - 36)}" rx="14" fill="none" stroke="#e2b955" stroke-opacity="0.6" stroke-width="3"/>
  ${text(s.x + s.w / 2, s.y + s.h * 0.43, s.h * 0.3, '#fff1cf', 'SANTA&#8217;S', 'letter-spacing="4"')}
  ${text(s.x + s.w / 2, s.y + s.h * 0.82, Math.min(s.h * 0.34, s.w * 0.125), '#ffd972', 'WORKSHOP', 'letter-spacing="3"')}
  <path d="M${n(s.x + 6)} ${n(s.y + 8)}Q${n(s.x + s.w * 0.15)} ${n(s.y - 26)} ${n(s.x + s.w * 0.3)} ${n(s.y - 6)}Q${n(s.x + s.w * 0.45)} ${n(s.y - 30)} ${n(s.x + s.w * 0.62)} ${n(s.y - 8)}Q${n(s.x + s.w * 0.8)} ${n(s.y - 28)} ${n(s.x + s.w - 6)} ${n(s.y + 8)}Q${n(s.x + s.w * 0.5)} ${n(s.y + 22)} ${n(s.x + 6)} ${n(s.y + 8)}Z" fill="#fbfdff"/>
  ${['sideL', 'sideR', 'legL', 'legR']
    .map((k) => o.spots[k])
    .filter((sp): sp is Spot => !!sp && sp.y > L.floor - 60)
    .map((sp, i) =>
      gift(
        sp.x - sp.s * 0.45,
        Math.min(sp.y, B.y + B.h - sp.s) - sp.s * 0.3,
        sp.s * 0.9,
        sp.s * 0.8,
        ['#d0142c', '#2a6fd0', '#8a3fc7', '#1f7a3d'][i % 4]!,
        '#3a0a0a',
        i % 2 ? '#ffffff' : '#e0b84e',
      ),
    )
    .join('')}
  ${rectOf(B, `url(#${p}-vig)`)}`
}

function northPole(o: Ornament, rng: Rng): string {
  const p = `${o.id}-np`
  const B = bleed(o)
  const mx = midX(o)
  const sc = o.extra.scy ?? 0
  const L =
    o.shape === 'tree'
      ? { top: 330, ground: 1430, sign: { y: 760, w: 640, h: 170 } }
      : o.shape === 'star'
        ? { top: sc - 560, ground: sc + 250, sign: { y: sc - 260, w: 880, h: 190 } }
        : { top: 250, ground: 1450, sign: { y: 640, w: 780, h: 200 } }
  const pw = 72
  const s = L.sign
  const sx = mx - s.w / 2 + (o.shape === 'stocking' ? 0 : 0)
  const tip = s.h * 0.42
  const board = roundedPolygon(
    [
      [sx, s.y],
      [sx + s.w - tip, s.y],
      [sx + s.w, s.y + s.h / 2],
      [sx + s.w - tip, s.y + s.h],
      [sx, s.y + s.h],
    ],
    14,
  )
  const flakes = scatter(rng, B, 120, 38, (x, y) => !(y > s.y - 40 && y < s.y + s.h + 20 && x > mx - s.w / 2 - 20 && x < mx + s.w / 2 + 20))
  let trees = ''
  for (const [dx, h] of [
    [-0.42, 220],
    [-0.3, 160],
    [0.32, 190],
    [0.44, 250],
  ] as const) {
    const x = mx + dx * B.w
    trees += `<path d="M${n(x)} ${n(L.ground - h)}L${n(x + h * 0.32)} ${n(L.ground + 10)}L${n(x - h * 0.32)} ${n(L.ground + 10)}Z" fill="#2f5e48"/><path d="M${n(x)} ${n(L.ground - h)}L${n(x + h * 0.12)} ${n(L.ground - h * 0.62)}L${n(x - h * 0.12)} ${n(L.ground - h * 0.62)}Z" fill="#fff" opacity="0.85"/>`
  }
  return `<defs>
    ${linear(`${p}-sky`, 0, B.y, 0, L.ground, [
      [0, '#2f5f9e'],
      [0.6, '#6fa5d8'],
      [1, '#cfe7f7'],
    ])}
    <pattern id="${p}-stripes" patternUnits="userSpaceOnUse" width="80" height="80" patternTransform="rotate(-32)"><rect width="80" height="80" fill="#fdfbf7"/><rect width="38" height="80" fill="#d3102b"/></pattern>
    ${linear(`${p}-tube`, mx - pw / 2, 0, mx + pw / 2, 0, [
      [0, '#000', 0.35],
      [0.35, '#fff', 0.25],
      [0.55, '#fff', 0],
      [1, '#000', 0.4],
    ])}
    ${radial(`${p}-ball`, mx - 18, L.top - 78, 70, [
      [0, '#fff6c8'],
      [0.5, '#e6b84a'],
      [1, '#8a5f12'],
    ])}
    ${linear(`${p}-wood`, 0, s.y, 0, s.y + s.h, [
      [0, '#e6bb83'],
      [1, '#b47c44'],
    ])}
    ${linear(`${p}-snow`, 0, L.ground, 0, B.y + B.h, [
      [0, '#ffffff'],
      [1, '#d3e4f2'],
    ])}
  </defs>
  ${rectOf(B, `url(#${p}-sky)`)}
  ${trees}
  <path d="M${n(B.x)} ${n(L.ground + 20)}Q${n(B.x + B.w * 0.25)} ${n(L.ground - 50)} ${n(B.x + B.w * 0.5)} ${n(L.ground + 10)}T${n(B.x + B.w)} ${n(L.ground - 10)}L${n(B.x + B.w)} ${n(B.y + B.h)}L${n(B.x)} ${n(B.y + B.h)}Z" fill="url(#${p}-snow)"/>
  <path d="M${n(B.x)} ${n(L.ground + 140)}Q${n(B.x + B.w * 0.35)} ${n(L.ground + 80)} ${n(B.x + B.w * 0.7)} ${n(L.ground + 150)}" fill="none" stroke="#bcd4ea" stroke-width="10" stroke-linecap="round"/>
  <rect x="${n(mx - pw / 2)}" y="${n(L.top)}" width="${pw}" height="${n(L.ground - L.top + 30)}" fill="url(#${p}-stripes)"/>
  <rect x="${n(mx - pw / 2)}" y="${n(L.top)}" width="${pw}" height="${n(L.ground - L.top + 30)}" fill="url(#${p}-tube)"/>
  <rect x="${n(mx - pw / 2 - 10)}" y="${n(L.top - 12)}" width="${pw + 20}" height="24" rx="8" fill="#c8972f"/>
  <circle cx="${n(mx)}" cy="${n(L.top - 62)}" r="62" fill="url(#${p}-ball)"/>
  <path d="M${n(mx - 220)} ${n(L.ground + 70)}C${n(mx - 150)} ${n(L.ground - 10)} ${n(mx - 60)} ${n(L.ground - 20)} ${n(mx)} ${n(L.ground - 8)}C${n(mx + 60)} ${n(L.ground - 20)} ${n(mx + 150)} ${n(L.ground - 10)} ${n(mx + 220)} ${n(L.ground + 70)}Z" fill="#fff"/>
  <path d="M${n(mx + 20)} ${n(L.ground + 10)}C${n(mx + 90)} ${n(L.ground + 10)} ${n(mx + 160)} ${n(L.ground + 30)} ${n(mx + 200)} ${n(L.ground + 66)}" fill="none" stroke="#cfe0ef" stroke-width="12" stroke-linecap="round"/>
  <rect x="${n(mx - pw / 2 - 8)}" y="${n(s.y + s.h * 0.2)}" width="${pw + 16}" height="${n(s.h * 0.6)}" fill="#6b4423"/>
  <path d="${board}" fill="#000" opacity="0.3" transform="translate(10 14)"/>
  <path d="${board}" fill="url(#${p}-wood)" stroke="#5a3416" stroke-width="9"/>
  <path d="M${n(sx + 20)} ${n(s.y + s.h * 0.3)}q${n(s.w * 0.25)} -10 ${n(s.w * 0.5)} 0t${n(s.w * 0.35)} 0M${n(sx + 30)} ${n(s.y + s.h * 0.75)}q${n(s.w * 0.25)} 8 ${n(s.w * 0.5)} 0t${n(s.w * 0.3)} 0" fill="none" stroke="#8a5a2b" stroke-opacity="0.35" stroke-width="4"/>
  <circle cx="${n(sx + 30)}" cy="${n(s.y + s.h / 2)}" r="9" fill="#5a3416"/>
  ${text(sx + (s.w - tip * 0.6) / 2, s.y + s.h * 0.66, Math.min(s.h * 0.46, (s.w - tip) * 0.118), '#8c1420', 'NORTH POLE', 'letter-spacing="3"', 'DejaVu Sans, sans-serif')}
  <path d="M${n(sx + 4)} ${n(s.y + 6)}Q${n(sx + s.w * 0.2)} ${n(s.y - 30)} ${n(sx + s.w * 0.4)} ${n(s.y - 4)}Q${n(sx + s.w * 0.6)} ${n(s.y - 26)} ${n(sx + s.w * 0.82)} ${n(s.y + 4)}Q${n(sx + s.w * 0.45)} ${n(s.y + 16)} ${n(sx + 4)} ${n(s.y + 6)}Z" fill="#fff"/>
  ${flakes.map(([x, y]) => `<circle cx="${n(x)}" cy="${n(y)}" r="${n(between(rng, 4, 11))}" fill="#fff" opacity="${op(between(rng, 0.6, 1))}"/>`).join('')}`
}

function candyCaneDesign(o: Ornament): string {
  const p = `${o.id}-cc`
  const B = bleed(o)
  const mx = midX(o)
  const sc = o.extra.scy ?? 0
  const big =
    o.shape === 'tree'
      ? { top: 520, h: 1000, R: 115, w: 78, d: 80 }
      : o.shape === 'star'
        ? { top: sc - 470, h: 860, R: 105, w: 74, d: 70 }
        : { top: 470, h: 1150, R: 135, w: 90, d: 95 }
  const ang = 11
  const crossY = big.top + big.d / Math.sin((ang * Math.PI) / 180)
  const smalls = ['sideL', 'sideR', 'legL', 'legR']
    .map((k) => o.spots[k])
    .filter((sp): sp is Spot => !!sp)
    .map((sp, i) => candyCane(p, sp.x + sp.s * 0.25, sp.y - sp.s * 0.5, sp.s * 1.1, sp.s * 0.2, sp.s * 0.14, i % 2 ? 24 : -24, i % 2 ? -1 : 1))
    .join('')
  return `<defs>
    <pattern id="${p}-bg" patternUnits="userSpaceOnUse" width="150" height="150" patternTransform="rotate(45)">
      <rect width="150" height="150" fill="#fff7f2"/><rect width="62" height="150" fill="#c8102e"/><rect x="98" width="14" height="150" fill="#e8546a"/></pattern>
    ${radial(`${p}-sheen`, mx, B.y + B.h * 0.4, B.w * 0.8, [
      [0, '#fff', 0.3],
      [1, '#fff', 0],
    ])}
  </defs>
  ${rectOf(B, `url(#${p}-bg)`)}
  ${rectOf(B, `url(#${p}-sheen)`)}
  ${smalls}
  ${candyCane(p, mx - big.d, big.top, big.h, big.R, big.w, -ang, 1)}
  ${candyCane(p, mx + big.d, big.top, big.h, big.R, big.w, ang, -1)}
  ${bow(mx, crossY, big.R * 1.25, '#1f8a46', '#0b3d1f')}`
}

function flannel(o: Ornament): string {
  const p = `${o.id}-fl`
  const B = bleed(o)
  const P = 320
  const band = (pos: number, size: number, col: string, op: number) =>
    `<rect y="${pos}" width="${P}" height="${size}" fill="${col}" opacity="${op}"/><rect x="${pos}" width="${size}" height="${P}" fill="${col}" opacity="${op}"/>`
  return `<defs>
    <pattern id="${p}-plaid" patternUnits="userSpaceOnUse" width="${P}" height="${P}" x="${n(o.cx)}" y="${n(o.bbox.y)}">
      <rect width="${P}" height="${P}" fill="#b4202b"/>
      ${band(0, 128, '#141414', 0.55)}
      ${band(160, 30, '#141414', 0.35)}
      ${band(212, 18, '#1e4d33', 0.65)}
      ${band(268, 8, '#f3c64f', 0.85)}
      ${band(56, 8, '#f2e6d0', 0.55)}
    </pattern>
    <pattern id="${p}-twill" patternUnits="userSpaceOnUse" width="80" height="80" patternTransform="rotate(45)">
      ${Array.from({ length: 8 }, (_, i) => `<rect y="${i * 10}" width="80" height="4" fill="#000" opacity="0.16"/><rect y="${i * 10 + 5}" width="80" height="1.5" fill="#fff" opacity="0.08"/>`).join('')}</pattern>
    ${radial(`${p}-vig`, o.cx, o.bbox.y + o.bbox.h / 2, Math.max(B.w, B.h) * 0.62, [
      [0.5, '#000', 0],
      [1, '#000', 0.35],
    ])}
  </defs>
  ${rectOf(B, `url(#${p}-plaid)`)}
  ${rectOf(B, `url(#${p}-twill)`)}
  ${rectOf(B, `url(#${p}-vig)`)}`
}

function letItSnow(o: Ornament, rng: Rng): string {
  const p = `${o.id}-ls`
  const B = bleed(o)
  const mx = midX(o)
  const sc = o.extra.scy ?? 0
  const L =
    o.shape === 'tree'
      ? { t1: 1190, t2: 1370, s1: 100, s2: 165, drift: 1570 }
      : o.shape === 'star'
        ? { t1: sc - 70, t2: sc + 110, s1: 105, s2: 170, drift: sc + 420 }
        : { t1: 880, t2: 1090, s1: 120, s2: 200, drift: 1760 }
  const textBox = { x: mx - L.s2 * 1.9, y: L.t1 - L.s1, w: L.s2 * 3.8, h: L.t2 - L.t1 + L.s1 + 30 }
  const clear = (x: number, y: number) => !(x > textBox.x - 120 && x < textBox.x + textBox.w + 120 && y > textBox.y - 110 && y < textBox.y + textBox.h + 110)
  const big = scatter(rng, B, 22, 190, clear)
  const dots = scatter(rng, B, 170, 30, (x, y) => !(x > textBox.x && x < textBox.x + textBox.w && y > textBox.y && y < textBox.y + textBox.h))
  return `<defs>
    ${linear(`${p}-sky`, 0, B.y, 0, B.y + B.h, [
      [0, '#0a2459'],
      [0.55, '#1d4f98'],
      [1, '#4d8bd0'],
    ])}
    ${radial(`${p}-glow`, mx, L.t1, B.w * 0.6, [
      [0, '#9cc8ff', 0.35],
      [1, '#9cc8ff', 0],
    ])}
  </defs>
  ${rectOf(B, `url(#${p}-sky)`)}
  ${rectOf(B, `url(#${p}-glow)`)}
  ${dots.map(([x, y]) => `<circle cx="${n(x)}" cy="${n(y)}" r="${n(between(rng, 3, 9))}" fill="#fff" opacity="${op(between(rng, 0.45, 0.95))}"/>`).join('')}
  ${big
    .map(([x, y]) => {
      const size = between(rng, 45, 110)
      return snowflake(x, y, size, between(rng, 0, 60), Math.max(7, size * 0.13), '#fff', between(rng, 0.6, 1))
    })
    .join('')}
  <path d="M${n(B.x)} ${n(L.drift)}Q${n(B.x + B.w * 0.3)} ${n(L.drift - 70)} ${n(B.x + B.w * 0.55)} ${n(L.drift)}T${n(B.x + B.w)} ${n(L.drift - 20)}L${n(B.x + B.w)} ${n(B.y + B.h)}L${n(B.x)} ${n(B.y + B.h)}Z" fill="#eef6fd"/>
  <path d="M${n(B.x)} ${n(L.drift + 60)}Q${n(B.x + B.w * 0.4)} ${n(L.drift + 10)} ${n(B.x + B.w)} ${n(L.drift + 70)}" fill="none" stroke="#c3dcf1" stroke-width="12"/>
  <g font-family="DejaVu Serif, serif" font-weight="bold" text-anchor="middle">
    <text x="${n(mx + 6)}" y="${n(L.t1 + 8)}" font-size="${L.s1}" fill="#06183d" opacity="0.5" letter-spacing="6">LET IT</text>
    <text x="${n(mx + 8)}" y="${n(L.t2 + 10)}" font-size="${L.s2}" fill="#06183d" opacity="0.5" letter-spacing="4">SNOW</text>
    <text x="${n(mx)}" y="${n(L.t1)}" font-size="${L.s1}" fill="#ffffff" letter-spacing="6">LET IT</text>
    <text x="${n(mx)}" y="${n(L.t2)}" font-size="${L.s2}" fill="#ffffff" letter-spacing="4">SNOW</text>
  </g>`
}

function ribbonWhimsy(o: Ornament, rng: Rng): string {
  const p = `${o.id}-rw`
  const B = bleed(o)
  const mx = midX(o)
  const c = o.core
  const cols: [string, string][] = [
    ['#d7263d', '#8c0f1f'],
    ['#e0a82e', '#8a6112'],
    ['#2e8b57', '#134d2c'],
    ['#ef7aa1', '#a33661'],
    ['#3d7cc9', '#1c4378'],
  ]
  let ribbons = ''
  const count = 6
  for (let i = 0; i < count; i++) {
    const [col, dark] = cols[i % cols.length]!
    const y0 = B.y + ((i + 0.6) / count) * B.h
    const theta = between(rng, -0.5, 0.5) + (i % 2 ? 0.25 : -0.25)
    const a = between(rng, 30, 40)
    const b = between(rng, 58, 80)
    const pts: Pt[] = []
    const len = Math.hypot(B.w, B.h) * 1.1
    const tMax = len / a
    for (let t = 0; t <= tMax; t += 0.12) {
      const X = a * t - b * Math.sin(t) - len / 2
      const Y = b * Math.cos(t) + 12 * Math.sin(t * 0.21)
      pts.push([mx + X * Math.cos(theta) - Y * Math.sin(theta), y0 + X * Math.sin(theta) + Y * Math.cos(theta)])
    }
    const d = `M${pts.map(pt).join('L')}`
    ribbons += `<path d="${d}" fill="none" stroke="${dark}" stroke-width="30" stroke-linejoin="round" stroke-linecap="round"/>
      <path d="${d}" fill="none" stroke="${col}" stroke-width="22" stroke-linejoin="round" stroke-linecap="round"/>
      <path d="${d}" fill="none" stroke="#fff" stroke-opacity="0.4" stroke-width="6" stroke-linejoin="round" transform="translate(-4 -4)"/>`
  }
  const bowSpots = ['top', 'sideL', 'sideR', 'legL', 'legR', 'toe', 'heel'].map((k) => o.spots[k]).filter((sp): sp is Spot => !!sp)
  const bowCols: [string, string][] = [
    ['#e0a82e', '#8a6112'],
    ['#2e8b57', '#134d2c'],
    ['#ef7aa1', '#a33661'],
    ['#3d7cc9', '#1c4378'],
  ]
  return `<defs>
    <pattern id="${p}-dots" patternUnits="userSpaceOnUse" width="70" height="70"><rect width="70" height="70" fill="#fdf0e8"/><circle cx="17" cy="17" r="6" fill="#f4cfc2"/><circle cx="52" cy="52" r="6" fill="#f7dccb"/></pattern>
  </defs>
  ${rectOf(B, `url(#${p}-dots)`)}
  ${ribbons}
  ${bowSpots.map((sp, i) => bow(sp.x, sp.y - sp.s * 0.2, sp.s * 0.55, bowCols[i % 4]![0], bowCols[i % 4]![1])).join('')}
  ${bow(mx, c.y + c.h * 0.42, c.w * 0.33, '#d7263d', '#7a0c19')}`
}

function cozyWinter(o: Ornament): string {
  const p = `${o.id}-cw`
  const B = bleed(o)
  const mx = midX(o)
  const sc = o.extra.scy ?? 0
  const st = 46
  const sh = 52
  const stitch = (x: number, y: number, col: string, line: string) =>
    [-1, 1]
      .map(
        (s) =>
          `<ellipse cx="${n(x + st / 2 + (s * st) / 4.4)}" cy="${n(y + sh / 2)}" rx="${n(st / 4.4)}" ry="${n(sh / 1.75)}" transform="rotate(${s * -28} ${n(x + st / 2 + (s * st) / 4.4)} ${n(y + sh / 2)})" fill="${col}" stroke="${line}" stroke-width="3"/>`,
      )
      .join('')
  const L =
    o.shape === 'tree'
      ? {
          mittens: [
            [mx - 150, 930],
            [mx + 150, 930],
          ],
          ms: 360,
          mug: [mx, 1330],
          mugS: 380,
          bands: [560, 1590],
        }
      : o.shape === 'star'
        ? {
            mittens: [
              [mx - 170, sc - 150],
              [mx + 170, sc - 150],
            ],
            ms: 330,
            mug: [mx, sc + 240],
            mugS: 330,
            bands: [sc - 470, sc + 500],
          }
        : {
            mittens: [
              [mx - 190, 760],
              [mx + 190, 760],
            ],
            ms: 420,
            mug: [mx + 40, 1320],
            mugS: 420,
            bands: [330, 1720],
          }
  const bandH = sh * 3
  return `<defs>
    <pattern id="${p}-knit" patternUnits="userSpaceOnUse" width="${st * 4}" height="${sh * 4}"><rect width="${st * 4}" height="${sh * 4}" fill="#d9c6a6"/>${Array.from({ length: 16 }, (_, i) => stitch((i % 4) * st, Math.floor(i / 4) * sh, '#f1e5cf', '#cbb592')).join('')}</pattern>
    <pattern id="${p}-band" patternUnits="userSpaceOnUse" width="${st * 4}" height="${bandH}" y="${L.bands[0]!}">
      <rect width="${st * 4}" height="${bandH}" fill="#8e1420"/>
      ${Array.from({ length: 12 }, (_, i) => {
        const col = i % 4
        const row = Math.floor(i / 4)
        const white = (row === 1 && col % 2 === 0) || (row !== 1 && col % 2 === 1)
        return stitch(col * st, row * sh, white ? '#fbf5ea' : '#c21f2e', white ? '#d8cdb8' : '#7d101b')
      }).join('')}
    </pattern>
    ${radial(`${p}-warm`, mx, B.y + B.h * 0.45, B.w * 0.8, [
      [0, '#fff3dc', 0.35],
      [1, '#6b3a1a', 0.18],
    ])}
  </defs>
  ${rectOf(B, `url(#${p}-knit)`)}
  ${L.bands.map((y) => `${rectOf({ x: B.x, y, w: B.w, h: bandH }, `url(#${p}-band)`)}<rect x="${n(B.x)}" y="${n(y - 8)}" width="${n(B.w)}" height="8" fill="#5e0d15" opacity="0.5"/><rect x="${n(B.x)}" y="${n(y + bandH)}" width="${n(B.w)}" height="8" fill="#5e0d15" opacity="0.5"/>`).join('')}
  ${rectOf(B, `url(#${p}-warm)`)}
  <path d="M${n(L.mittens[0]![0]!)} ${n(L.mittens[0]![1]! + L.ms * 0.48)}C${n(L.mittens[0]![0]! + 40)} ${n(L.mittens[0]![1]! + L.ms * 0.85)} ${n(L.mittens[1]![0]! - 40)} ${n(L.mittens[1]![1]! + L.ms * 0.85)} ${n(L.mittens[1]![0]!)} ${n(L.mittens[1]![1]! + L.ms * 0.48)}" fill="none" stroke="#fbf5ea" stroke-width="12"/>
  <g transform="rotate(-10 ${n(L.mittens[0]![0]!)} ${n(L.mittens[0]![1]!)})">${mitten(L.mittens[0]![0]!, L.mittens[0]![1]!, L.ms, 1, '#c81d2c', '#5e0d15', '#fbf5ea')}</g>
  <g transform="rotate(10 ${n(L.mittens[1]![0]!)} ${n(L.mittens[1]![1]!)})">${mitten(L.mittens[1]![0]!, L.mittens[1]![1]!, L.ms, -1, '#c81d2c', '#5e0d15', '#fbf5ea')}</g>
  ${mug(L.mug[0]!, L.mug[1]!, L.mugS)}`
}

function spruceDelight(o: Ornament, rng: Rng): string {
  const p = `${o.id}-sd`
  const B = bleed(o)
  const mx = midX(o)
  const c = o.core
  const hub: Pt = [mx, c.y + c.h * (o.shape === 'tree' ? 0.3 : 0.42)]
  const count = 8
  let branches = ''
  for (let i = 0; i < count; i++) {
    const a = ((i + 0.5) / count) * Math.PI * 2 + between(rng, -0.12, 0.12)
    const base: Pt = [hub[0] + Math.cos(a) * B.w * 0.62, hub[1] + Math.sin(a) * B.h * 0.62]
    const dir = (Math.atan2(hub[1] - base[1], hub[0] - base[0]) * 180) / Math.PI + between(rng, -12, 12)
    const len = Math.hypot(hub[0] - base[0], hub[1] - base[1]) * between(rng, 0.8, 0.95)
    branches += spruceSvg(spruceBranch(rng, base[0], base[1], dir, len, 64), 7)
  }
  const flakes = scatter(rng, B, 60, 90)
  return `<defs>
    ${linear(`${p}-bg`, 0, B.y, 0, B.y + B.h, [
      [0, '#f8f5ec'],
      [1, '#dde9e2'],
    ])}
    <pattern id="${p}-dots" patternUnits="userSpaceOnUse" width="90" height="90"><circle cx="20" cy="25" r="5" fill="#c9d9d0"/><circle cx="65" cy="70" r="4" fill="#d3e1d9"/></pattern>
  </defs>
  ${rectOf(B, `url(#${p}-bg)`)}
  ${rectOf(B, `url(#${p}-dots)`)}
  ${flakes.map(([x, y]) => snowflake(x, y, between(rng, 14, 24), between(rng, 0, 60), 4, '#b7cfc4')).join('')}
  ${branches}
  ${pinecone(hub[0] - 80, hub[1] + 50, 250, 22)}${pinecone(hub[0] + 85, hub[1] + 40, 270, -20)}${pinecone(hub[0] + 2, hub[1] + 85, 230, 3)}`
}

function hollyJolly(o: Ornament): string {
  const p = `${o.id}-hj`
  const B = bleed(o)
  const mx = midX(o)
  const sc = o.extra.scy ?? 0
  const L =
    o.shape === 'tree'
      ? { cluster: [mx, 520, 230], t1: 1020, t2: 1240, fs: 170 }
      : o.shape === 'star'
        ? { cluster: [mx, sc - 300, 200], t1: sc + 20, t2: sc + 210, fs: 165 }
        : { cluster: [mx, 420, 260], t1: 900, t2: 1130, fs: 200 }
  const [hx, hy, hl] = L.cluster as [number, number, number]
  return `<defs>
    ${hollyDefs(p)}
    <pattern id="${p}-bg" patternUnits="userSpaceOnUse" width="300" height="300">
      <rect width="300" height="300" fill="#fbf4e6"/>
      <g opacity="0.55">${hollySprig(p, 75, 80, 62, 20)}${hollySprig(p, 225, 230, 62, 200)}</g>
    </pattern>
  </defs>
  ${rectOf(B, `url(#${p}-bg)`)}
  <g font-family="DejaVu Serif, serif" font-style="italic" font-weight="bold" text-anchor="middle" font-size="${L.fs}">
    <text x="${n(mx + 6)}" y="${n(L.t1 + 8)}" fill="#4a0810" opacity="0.35">Holly</text>
    <text x="${n(mx + 6)}" y="${n(L.t2 + 8)}" fill="#4a0810" opacity="0.35">Jolly</text>
    <text x="${n(mx)}" y="${n(L.t1)}" fill="#c0142b" stroke="#fbf4e6" stroke-width="10" paint-order="stroke">Holly</text>
    <text x="${n(mx)}" y="${n(L.t2)}" fill="#1b6331" stroke="#fbf4e6" stroke-width="10" paint-order="stroke">Jolly</text>
  </g>
  ${hollySprig(p, hx, hy, hl, 0)}
  ${['sideL', 'sideR', 'legL', 'legR', 'toe']
    .map((k) => o.spots[k])
    .filter((sp): sp is Spot => !!sp)
    .map((sp, i) => hollySprig(p, sp.x, sp.y, sp.s * 0.62, i * 50 + 20))
    .join('')}`
}

function festiveFair(o: Ornament, rng: Rng): string {
  const p = `${o.id}-ff`
  const B = bleed(o)
  const mx = midX(o)
  const sc = o.extra.scy ?? 0
  const rows =
    o.shape === 'tree' ? { b1: 540, l: 930, b2: 1330 } : o.shape === 'star' ? { b1: sc - 330, l: sc - 60, b2: sc + 250 } : { b1: 560, l: 980, b2: 1420 }
  const x0 = B.x - 20
  const x1 = B.x + B.w + 20
  const bokeh = scatter(rng, B, 45, 70)
  const bcols = ['#ffd34d', '#ff6b6b', '#6be0a0', '#7cc4ff', '#ffffff']
  const hangs = [0.2, 0.5, 0.8].map((t, i) => {
    const x = mx + (t - 0.5) * Math.min(B.w, 900)
    const len = [150, 260, 170][i]!
    return bauble(p, x, rows.l + 60 + len + 80, [80, 95, 80][i]!, ['blue', 'gold', 'purple'][i]!, len)
  })
  const top = o.spots.top!
  return `<defs>
    ${linear(`${p}-bg`, 0, B.y, 0, B.y + B.h, [
      [0, '#0e3442'],
      [1, '#07202b'],
    ])}
    ${baubleDefs(p)}
  </defs>
  ${rectOf(B, `url(#${p}-bg)`)}
  ${bokeh.map(([x, y]) => `<circle cx="${n(x)}" cy="${n(y)}" r="${n(between(rng, 20, 60))}" fill="${pick(rng, bcols)}" opacity="${op(between(rng, 0.08, 0.2))}"/>`).join('')}
  <path d="${starPath(top.x, top.y, top.s * 0.42, top.s * 0.2)}" fill="#ffd34d" stroke="#b8862a" stroke-width="6"/>
  ${sparkle(top.x - top.s * 0.5, top.y - top.s * 0.2, 22, '#fff')}${sparkle(top.x + top.s * 0.5, top.y + top.s * 0.1, 18, '#fff')}
  ${bunting([x0, rows.b1], [x1, rows.b1 - 20], 70, 120, ['#e23a4e', '#ffd34d', '#2fae64', '#f6f1e6', '#3d8be0'])}
  ${hangs.join('')}
  ${lights([x0, rows.l], [x1, rows.l + 10], 80, 34, rng)}
  ${bunting([x0, rows.b2], [x1, rows.b2 + 20], 80, 120, ['#3d8be0', '#f6f1e6', '#e23a4e', '#ffd34d', '#2fae64'])}
  ${['legL', 'legR', 'toe', 'heel', 'sideL', 'sideR']
    .map((k) => o.spots[k])
    .filter((sp): sp is Spot => !!sp && sp.y > rows.b2 + 120)
    .map((sp, i) => bauble(p, sp.x, sp.y, sp.s * 0.33, ['red', 'green', 'silver', 'pink'][i % 4]!))
    .join('')}`
}

function solidGold(o: Ornament): string {
  const p = `${o.id}-sg`
  const B = bleed(o)
  return `<defs>
    ${linear(`${p}-g`, B.x, B.y, B.x + B.w, B.y + B.h, [
      [0, '#8a6116'],
      [0.14, '#d8ae4c'],
      [0.3, '#fbe7a2'],
      [0.44, '#c89634'],
      [0.58, '#e9c56a'],
      [0.72, '#fff0b8'],
      [0.86, '#c2902e'],
      [1, '#7d5512'],
    ])}
    ${radial(`${p}-h`, B.x + B.w * 0.35, B.y + B.h * 0.28, B.w * 0.55, [
      [0, '#fff8de', 0.55],
      [1, '#fff8de', 0],
    ])}
    ${linear(`${p}-s`, 0, B.y, 0, B.y + B.h, [
      [0, '#000', 0],
      [1, '#3a2500', 0.25],
    ])}
  </defs>
  ${rectOf(B, `url(#${p}-g)`)}${rectOf(B, `url(#${p}-h)`)}${rectOf(B, `url(#${p}-s)`)}`
}

function solidRed(o: Ornament): string {
  const p = `${o.id}-sr`
  const B = bleed(o)
  return `<defs>
    ${radial(`${p}-g`, B.x + B.w * 0.42, B.y + B.h * 0.38, Math.max(B.w, B.h) * 0.72, [
      [0, '#e8303f'],
      [0.45, '#c0142a'],
      [1, '#6a0812'],
    ])}
    ${radial(`${p}-h`, B.x + B.w * 0.34, B.y + B.h * 0.24, B.w * 0.32, [
      [0, '#ffffff', 0.28],
      [1, '#ffffff', 0],
    ])}
  </defs>
  ${rectOf(B, `url(#${p}-g)`)}${rectOf(B, `url(#${p}-h)`)}`
}

function midnightStars(o: Ornament, rng: Rng): string {
  const p = `${o.id}-ms`
  const B = bleed(o)
  const mx = midX(o)
  const moon = {
    x: o.shape === 'stocking' ? o.core.x + o.core.w * 0.7 : mx + (o.shape === 'star' ? 0 : 40),
    y: o.shape === 'stocking' ? 640 : o.shape === 'star' ? (o.extra.scy ?? 0) - 120 : 820,
    r: 150,
  }
  const tiny = scatter(rng, B, 420, 16)
  const mid = scatter(rng, B, 34, 110, (x, y) => Math.hypot(x - moon.x, y - moon.y) > moon.r * 1.6)
  const big = scatter(rng, B, 9, 300, (x, y) => Math.hypot(x - moon.x, y - moon.y) > moon.r * 2)
  return `<defs>
    ${radial(`${p}-bg`, mx, B.y + B.h * 0.45, Math.max(B.w, B.h) * 0.7, [
      [0, '#1f3470'],
      [0.6, '#111f4d'],
      [1, '#070d26'],
    ])}
    ${radial(`${p}-moonglow`, moon.x, moon.y, moon.r * 2.6, [
      [0, '#fff4c8', 0.4],
      [1, '#fff4c8', 0],
    ])}
    ${radial(
      `${p}-sg`,
      0.5,
      0.5,
      0.5,
      [
        [0, '#fff8d8', 0.9],
        [1, '#ffe9a0', 0],
      ],
      false,
    )}
    ${linear(`${p}-milky`, B.x, B.y + B.h, B.x + B.w, B.y, [
      [0.3, '#9fb7ff', 0],
      [0.5, '#9fb7ff', 0.12],
      [0.7, '#9fb7ff', 0],
    ])}
  </defs>
  ${rectOf(B, `url(#${p}-bg)`)}
  ${rectOf(B, `url(#${p}-milky)`)}
  ${tiny.map(([x, y]) => `<circle cx="${n(x)}" cy="${n(y)}" r="${n(between(rng, 1.8, 4.5))}" fill="#fff" opacity="${op(between(rng, 0.35, 1))}"/>`).join('')}
  ${mid.map(([x, y]) => sparkle(x, y, between(rng, 14, 30), '#fdf6dc', between(rng, 0.7, 1))).join('')}
  ${rectOf(B, `url(#${p}-moonglow)`)}
  <path d="M${n(moon.x)} ${n(moon.y - moon.r)}A${moon.r} ${moon.r} 0 1 0 ${n(moon.x)} ${n(moon.y + moon.r)}A${n(moon.r * 0.78)} ${moon.r} 0 1 1 ${n(moon.x)} ${n(moon.y - moon.r)}Z" fill="#fbe8a6" transform="rotate(-20 ${n(moon.x)} ${n(moon.y)})"/>
  ${big
    .map(([x, y]) => {
      const R = between(rng, 45, 85)
      return `<circle cx="${n(x)}" cy="${n(y)}" r="${n(R * 1.8)}" fill="url(#${p}-sg)" opacity="0.45"/>
      <path d="${starPath(x, y, R, R * 0.45, between(rng, -15, 15))}" fill="#ffe28a" stroke="#fff6d2" stroke-width="4" stroke-linejoin="round"/>`
    })
    .join('')}`
}

function classicTree(o: Ornament, rng: Rng): string {
  const p = `${o.id}-ct`
  const B = bleed(o)
  const cx = o.cx
  let needles = ''
  for (let i = 0; i < 60; i++) {
    const x = rng() * 140
    const y = rng() * 140
    const a = between(rng, 0.6, 1.3) * (i % 2 ? 1 : -1) + Math.PI / 2
    needles += `<line x1="${n(x)}" y1="${n(y)}" x2="${n(x + Math.cos(a) * 22)}" y2="${n(y + Math.sin(a) * 22)}" stroke="${pick(rng, ['#0f4a24', '#2a8a48', '#1a6a36', '#3a9e58'])}" stroke-width="4" stroke-linecap="round"/>`
  }
  // Shadows under each tier's skirt, garlands and baubles.
  const tierShade = (y: number, hw: number) =>
    `<path d="M${n(cx - hw)} ${n(y)}Q${n(cx)} ${n(y + 60)} ${n(cx + hw)} ${n(y)}L${n(cx + hw)} ${n(y + 90)}L${n(cx - hw)} ${n(y + 90)}Z" fill="#062d15" opacity="0.45"/>`
  const beads = (a: Pt, b: Pt, sag: number) => {
    const s = swag(a, b, sag)
    let out = `<path d="${s.d}" fill="none" stroke="#b8862a" stroke-width="5"/>`
    const cnt = Math.round(Math.hypot(b[0] - a[0], b[1] - a[1]) / 30)
    for (let i = 0; i <= cnt; i++) {
      const q = s.at(i / cnt)
      out += `<circle cx="${n(q[0])}" cy="${n(q[1])}" r="12" fill="url(#${p}-bead)"/>`
    }
    return out
  }
  const balls: [number, number, number, string][] = [
    [-110, 470, 48, 'red'],
    [120, 520, 50, 'blue'],
    [0, 720, 56, 'gold'],
    [-300, 930, 58, 'silver'],
    [260, 960, 60, 'red'],
    [-90, 1010, 55, 'purple'],
    [-20, 1320, 64, 'red'],
    [-400, 1460, 62, 'gold'],
    [300, 1310, 62, 'green'],
    [-250, 1560, 60, 'blue'],
    [450, 1545, 60, 'silver'],
    [160, 1520, 58, 'gold'],
  ]
  const dots = Array.from({ length: 46 }, () => {
    const y = between(rng, 330, 1620)
    const hw = y < 600 ? ((y - 150) / 460) * 400 : y < 1100 ? 240 + ((y - 560) / 540) * 280 : 350 + ((y - 1070) / 580) * 250
    return [cx + between(rng, -hw, hw) * 0.9, y] as Pt
  })
  return `<defs>
    ${radial(`${p}-g`, cx, 1000, 900, [
      [0, '#2f9150'],
      [0.7, '#18693a'],
      [1, '#0b4020'],
    ])}
    <pattern id="${p}-n" patternUnits="userSpaceOnUse" width="140" height="140">${needles}</pattern>
    ${radial(
      `${p}-bead`,
      0.35,
      0.35,
      0.7,
      [
        [0, '#fff6c8'],
        [0.5, '#e0b24a'],
        [1, '#8a5f12'],
      ],
      false,
    )}
    ${linear(`${p}-bark`, cx - 150, 0, cx + 150, 0, [
      [0, '#4a2a12'],
      [0.5, '#8a5a2b'],
      [1, '#3d220e'],
    ])}
    ${baubleDefs(p)}
  </defs>
  ${rectOf(B, `url(#${p}-g)`)}
  ${rectOf(B, `url(#${p}-n)`, 'opacity="0.55"')}
  ${tierShade(575, 290)}${tierShade(1075, 400)}
  ${rectOf({ x: cx - 200, y: 1650, w: 400, h: 260 }, `url(#${p}-bark)`)}
  <rect x="${n(cx - 200)}" y="1650" width="400" height="16" fill="#000" opacity="0.3"/>
  ${beads([cx - 260, 400], [cx + 330, 560], 40)}
  ${beads([cx - 470, 770], [cx + 520, 1020], 70)}
  ${beads([cx - 560, 1200], [cx + 600, 1450], 80)}
  ${dots
    .map(([x, y], i) => {
      const col = ['#ffe27a', '#ff6b6b', '#7cc4ff', '#ffffff'][i % 4]
      return `<circle cx="${n(x)}" cy="${n(y)}" r="22" fill="${col}" opacity="0.22"/><circle cx="${n(x)}" cy="${n(y)}" r="9" fill="${col}"/>`
    })
    .join('')}
  ${balls.map(([dx, y, r, col]) => bauble(p, cx + dx, y, r, col)).join('')}
  <path d="${starPath(cx, 262, 62, 27)}" fill="#ffd64a" stroke="#a8761a" stroke-width="5" stroke-linejoin="round"/>
  ${sparkle(cx + 4, 262, 16, '#fffbe6')}`
}

function classicStar(o: Ornament, rng: Rng): string {
  const p = `${o.id}-cs`
  const B = bleed(o)
  const { scy, R, r, sy } = o.extra as { scy: number; R: number; r: number; sy: number }
  const cx = o.cx
  const v = (k: number): Pt => {
    const a = (k * Math.PI) / 5
    const rad = k % 2 === 0 ? R : r
    return [cx + rad * Math.sin(a), scy - rad * Math.cos(a) * sy]
  }
  let facets = ''
  for (let k = 0; k < 10; k++) {
    const a = v(k)
    const b = v(k + 1)
    facets += `<path d="M${n(cx)} ${n(scy)}L${pt(a)}L${pt(b)}Z" fill="${k % 2 === 0 ? `url(#${p}-light)` : `url(#${p}-dark)`}"/>`
  }
  let rays = ''
  for (let i = 0; i < 36; i++) {
    const a = (i / 36) * Math.PI * 2 + 0.04
    const len = R * between(rng, 0.8, 1.25)
    const w = 0.018
    rays += `<path d="M${n(cx)} ${n(scy)}L${n(cx + Math.sin(a - w) * len)} ${n(scy - Math.cos(a - w) * len)}L${n(cx + Math.sin(a + w) * len)} ${n(scy - Math.cos(a + w) * len)}Z" fill="#fffbe6" opacity="${i % 2 ? 0.16 : 0.3}"/>`
  }
  const sparkles = scatter(rng, B, 22, 120)
    .map(([x, y]) => sparkle(x, y, between(rng, 10, 24), '#fffdf0', between(rng, 0.6, 1)))
    .join('')
  const inner: string[] = []
  for (let k = 0; k < 10; k++) {
    const a = (k * Math.PI) / 5
    const rad = (k % 2 === 0 ? R : r) * 0.5
    inner.push(`${n(cx + rad * Math.sin(a))} ${n(scy - rad * Math.cos(a) * sy)}`)
  }
  return `<defs>
    ${linear(`${p}-light`, cx - R, scy - R, cx + R, scy + R, [
      [0, '#fff2b0'],
      [0.5, '#f2cd63'],
      [1, '#e2b042'],
    ])}
    ${linear(`${p}-dark`, cx - R, scy - R, cx + R, scy + R, [
      [0, '#d9a63a'],
      [0.5, '#b8862a'],
      [1, '#9a6b18'],
    ])}
    ${radial(`${p}-glow`, cx, scy, R * 0.75, [
      [0, '#ffffff', 0.85],
      [0.3, '#fff6cf', 0.45],
      [1, '#fff6cf', 0],
    ])}
  </defs>
  ${rectOf(B, '#c8962e')}
  ${facets}
  ${rays}
  <path d="M${inner.join('L')}Z" fill="none" stroke="#fff3c0" stroke-opacity="0.75" stroke-width="8" stroke-linejoin="round"/>
  ${rectOf(B, `url(#${p}-glow)`)}
  ${sparkle(cx, scy, 90, '#ffffff', 0.9)}
  ${sparkles}`
}

function classicStocking(o: Ornament, rng: Rng): string {
  const p = `${o.id}-ck`
  const B = bleed(o)
  const t = o.toe
  const legC = o.core.x + o.core.w / 2
  const st = 40
  const sh = 46
  let stitch = ''
  for (let i = 0; i < 16; i++) {
    const x = (i % 4) * st
    const y = Math.floor(i / 4) * sh
    for (const s of [-1, 1]) {
      const ex = x + st / 2 + (s * st) / 4.4
      stitch += `<ellipse cx="${n(ex)}" cy="${n(y + sh / 2)}" rx="${n(st / 4.4)}" ry="${n(sh / 1.75)}" transform="rotate(${s * -28} ${n(ex)} ${n(y + sh / 2)})" fill="#d3212f" stroke="#8e0c18" stroke-width="2.5"/>`
    }
  }
  const heel: Pt = [o.extra.legBack! + t * 120, o.extra.sole! - 90]
  const toe: Pt = [o.extra.toeX! - t * 110, 1720]
  const stripeY = [1080, 1150]
  return `<defs>
    <pattern id="${p}-knit" patternUnits="userSpaceOnUse" width="${st * 4}" height="${sh * 4}"><rect width="${st * 4}" height="${sh * 4}" fill="#a5121e"/>${stitch}</pattern>
    ${radial(`${p}-shade`, legC, 900, 1200, [
      [0, '#fff', 0.12],
      [0.6, '#000', 0],
      [1, '#000', 0.35],
    ])}
    ${hollyDefs(p)}
  </defs>
  ${rectOf(B, `url(#${p}-knit)`)}
  ${stripeY.map((y) => `<rect x="${n(B.x)}" y="${y}" width="${n(B.w)}" height="34" fill="#1f7a3d"/><rect x="${n(B.x)}" y="${y + 34}" width="${n(B.w)}" height="16" fill="#fbf5ea"/>`).join('')}
  <ellipse cx="${n(heel[0])}" cy="${n(heel[1])}" rx="330" ry="250" fill="#fbf5ea"/>
  <ellipse cx="${n(heel[0])}" cy="${n(heel[1])}" rx="300" ry="222" fill="none" stroke="#c81d2c" stroke-width="8" stroke-dasharray="26 18"/>
  <ellipse cx="${n(toe[0])}" cy="${n(toe[1])}" rx="300" ry="330" fill="#fbf5ea"/>
  <ellipse cx="${n(toe[0])}" cy="${n(toe[1])}" rx="272" ry="302" fill="none" stroke="#c81d2c" stroke-width="8" stroke-dasharray="26 18"/>
  ${snowflake(legC - 160, 700, 90, 10, 14, '#fbf5ea', 0.9)}${snowflake(legC + 180, 860, 70, 25, 12, '#fbf5ea', 0.9)}${snowflake(legC - 40, 1400, 80, 0, 13, '#fbf5ea', 0.9)}
  ${rectOf(B, `url(#${p}-shade)`)}
  ${candyCane(p, legC + t * 250, 215, 760, 80, 56, -6 * t, t)}
  ${cuffSvg(o, rng)}
  ${hollySprig(p, legC - t * 250, 320, 130, 15)}
  <defs><clipPath id="${p}-hookclip"><rect x="${n(B.x)}" y="${n(B.y)}" width="${n(B.w)}" height="${n(470 - B.y)}"/></clipPath></defs>
  <g clip-path="url(#${p}-hookclip)">${candyCane(p, legC + t * 250, 215, 320, 80, 56, -6 * t, t)}</g>`
}

const sharedDesigns: Design[] = [
  { name: "Santa's Workshop", palette: true, draw: santasWorkshop },
  { name: 'North Pole', palette: true, draw: northPole },
  { name: 'Candy Cane', palette: true, draw: candyCaneDesign },
  { name: 'Flannel', palette: true, draw: flannel },
  { name: 'Let It Snow', palette: true, draw: letItSnow },
  { name: 'Ribbon Whimsy', palette: true, draw: ribbonWhimsy },
  { name: 'Cozy Winter', palette: true, draw: cozyWinter },
  { name: 'Spruce Delight', palette: true, draw: spruceDelight },
  { name: 'Holly Jolly', palette: true, draw: hollyJolly },
  { name: 'Festive Fair', palette: true, draw: festiveFair },
  { name: 'Solid Gold', palette: false, draw: solidGold },
  { name: 'Solid Red', palette: false, draw: solidRed },
  { name: 'Midnight Stars', palette: true, draw: midnightStars },
]
const classicDesigns: Record<OrnamentShape, Design> = {
  tree: { name: 'Classic Tree', palette: true, draw: classicTree },
  star: { name: 'Classic Star', palette: true, draw: classicStar },
  stocking: { name: 'Classic Stocking', palette: true, draw: classicStocking },
}
const designFor = (variant: OrnamentVariant, n: number) => (n <= sharedDesigns.length ? sharedDesigns[n - 1]! : classicDesigns[variant.shape])

// ---------------------------------------------------------------------------------------------
// Rendering

type ShapeArt = { shape: OrnamentShape; orns: Ornament[]; mask: Buffer; backFrame: Buffer; width: number; height: number }

async function renderShape(shape: OrnamentShape): Promise<ShapeArt> {
  const { width, height } = pseudoTemplates[shape]
  const orns = ornamentsOf(shape)
  // The mask's colour channels must be pure black: keep only the rendered alpha.
  const alpha = await sharp(maskSvg(shape, orns)).extractChannel(3).raw().toBuffer()
  const rgba = Buffer.alloc(width * height * 4)
  for (let i = 0; i < alpha.length; i++) rgba[i * 4 + 3] = alpha[i]!
  const mask = await sharp(rgba, { raw: { width, height, channels: 4 } })
    .png()
    .toBuffer()
  const frame = await sharp(frameSvg(shape, orns, true))
    .png()
    .toBuffer()
  const backFrame =
    shape === 'stocking'
      ? await sharp(frameSvg(shape, orns, false))
          .png()
          .toBuffer()
      : frame
  const pattern = await sharp(patternSvg(shape)).flatten({ background: '#000' }).png().toBuffer()

  await writePng(publicFile(templateArtUrl(shape, 'mask')), sharp(mask).ensureAlpha(), false)
  await writePng(publicFile(templateArtUrl(shape, 'frame')), sharp(frame), true)
  await writePng(publicFile(templateArtUrl(shape, 'pattern')), sharp(pattern).removeAlpha(), false)

  // The preview: pattern under the silhouettes, a placeholder photo in each cell, clipped by the mask, frame on top.
  const photos = await Promise.all(
    orns.map(async (o, i) => ({
      input: await sharp(placeholderPhotoSvg(o.cell.w, o.cell.h, i))
        .png()
        .toBuffer(),
      left: Math.round(o.cell.x),
      top: Math.round(o.cell.y),
    })),
  )
  const full = await sharp({ create: { width, height, channels: 4, background: { r: 0, g: 0, b: 0, alpha: 0 } } })
    .composite([{ input: pattern, tile: true, left: 0, top: 0 }, ...photos, { input: mask, blend: 'dest-in' }, { input: frame }])
    .png()
    .toBuffer()
  // AVIF and WebP: the catalogue's cards load all three on the landing, and a full-colour PNG was 270 KB of them (decision 024).
  const thumbnail = sharp(full).resize({ width: TEMPLATE_THUMB_WIDTH })
  await thumbnail
    .clone()
    .webp({ quality: 82, alphaQuality: 90, effort: 6 })
    .toFile(publicFile(templateArtUrl(shape, 'thumbnail')))
  await thumbnail
    .clone()
    .avif({ quality: 40, effort: 6 })
    .toFile(publicFile(templateThumbnailAvifUrl(shape)))

  // How much of each photo cell the silhouette covers (reported, for the record).
  const { data, info } = await sharp(mask).extractChannel(3).raw().toBuffer({ resolveWithObject: true })
  for (const o of orns) {
    let inCell = 0
    let minX = width
    let maxX = 0
    let minY = height
    let maxY = 0
    for (let y = 0; y < info.height; y++)
      for (let x = 0; x < info.width; x++) {
        if (data[y * info.width + x]! < 128) continue
        const mine = o.side === 0 ? x < width / 2 : x >= width / 2
        if (!mine) continue
        if (x >= o.cell.x && x < o.cell.x + o.cell.w && y >= o.cell.y && y < o.cell.y + o.cell.h) inCell++
        minX = Math.min(minX, x)
        maxX = Math.max(maxX, x)
        minY = Math.min(minY, y)
        maxY = Math.max(maxY, y)
      }
    const cover = inCell / (o.cell.w * o.cell.h)
    const margin = o.side === 0 ? [minX, width / 2 - 1 - maxX] : [minX - width / 2, width - 1 - maxX]
    console.log(
      `${shape} ${o.side ? 'right' : 'left '}: covers ${(cover * 100).toFixed(1)}% of its cell; silhouette x ${minX}..${maxX} y ${minY}..${maxY}; margins edge/mid ${margin.join('/')} px, bottom ${height - 1 - maxY} px`,
    )
  }
  return { shape, orns, mask, backFrame, width, height }
}

async function renderBackSide(art: ShapeArt, variant: OrnamentVariant, index: number) {
  const design = designFor(variant, index)
  if (design.name !== backSideName(variant, index)) throw new Error(`design ${index} is ${design.name}, expected ${backSideName(variant, index)}`)
  // Each ornament's design is rendered on its own canvas (its half of the sheet around its bounding
  // box, so nothing spills onto the other ornament), then both are clipped by the mask and framed.
  const layers = await Promise.all(
    art.orns.map(async (o) => {
      const half = o.side === 0 ? [0, art.width / 2] : [art.width / 2, art.width]
      const B = grow(o.bbox, 48)
      const left = Math.max(half[0]!, Math.floor(B.x))
      const top = Math.max(0, Math.floor(B.y))
      const width = Math.min(half[1]!, Math.ceil(B.x + B.w)) - left
      const height = Math.min(art.height, Math.ceil(B.y + B.h)) - top
      const rng = makeRng(seedOf(`${design.name}-${art.shape}`))
      const svg = Buffer.from(
        `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="${left} ${top} ${width} ${height}">${design.draw(o, rng)}</svg>`,
      )
      return { input: await sharp(svg).png({ compressionLevel: 0 }).toBuffer(), left, top }
    }),
  )
  const { data, info } = await sharp({ create: { width: art.width, height: art.height, channels: 4, background: { r: 0, g: 0, b: 0, alpha: 0 } } })
    .composite([...layers, { input: art.mask, blend: 'dest-in' }, { input: art.backFrame }])
    .raw()
    .toBuffer({ resolveWithObject: true })
  const raw = { raw: { width: info.width, height: info.height, channels: info.channels } } as const
  await writePng(publicFile(backSideUrl(variant.id, index)), sharp(data, raw), design.palette)
  // The picker's thumbnail: the left ornament with its loop.
  const o = art.orns[0]!
  const left = Math.max(0, Math.floor(o.bbox.x - RIM))
  const right = Math.min(art.width / 2, Math.ceil(o.bbox.x + o.bbox.w + RIM))
  const bottom = Math.min(art.height, Math.ceil(o.bbox.y + o.bbox.h + RIM))
  await writePng(
    publicFile(backSideThumbnailUrl(variant.id, index)),
    sharp(data, raw)
      .extract({ left, top: 0, width: right - left, height: bottom })
      .resize({ width: BACK_THUMB_WIDTH }),
    design.palette,
  )
}

async function main() {
  const started = Date.now()
  const only = process.argv.slice(2)
  const shapes = ornamentShapes.filter((s) => only.length === 0 || only.includes(s))
  const arts: ShapeArt[] = []
  for (const shape of shapes) arts.push(await renderShape(shape))
  const jobs = arts.flatMap((art) => Array.from({ length: BACK_SIDES_PER_VARIANT }, (_, i) => ({ art, index: i + 1 })))
  await pool(jobs, CONCURRENCY, async ({ art, index }) => {
    const t = Date.now()
    await renderBackSide(art, variantOfShape(art.shape), index)
    console.log(`back ${art.shape} ${index} ${designFor(variantOfShape(art.shape), index).name}: ${Date.now() - t} ms`)
  })
  console.log(`ornament art written in ${((Date.now() - started) / 1000).toFixed(1)} s`)
}

await main()
