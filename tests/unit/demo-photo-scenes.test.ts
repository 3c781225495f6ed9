import { mkdtemp, readdir, rm, stat } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import sharp from 'sharp'
import { describe, expect, it } from 'vitest'
import {
  DEMO_PHOTO_GENERATOR_VERSION,
  DEMO_SCENE_KINDS,
  demoPhotoSpecs,
  ensureDemoPhotoLibrary,
  renderDemoPhoto,
  type DemoPhotoSpec,
} from '../../app/api/demo/photo-scenes'

const DAY = 86_400_000
const SIZES = { landscape: [2400, 1800], portrait: [1800, 2400], square: [2000, 2000] } as const

/** The upright pixels, shrunk to a small thumbnail, for comparing two renders. */
async function uprightThumb(jpeg: Buffer) {
  return sharp(jpeg).rotate().resize(48, 48, { fit: 'fill' }).removeAlpha().raw().toBuffer()
}

function meanAbsDiff(a: Buffer, b: Buffer) {
  let sum = 0
  for (let i = 0; i < a.length; i++) sum += Math.abs(a[i]! - b[i]!)
  return sum / a.length
}

describe('demo photo specs', () => {
  const specs = demoPhotoSpecs(60, 1234)

  it('are deterministic for a seed and differ between seeds', () => {
    expect(demoPhotoSpecs(60, 1234)).toEqual(specs)
    expect(demoPhotoSpecs(60, 99).map((s) => [s.scene, s.title, s.capturedAt.getTime()])).not.toEqual(
      specs.map((s) => [s.scene, s.title, s.capturedAt.getTime()]),
    )
  })

  it('make an album of at least 60 varied photos', () => {
    expect(demoPhotoSpecs(60, 1).length).toBeGreaterThanOrEqual(60)
    expect(specs.map((s) => s.index)).toEqual(specs.map((_, i) => i))
    for (const s of specs) expect([s.width, s.height]).toEqual(SIZES[s.orientation])
    const count = (o: DemoPhotoSpec['orientation']) => specs.filter((s) => s.orientation === o).length
    expect(count('landscape')).toBe(30)
    expect(count('portrait')).toBe(18)
    expect(count('square')).toBe(12)
    const favourites = specs.filter((s) => s.favorite).length
    const recommended = specs.filter((s) => s.recommended).length
    const rotated = specs.filter((s) => s.exifOrientation !== 1)
    expect(favourites).toBeGreaterThanOrEqual(8)
    expect(favourites).toBeLessThanOrEqual(16)
    expect(recommended).toBeGreaterThanOrEqual(14)
    expect(recommended).toBeLessThanOrEqual(26)
    expect(rotated.length).toBeGreaterThanOrEqual(3)
    expect(rotated.length).toBeLessThanOrEqual(10)
    for (const s of rotated) expect([3, 6, 8]).toContain(s.exifOrientation)
    // Every scene kind appears; titles are mostly distinct.
    expect(new Set(specs.map((s) => s.scene))).toEqual(new Set(DEMO_SCENE_KINDS))
    expect(new Set(specs.map((s) => s.title)).size).toBeGreaterThanOrEqual(50)
    expect(new Set(specs.map((s) => s.seed)).size).toBe(60)
  })

  it('spread the capture dates over the two years before November 2026', () => {
    const times = specs.map((s) => s.capturedAt.getTime())
    const end = Date.UTC(2026, 10, 1)
    for (const t of times) {
      expect(t).toBeGreaterThanOrEqual(end - 730 * DAY)
      expect(t).toBeLessThan(end)
    }
    expect((Math.max(...times) - Math.min(...times)) / DAY).toBeGreaterThanOrEqual(600)
    expect(times).toEqual([...times].sort((a, b) => a - b))
  })
})

