import { createHash } from 'node:crypto'
import sharp, { type Metadata, type Sharp } from 'sharp'
import { ORIGINAL_LONG_EDGE, type RenditionName, type UploadContentType } from '../../contract/photos'
import { decodeHeif } from './heif-decoder'

/** Longest edge of each rendition (SPEC.md §9's size words, plus the normalised original kept for printing). */
export const RENDITION_LONG_EDGE: Record<RenditionName, number> = {
  small: 512,
  smartphone: 1280,
  original: ORIGINAL_LONG_EDGE,
}
/** JPEG settings per rendition: the printing original keeps full colour resolution. */
export const RENDITION_JPEG: Record<RenditionName, { quality: number; chromaSubsampling: '4:2:0' | '4:4:4' }> = {
  small: { quality: 80, chromaSubsampling: '4:2:0' },
  smartphone: { quality: 84, chromaSubsampling: '4:2:0' },
  original: { quality: 92, chromaSubsampling: '4:4:4' },
}
export const renditionNames = Object.keys(RENDITION_LONG_EDGE) as RenditionName[]

/** Decompression bombs stop here: no input over 100 megapixels is decoded. */
export const MAX_INPUT_PIXELS = 100_000_000

export class ImageRejected extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'ImageRejected'
  }
}

/** What the bytes really are, by their magic numbers; null when they are none of the types we take. */
export function sniffImageType(bytes: Uint8Array): UploadContentType | null {
  const b = Buffer.from(bytes.buffer, bytes.byteOffset, Math.min(bytes.byteLength, 64))
  if (b.length >= 3 && b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff) return 'image/jpeg'
  if (b.length >= 8 && b.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) return 'image/png'
  if (b.length >= 12 && b.toString('latin1', 0, 4) === 'RIFF' && b.toString('latin1', 8, 12) === 'WEBP') return 'image/webp'
  if (b.length >= 12 && b.toString('latin1', 4, 8) === 'ftyp') {
    const boxSize = b.readUInt32BE(0)
    const brands = [b.toString('latin1', 8, 12)]
    for (let at = 16; at + 4 <= Math.min(boxSize, b.length); at += 4) brands.push(b.toString('latin1', at, at + 4))
    if (brands.some((brand) => ['heic', 'heix', 'hevc', 'hevx', 'heim', 'heis'].includes(brand))) return 'image/heic'
    if (brands.some((brand) => ['mif1', 'msf1', 'heif'].includes(brand))) return 'image/heif'
  }
  return null
}

/** HEIC/HEIF (HEVC) is not in sharp's prebuilt libvips, so libheif (WASM, in a worker) decodes it to raw pixels first. */
async function openHeif(bytes: Buffer): Promise<Sharp> {
  let image: Awaited<ReturnType<typeof decodeHeif>>
  try {
    image = await decodeHeif(bytes, MAX_INPUT_PIXELS)
  } catch (error) {
    throw new ImageRejected(`The HEIC file could not be decoded: ${error instanceof Error ? error.message : String(error)}`)
  }
  if (image === 'too-large') throw new ImageRejected('The image has too many pixels to print')
  return sharp(image.data, { raw: { width: image.width, height: image.height, channels: 4 }, limitInputPixels: MAX_INPUT_PIXELS })
}

/** A sharp pipeline over the upright image: EXIF auto-orient, bombs refused, truncated files refused. */
async function openUpright(bytes: Buffer, type: UploadContentType): Promise<{ pipeline: Sharp; width: number; height: number }> {
  if (type === 'image/heic' || type === 'image/heif') {
    const pipeline = await openHeif(bytes)
    const meta = await pipeline.metadata()
    return { pipeline, width: meta.width, height: meta.height }
  }
  const pipeline = sharp(bytes, { limitInputPixels: MAX_INPUT_PIXELS, failOn: 'error' }).rotate()
  let meta: Metadata
  try {
    meta = await pipeline.metadata()
  } catch (error) {
    throw new ImageRejected(`The file is not a readable image: ${error instanceof Error ? error.message : String(error)}`)
  }
  if (!meta.width || !meta.height) throw new ImageRejected('The file is not a readable image')
  if (meta.width * meta.height > MAX_INPUT_PIXELS) throw new ImageRejected('The image has too many pixels to print')
  const turned = (meta.orientation ?? 1) >= 5
  return { pipeline, width: turned ? meta.height : meta.width, height: turned ? meta.width : meta.height }
}

