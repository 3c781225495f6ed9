import sharp from 'sharp'
import type { PhotoSizeWord } from '../../contract/photos'
import { AppError } from '../errors'
import { encodeRendition, etagOf, MAX_INPUT_PIXELS, sniffImageType } from '../media/images'
import { fetchImageSafely, isAllowedHost, parseProxyTarget, ProxyRefusal, type SafeFetchOptions } from '../media/safe-fetch'
import { photoKey, type MediaUrls } from '../media/urls'
import type { ObjectStorage } from '../storage/storage'

export type ProxiedImage = { body: Buffer; etag: string }
/** body is null when the caller's If-None-Match already names this image (answer 304). */
export type ProxyAnswer = { body: Buffer | null; etag: string }

/** Rendered proxy answers, least recently used first out, within a byte budget. */
export class ImageCache {
  private entries = new Map<string, ProxiedImage>()
  private bytes = 0
  constructor(private readonly budgetBytes: number) {}

  get(key: string) {
    const hit = this.entries.get(key)
    if (hit) {
      this.entries.delete(key)
      this.entries.set(key, hit)
    }
    return hit
  }

  set(key: string, value: ProxiedImage) {
    if (value.body.length > this.budgetBytes / 4) return
    const old = this.entries.get(key)
    if (old) this.bytes -= old.body.length
    this.entries.set(key, value)
    this.bytes += value.body.length
    for (const [oldest, entry] of this.entries) {
      if (this.bytes <= this.budgetBytes) break
      this.entries.delete(oldest)
      this.bytes -= entry.body.length
    }
  }
}

export type PhotoProxy = {
  storage: ObjectStorage
  media: MediaUrls
  /** CDN hosts (PHOTO_PROXY_HOSTS) and the bucket's own hosts. */
  remoteHosts: readonly string[]
  cache: ImageCache
  /** The stored ETag of one of our photos' renditions, so a revalidation needs no read from storage. */
  ownEtag?: (photoId: string, size: PhotoSizeWord) => Promise<string | null>
  fetchOptions?: Partial<SafeFetchOptions>
}

const refusal = (error: ProxyRefusal) => new AppError(error.code, error.message)

/**
 * GET /v1/{product}-photos/proxy (SPEC.md §3): an image by URL at the output size. Our own photo URLs
 * are read straight from storage; other hosts only from the allow-list, through the SSRF-safe fetcher.
 */
export async function proxyPhoto(proxy: PhotoProxy, rawUrl: string, outputSize: PhotoSizeWord, ifNoneMatch?: string): Promise<ProxyAnswer> {
  let target: URL
  try {
    target = parseProxyTarget(proxy.media.resolve(rawUrl))
  } catch (error) {
    if (error instanceof ProxyRefusal) throw refusal(error)
    throw error
  }
  const own = proxy.media.parseOwn(target)
  if (own) {
    const known = await proxy.ownEtag?.(own.photoId, outputSize)
    if (known && known === ifNoneMatch) return { body: null, etag: known }
    const object = await proxy.storage.get(photoKey(own.photoId, outputSize))
    if (!object) throw new AppError('not_found', 'Photo not found')
    return { body: object.body, etag: known ?? etagOf(object.body) }
  }
  if (proxy.media.ownHosts.includes(target.host)) throw new AppError('forbidden', 'Only photo URLs of this store can be proxied from it')
  if (!isAllowedHost(target, proxy.remoteHosts)) {
    throw new AppError('forbidden', `Photos from ${target.hostname} cannot be proxied; only this store's media and its CDN hosts are allowed`)
  }
  const cacheKey = `${outputSize} ${target.href}`
  const cached = proxy.cache.get(cacheKey)
  if (cached) return answer(cached, ifNoneMatch)
  let fetched: Awaited<ReturnType<typeof fetchImageSafely>>
  try {
    fetched = await fetchImageSafely(target.href, { ...proxy.fetchOptions, allowedHosts: proxy.remoteHosts })
  } catch (error) {
    if (error instanceof ProxyRefusal) throw refusal(error)
    throw error
  }
  // Judge the bytes, not the remote Content-Type: sharp would also render SVG or PDF handed to it.
  const sniffed = sniffImageType(fetched.bytes)
  if (sniffed !== 'image/jpeg' && sniffed !== 'image/png' && sniffed !== 'image/webp') {
    throw new AppError('unsupported_media_type', 'The URL does not point at a JPEG, PNG or WebP image')
  }
  let body: Buffer
  try {
    body = await encodeRendition(sharp(fetched.bytes, { limitInputPixels: MAX_INPUT_PIXELS, failOn: 'error' }).rotate(), outputSize)
  } catch (error) {
    const tooBig = error instanceof Error && /pixel limit/i.test(error.message)
    throw tooBig
      ? new AppError('payload_too_large', 'The image has too many pixels to proxy')
      : new AppError('unsupported_media_type', 'The URL does not point at a readable image')
  }
  const image = { body, etag: etagOf(body) }
  proxy.cache.set(cacheKey, image)
  return answer(image, ifNoneMatch)
}

const answer = (image: ProxiedImage, ifNoneMatch: string | undefined): ProxyAnswer => (image.etag === ifNoneMatch ? { body: null, etag: image.etag } : image)
