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
import { baseImagePaths } from '../lib/ornaments'
import type { Size } from './layout'

function publicDir(): string {
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

const SCALED_CACHE_LIMIT = 96
const scaled = new Map<string, Promise<Buffer>>()

/** A base image resized to exactly `size` (PNG, lanczos), cached; the full size is the file itself. */
export function scaledBaseImage(path: string, size: Size): Promise<Buffer> {
  const key = `${path}@${size.width}x${size.height}`
  const hit = scaled.get(key)
  if (hit) {
    scaled.delete(key)
    scaled.set(key, hit)
    return hit
  }
  const made = baseImage(path).then(async (bytes) => {
    const meta = await sharp(bytes).metadata()
    if (meta.width === size.width && meta.height === size.height) return bytes
    return sharp(bytes).resize(size.width, size.height, { fit: 'fill', kernel: 'lanczos3' }).png({ compressionLevel: 1 }).toBuffer()
  })
  made.catch(() => scaled.delete(key))
  scaled.set(key, made)
  while (scaled.size > SCALED_CACHE_LIMIT) scaled.delete(scaled.keys().next().value!)
  return made
}

const RAW_CACHE_BYTES = 256 * 1024 * 1024
const raws = new Map<string, Promise<{ data: Buffer; width: number; height: number }>>()
let rawBytes = 0

/**
 * The same, decoded to raw RGBA and cached (up to 256 MB, least recently used first out), so a
 * print render does not decode the mask and frame PNGs every time.
 */
export function scaledBaseImageRaw(path: string, size: Size): Promise<{ data: Buffer; width: number; height: number }> {
  const key = `${path}@${size.width}x${size.height}`
  const hit = raws.get(key)
  if (hit) {
    raws.delete(key)
    raws.set(key, hit)
    return hit
  }
  const made = scaledBaseImage(path, size).then(async (png) => {
    const { data, info } = await sharp(png).ensureAlpha().raw().toBuffer({ resolveWithObject: true })
    rawBytes += data.length
    while (rawBytes > RAW_CACHE_BYTES && raws.size > 1) {
      const [oldest, entry] = raws.entries().next().value!
      raws.delete(oldest)
      rawBytes -= (await entry).data.length
    }
    return { data, width: info.width, height: info.height }
  })
  made.catch(() => raws.delete(key))
  raws.set(key, made)
  return made
}

let hashes: Promise<Record<string, string>> | null = null

/** sha256 (hex, first 16 bytes) of every base image, keyed by public path. */
export function baseImageHashes(): Promise<Record<string, string>> {
  hashes ??= Promise.all(
    [...known].map(async (path) => [path, createHash('sha256').update(await baseImage(path)).digest('hex').slice(0, 32)] as const),
  ).then(Object.fromEntries)
  hashes.catch(() => (hashes = null))
  return hashes
}
