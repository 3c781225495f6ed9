/**
 * The mockup a shopper sees of a preview: the print sheet at MOCKUP_WIDTH on a soft background, with a
 * blurred shadow under the ornaments. The backdrop (background and shadow) depends on the sheet's
 * silhouette alone, not on its photos, so it is made once per silhouette and kept; a preview then
 * resizes its sheet, lays it on the backdrop and encodes the JPEG (decision 048, follow-up).
 */
import { createHash } from 'node:crypto'
import sharp from 'sharp'
import { BufferPool } from './buffer-pool'
import { PromiseCache } from './promise-cache'
import type { RawImage } from './print.server'

/**
 * Mockups are the print sheet at this width, on a soft background (1120 px with its margins). That is the widest a
 * mockup is shown: full width on a phone, about 350 CSS px at 3 device pixels each, and half the preview dialog on a
 * desktop. A preview draws the sheet at this size (displayScaleOf), so nothing wider is rendered for the eye (issue 50).
 */
export const MOCKUP_WIDTH = 1000
const MOCKUP_BACKGROUND = { r: 246, g: 239, b: 228, alpha: 1 }
const SHADOW_COLOUR = { r: 60, g: 40, b: 30 }
const SHADOW_BLUR = 14
/**
 * Optimised Huffman tables and the ImageMagick quantisation table that mozjpeg uses, without mozjpeg's trellis
 * quantisation and scan search, and baseline: a progressive scan took twice the encode (24 → 11 ms for a tree's
 * mockup) for 3 % fewer bytes, and the mockup is encoded while a shopper waits on every preview (decision 078).
 */
const MOCKUP_JPEG = { quality: 86, optimiseCoding: true, quantisationTable: 3 } as const

const margin = Math.round(MOCKUP_WIDTH * 0.06)

/** The sheet's alpha channel (one byte a pixel) of RGBA pixels. */
function alphaOf(rgba: Buffer, pixels: number): Buffer {
  const alpha = Buffer.allocUnsafe(pixels)
  for (let i = 0; i < pixels; i++) alpha[i] = rgba[i * 4 + 3]!
  return alpha
}

/** Background and shadow for a silhouette: opaque RGB, (MOCKUP_WIDTH + 2 margins) wide. */
async function backdropFor(alpha: Buffer, height: number): Promise<Buffer> {
  backdropsMade++
  // The shadow is as opaque as the silhouette (the store's mockups have always looked so), then blurred.
  const shadow = await sharp({ create: { width: MOCKUP_WIDTH, height, channels: 3, background: SHADOW_COLOUR } })
    .joinChannel(alpha, { raw: { width: MOCKUP_WIDTH, height, channels: 1 } })
    .blur(SHADOW_BLUR)
    .raw()
    .toBuffer()
  return sharp({ create: { width: MOCKUP_WIDTH + margin * 2, height: height + margin * 2, channels: 4, background: MOCKUP_BACKGROUND } })
    .composite([{ input: shadow, raw: { width: MOCKUP_WIDTH, height, channels: 4 }, left: margin, top: margin + Math.round(margin / 3) }])
    .removeAlpha()
    .raw()
    .toBuffer()
}

/** Backdrops by silhouette (a few templates and back sides, about 4 MB each). */
const backdrops = new PromiseCache<Buffer>(48 * 1024 * 1024, (backdrop) => backdrop.length)
let backdropsMade = 0
/** How many backdrops this process has made (for tests: one per silhouette). */
export const backdropRenders = () => backdropsMade

/** The composed mockups' pixels, kept for the next one while the encoder is done with them (buffer-pool.ts). */
const mockupBuffers = new BufferPool(32 * 1024 * 1024)

/**
 * `art` (RGBA, straight alpha, MOCKUP_WIDTH wide) over the opaque RGB `backdrop` at (margin, margin), into `out`: an
 * opaque art pixel is copied, a clear one leaves the backdrop, only the silhouette's soft edge is blended. The pixels of
 * libvips's `over` on an opaque base (src·α + dst·(1 − α)), rounded, in a few milliseconds instead of a float
 * composite of the whole mockup (issue 50: a third of a preview's mockup).
 */
