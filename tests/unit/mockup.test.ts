/**
 * The preview's mockup (app/compositor/mockup.server.ts, decision 048 follow-up): the backdrop (background
 * and blurred shadow) is made once per silhouette and the pixels are those of compositing every layer in
 * one pass, as the store did before it kept backdrops.
 */
import sharp from 'sharp'
import { describe, expect, it } from 'vitest'
import { backdropRenders, MOCKUP_WIDTH, mockupOf, mockupPixels } from '../../app/compositor/mockup.server'
import type { RawImage } from '../../app/compositor/print.server'

/** A sheet of `width` × `height`: an ellipse with a soft edge (the silhouette), coloured by `tint`. */
function sheet(width: number, height: number, tint: number, squash = 1): RawImage {
  const data = Buffer.alloc(width * height * 4)
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const dx = (x - width / 2) / (width * 0.45)
      const dy = (y - height / 2) / (height * 0.45 * squash)
      const edge = Math.min(1, Math.max(0, (1 - Math.hypot(dx, dy)) * 40))
      const i = (y * width + x) * 4
      data[i] = (x * 7 + tint) % 256
      data[i + 1] = (y * 5 + tint * 3) % 256
      data[i + 2] = ((x ^ y) + tint) % 256
      data[i + 3] = Math.round(edge * 255)
    }
  }
  return { data, width, height }
}

/** What the store did before: background, shadow and sheet composited in one pipeline, then flattened. */
async function reference(image: RawImage) {
  const background = { r: 246, g: 239, b: 228, alpha: 1 }
  const height = Math.round((image.height * MOCKUP_WIDTH) / image.width)
  const art = await sharp(image.data, { raw: { width: image.width, height: image.height, channels: 4 } })
    .resize(MOCKUP_WIDTH, height, { kernel: 'lanczos3' })
    .raw()
    .toBuffer()
  const artRaw = { raw: { width: MOCKUP_WIDTH, height, channels: 4 as const } }
  const margin = Math.round(MOCKUP_WIDTH * 0.06)
  const alpha = await sharp(art, artRaw).extractChannel('alpha').toColourspace('b-w').linear(0.35, 0).raw().toBuffer()
  const shadow = await sharp({ create: { width: MOCKUP_WIDTH, height, channels: 3, background: { r: 60, g: 40, b: 30 } } })
    .joinChannel(alpha, { raw: { width: MOCKUP_WIDTH, height, channels: 1 } })
    .blur(14)
    .raw()
    .toBuffer()
  const { data, info } = await sharp({ create: { width: MOCKUP_WIDTH + margin * 2, height: height + margin * 2, channels: 4, background } })
    .composite([
      { input: shadow, ...artRaw, left: margin, top: margin + Math.round(margin / 3) },
      { input: art, ...artRaw, left: margin, top: margin },
    ])
    .flatten({ background })
    .removeAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true })
  return { data, width: info.width, height: info.height, channels: info.channels }
}

describe('the preview mockup', () => {
  it('has the pixels of compositing every layer in one pass (at most 1 level apart, rounding)', async () => {
    const image = sheet(1335, 922, 40)
    const [ours, theirs] = await Promise.all([mockupPixels(image), reference(image)])
    expect([ours.width, ours.height]).toEqual([theirs.width, theirs.height])
    expect(ours.data.length).toBe(ours.width * ours.height * 4)
    expect(theirs.data.length).toBe(theirs.width * theirs.height * theirs.channels)
    // Colour by colour (the reference may keep its opaque alpha band; ours always does, and it is 255).
    let worst = 0
    let seeThrough = 0
    for (let p = 0; p < ours.width * ours.height; p++) {
      for (let c = 0; c < 3; c++) worst = Math.max(worst, Math.abs(ours.data[p * 4 + c]! - theirs.data[p * theirs.channels + c]!))
      if (ours.data[p * 4 + 3] !== 255) seeThrough++
    }
    expect(seeThrough).toBe(0)
    expect(worst).toBeLessThanOrEqual(1)
  })

  it('makes the backdrop once per silhouette: other photos in the same shape reuse it, another shape makes its own', async () => {
    const before = backdropRenders()
    const first = await mockupOf(sheet(900, 620, 10))
    expect(backdropRenders()).toBe(before + 1)
    const second = await mockupOf(sheet(900, 620, 200))
    expect(backdropRenders()).toBe(before + 1)
    expect(second.equals(first)).toBe(false)
    await mockupOf(sheet(900, 620, 10, 0.7))
    expect(backdropRenders()).toBe(before + 2)
    expect((await sharp(first).metadata()).format).toBe('jpeg')
  })
})