/** Where a photo's subject is, as fractions 0–1 of its upright width (x) and height (y). */
export type FocalPoint = { x: number; y: number }

export type Renditions = {
  width: number
  height: number
  files: Record<RenditionName, Buffer>
  etags: Record<RenditionName, string>
  /** Null when none could be found (an image too small to crop). */
  focalPoint: FocalPoint | null
}

/**
 * The photo's subject, found once when it is stored (decision 059): sharp's attention strategy (libvips
 * smartcrop: skin tones, saturation and edges) run on the small rendition, which is upright, already
 * decoded cheaply and the photo's shape. libvips reports the attention centre only when it really crops,
 * so the image is asked for its own size less one pixel on its longer side: the whole photo is searched,
 * nothing is scaled, and the centre comes back in the rendition's own pixels.
 */
export async function focalPointOf(small: Buffer): Promise<FocalPoint | null> {
  const { width, height } = await sharp(small).metadata()
  if (!width || !height || Math.max(width, height) < 2) return null
  const [cropWidth, cropHeight] = width >= height ? [width - 1, height] : [width, height - 1]
  const { info } = await sharp(small).resize(cropWidth, cropHeight, { fit: 'cover', position: sharp.strategy.attention }).toBuffer({ resolveWithObject: true })
  if (info.attentionX === undefined || info.attentionY === undefined) return null
  const fraction = (n: number) => Math.round(Math.min(1, Math.max(0, n)) * 10_000) / 10_000
  return { x: fraction((info.attentionX + 0.5) / width), y: fraction((info.attentionY + 0.5) / height) }
}

export const etagOf = (bytes: Buffer) => `"${createHash('sha256').update(bytes).digest('base64url').slice(0, 27)}"`

/** One rendition: the upright image fitted inside the name's long edge (never enlarged), sRGB JPEG without metadata. */
export function encodeRendition(pipeline: Sharp, name: RenditionName): Promise<Buffer> {
  const edge = RENDITION_LONG_EDGE[name]
  return pipeline
    .clone()
    .resize({ width: edge, height: edge, fit: 'inside', withoutEnlargement: true })
    .toColourspace('srgb')
    .flatten({ background: '#ffffff' })
    .jpeg(RENDITION_JPEG[name])
    .toBuffer()
}

/** Every rendition of a photo from its uploaded bytes; throws ImageRejected when the bytes are not a usable image. */
export async function makeRenditions(bytes: Buffer, type: UploadContentType): Promise<Renditions> {
  const { pipeline, width, height } = await openUpright(bytes, type)
  let encoded: Buffer[]
  try {
    encoded = await Promise.all(renditionNames.map((name) => encodeRendition(pipeline, name)))
  } catch (error) {
    if (error instanceof ImageRejected) throw error
    throw new ImageRejected(`The image could not be processed: ${error instanceof Error ? error.message : String(error)}`)
  }
  const files = Object.fromEntries(renditionNames.map((name, i) => [name, encoded[i]!])) as Record<RenditionName, Buffer>
  const etags = Object.fromEntries(renditionNames.map((name) => [name, etagOf(files[name])])) as Record<RenditionName, string>
  return { width, height, files, etags, focalPoint: await focalPointOf(files.small) }
}

export const orientationOf = (width: number, height: number) =>
  Math.abs(width - height) / Math.max(width, height) < 0.05 ? 'square' : width > height ? 'landscape' : 'portrait'