function overBackdrop(art: Buffer, height: number, backdrop: Buffer, out: Buffer) {
  backdrop.copy(out)
  const stride = (MOCKUP_WIDTH + margin * 2) * 3
  for (let y = 0; y < height; y++) {
    let i = y * MOCKUP_WIDTH * 4
    let o = (margin + y) * stride + margin * 3
    for (let x = 0; x < MOCKUP_WIDTH; x++, i += 4, o += 3) {
      const a = art[i + 3]!
      if (a === 0) continue
      if (a === 255) {
        out[o] = art[i]!
        out[o + 1] = art[i + 1]!
        out[o + 2] = art[i + 2]!
        continue
      }
      const k = a / 255
      const l = 1 - k
      out[o] = art[i]! * k + out[o]! * l + 0.5
      out[o + 1] = art[i + 1]! * k + out[o + 1]! * l + 0.5
      out[o + 2] = art[i + 2]! * k + out[o + 2]! * l + 0.5
    }
  }
}

/**
 * The sheet at the mockup's width on its backdrop (decision 048, follow-up): opaque RGB pixels, (MOCKUP_WIDTH + 2
 * margins) × (its height + 2 margins), in a pooled buffer the caller gives back (mockupBuffers) once nothing reads it.
 */
async function composedMockup(image: RawImage, silhouette?: string): Promise<RawImage & { channels: 3 }> {
  const height = Math.round((image.height * MOCKUP_WIDTH) / image.width)
  // A preview's sheet is drawn at the mockup's width already (displayScaleOf): laid on as it is.
  const art =
    image.width === MOCKUP_WIDTH
      ? image.data
      : await sharp(image.data, { raw: { width: image.width, height: image.height, channels: 4 } })
          .resize(MOCKUP_WIDTH, height, { kernel: 'lanczos3' })
          .raw()
          .toBuffer()
  // A silhouette named by the caller (a template's, at display size) is known without reading its alpha.
  const key = silhouette
    ? `${height}:${silhouette}`
    : `${height}:${createHash('sha256')
        .update(alphaOf(art, MOCKUP_WIDTH * height))
        .digest('base64')}`
  const backdrop = await backdrops.get(key, () => backdropFor(alphaOf(art, MOCKUP_WIDTH * height), height))
  const data = mockupBuffers.take(backdrop.length)
  overBackdrop(art, height, backdrop, data)
  return { data, width: MOCKUP_WIDTH + margin * 2, height: height + margin * 2, channels: 3 }
}

/** The mockup's pixels before encoding: opaque RGBA, (MOCKUP_WIDTH + 2 margins) × (its height + 2 margins). */
export async function mockupPixels(image: RawImage): Promise<RawImage> {
  const composed = await composedMockup(image)
  const data = await sharp(composed.data, { raw: { width: composed.width, height: composed.height, channels: 3 } })
    .ensureAlpha()
    .raw()
    .toBuffer()
  mockupBuffers.give(composed.data)
  return { data, width: composed.width, height: composed.height }
}

/**
 * The mockup JPEG of a print sheet (RGBA): composed and encoded in one pipeline, the same pixels as mockupPixels.
 * `silhouette` names the sheet's silhouette when the caller knows it (every front of a template has the template's),
 * so its backdrop is found without hashing the sheet's alpha.
 */
export async function mockupOf(image: RawImage, silhouette?: string): Promise<Buffer> {
  const composed = await composedMockup(image, silhouette)
  try {
    return await sharp(composed.data, { raw: { width: composed.width, height: composed.height, channels: 3 } })
      .jpeg(MOCKUP_JPEG)
      .toBuffer()
  } finally {
    mockupBuffers.give(composed.data)
  }
}
