/**
 * The product's base images (masks, frames, pattern tiles, back sides) as the server reads them:
 * from the public directory, cached in memory, and scaled with sharp to exact output sizes. The
 * preview asks the API for the same scaled images, so both renderers start from identical pixels.
 */
import { createHash } from 'node:crypto'
import { existsSync } from 'node:fs'
import { readFile } from 'node:fs/promises'
import { join, resolve } from 'node:path'
import sharp from 'sharp'
import { baseImagePaths } from '../catalogue/ornaments'
import type { Size } from './layout'
import { PromiseCache } from './promise-cache'

/** Where the public files are: the source tree's public/ or a build's dist/client. */
export function publicDir(): string {
  const candidates = [process.env.PUBLIC_DIR, resolve(process.cwd(), 'public'), resolve(process.cwd(), 'dist/client')]
  return candidates.find((dir): dir is string => !!dir && existsSync(join(dir, 'photo-products'))) ?? resolve(process.cwd(), 'public')
}

const known = new Set(baseImagePaths())
const originals = new Map<string, Promise<Buffer>>()

/** The bytes of a base image named by its public path; anything not in the catalogue is refused. */
export function baseImage(path: string): Promise<Buffer> {
  if (!known.has(path)) return Promise.reject(new Error(`${path} is not a base image of the product`))
  let bytes = originals.get(path)
  if (!bytes) {
    bytes = readFile(join(publicDir(), path))
    bytes.catch(() => originals.delete(path))
    originals.set(path, bytes)
  }
  return bytes
}

// Every base image at every preview width (51 × 6) and the print scale fit, so no request pattern can make it resize again.
const scaled = new PromiseCache<Buffer>(512)

/** A base image resized to exactly `size` (PNG, lanczos), cached; the full size is the file itself. */
export function scaledBaseImage(path: string, size: Size): Promise<Buffer> {
  return scaled.get(`${path}@${size.width}x${size.height}`, async () => {
    const bytes = await baseImage(path)
    const meta = await sharp(bytes).metadata()
    if (meta.width === size.width && meta.height === size.height) return bytes
    return sharp(bytes).resize(size.width, size.height, { fit: 'fill', kernel: 'lanczos3' }).png({ compressionLevel: 1 }).toBuffer()
  })
}

type Raw = { data: Buffer; width: number; height: number }
const raws = new PromiseCache<Raw>(256 * 1024 * 1024, (raw) => raw.data.length)

/**
 * The same, decoded to raw RGBA and cached (up to 256 MB), so a print render does not decode the
 * mask and frame PNGs every time.
 */
export function scaledBaseImageRaw(path: string, size: Size): Promise<Raw> {
  return raws.get(`${path}@${size.width}x${size.height}`, async () => {
    const { data, info } = await sharp(await scaledBaseImage(path, size))
      .ensureAlpha()
      .raw()
      .toBuffer({ resolveWithObject: true })
    return { data, width: info.width, height: info.height }
  })
}

let hashes: Promise<Record<string, string>> | null = null

/** sha256 (hex, first 16 bytes) of every base image, keyed by public path. */
export function baseImageHashes(): Promise<Record<string, string>> {
  hashes ??= Promise.all(
    [...known].map(
      async (path) =>
        [
          path,
          createHash('sha256')
            .update(await baseImage(path))
            .digest('hex')
            .slice(0, 32),
        ] as const,
    ),
  ).then(Object.fromEntries)
  hashes.catch(() => (hashes = null))
  return hashes
}