describe('rendering demo photos', () => {
  const specs = demoPhotoSpecs(60, 1234)
  const first = (o: DemoPhotoSpec['orientation']) => specs.find((s) => s.orientation === o)!

  it.each([
    ['landscape', 6],
    ['portrait', 8],
    ['square', 3],
  ] as const)('renders a %s photo stored with EXIF orientation %i that shows upright', async (orientation, exif) => {
    const upright = { ...first(orientation), exifOrientation: 1 as const }
    const rotated = { ...upright, exifOrientation: exif }
    const [plain, turned] = await Promise.all([renderDemoPhoto(upright), renderDemoPhoto(rotated)])
    const [w, h] = SIZES[orientation]

    const plainMeta = await sharp(plain).metadata()
    expect(plainMeta.format).toBe('jpeg')
    expect([plainMeta.width, plainMeta.height]).toEqual([w, h])
    expect(plainMeta.orientation ?? 1).toBe(1)

    const meta = await sharp(turned).metadata()
    expect(meta.format).toBe('jpeg')
    expect(meta.orientation).toBe(exif)
    expect([meta.width, meta.height]).toEqual(exif === 3 ? [w, h] : [h, w])
    expect([meta.autoOrient.width, meta.autoOrient.height]).toEqual([w, h])
    const { info } = await sharp(turned).rotate().toBuffer({ resolveWithObject: true })
    expect([info.width, info.height]).toEqual([w, h])

    // Auto-oriented, the rotated file shows the same picture as the unrotated one (only JPEG noise differs)…
    const [a, b] = await Promise.all([uprightThumb(plain), uprightThumb(turned)])
    expect(meanAbsDiff(a, b)).toBeLessThan(3)
    // …whereas the raw stored pixels of a turned photo do not line up with the upright picture.
    if (exif === 3) {
      const raw = await sharp(turned).resize(48, 48, { fit: 'fill' }).removeAlpha().raw().toBuffer()
      expect(meanAbsDiff(a, raw)).toBeGreaterThan(3)
    }
  })

  it('is byte-for-byte deterministic', async () => {
    const spec = first('landscape')
    const [a, b] = await Promise.all([renderDemoPhoto(spec), renderDemoPhoto(spec)])
    expect(a.equals(b)).toBe(true)
  })

  it('renders different specs to different pictures', async () => {
    const sameScene = specs.filter((s) => s.scene === specs[0]!.scene)
    expect(sameScene.length).toBeGreaterThanOrEqual(2)
    const other = specs.find((s) => s.scene !== specs[0]!.scene)!
    const pictures = await Promise.all([specs[0]!, sameScene[1]!, other].map((s) => renderDemoPhoto({ ...s, width: 1200, height: 900, exifOrientation: 1 })))
    const [a, b, c] = await Promise.all(pictures.map(uprightThumb))
    expect(meanAbsDiff(a!, b!)).toBeGreaterThan(4)
    expect(meanAbsDiff(a!, c!)).toBeGreaterThan(4)
  })
})

describe('the demo photo library cache', () => {
  it('renders each photo once, under versioned names, without leaving temporary files', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'demo-photos-'))
    try {
      const entries = await ensureDemoPhotoLibrary(dir, 3, 77)
      expect(entries.map((e) => e.spec)).toEqual(demoPhotoSpecs(3, 77))
      for (const { spec, file } of entries) {
        expect(path.basename(file)).toMatch(new RegExp(`^v${DEMO_PHOTO_GENERATOR_VERSION}-${String(spec.index).padStart(3, '0')}-[0-9a-f]{8}\\.jpg$`))
        const meta = await sharp(file).metadata()
        expect([meta.autoOrient.width, meta.autoOrient.height]).toEqual([spec.width, spec.height])
      }
      expect((await readdir(dir)).sort()).toEqual(entries.map((e) => path.basename(e.file)).sort())
      const before = await Promise.all(entries.map((e) => stat(e.file).then((s) => s.mtimeMs)))
      const again = await ensureDemoPhotoLibrary(dir, 3, 77)
      expect(again.map((e) => e.file)).toEqual(entries.map((e) => e.file))
      expect(await Promise.all(again.map((e) => stat(e.file).then((s) => s.mtimeMs)))).toEqual(before)
    } finally {
      await rm(dir, { recursive: true, force: true })
    }
  })
})
