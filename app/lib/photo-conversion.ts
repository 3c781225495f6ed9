import { photoSizeWords, type PhotoSizeWord } from '../catalogue/photo-constants'
import type { FocalPoint } from '../catalogue/focal-point'
import type { Photo } from '../contract/photos'

/** SPEC.md §3: GET /v1/{product}-photos/proxy?url=&inputSize=small&outputSize=smartphone. */
/** An empty base URL gives a same-origin path. */
export function photoProxyUrl(baseUrl: string, productSlug: string, url: string, sizes: { inputSize?: string; outputSize?: string } = {}) {
  const query = new URLSearchParams({ url, inputSize: sizes.inputSize ?? 'small', outputSize: sizes.outputSize ?? 'smartphone' })
  return `${baseUrl.replace(/\/$/, '')}/v1/${productSlug}-photos/proxy?${query}`
}

/** SPEC.md §8. */
export const EMPTY_FILE_READER_MESSAGE = 'FileReader result is empty'

const SIZE_WORD = new RegExp(`/(${photoSizeWords.join('|')})(\\.[A-Za-z0-9]+)(?=$|[?#])`)

/** SPEC.md §4: a media URL at another size, by replacing its size word; null when the URL carries none. */
export function urlAtSize(url: string, size: PhotoSizeWord): string | null {
  return SIZE_WORD.test(url) ? url.replace(SIZE_WORD, `/${size}$2`) : null
}

type ReaderLike = {
  result: string | ArrayBuffer | null
  onload: (() => void) | null
  onerror: (() => void) | null
  error?: unknown
  readAsDataURL(blob: Blob): void
}

/** A blob as a data URL; a reader that finishes with no result fails with 'FileReader result is empty'. */
export function readBlobAsDataUrl(blob: Blob, Reader: new () => ReaderLike = FileReader as unknown as new () => ReaderLike): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new Reader()
    reader.onload = () => {
      if (typeof reader.result === 'string' && reader.result !== '') resolve(reader.result)
      else reject(new Error(EMPTY_FILE_READER_MESSAGE))
    }
    reader.onerror = () => reject(reader.error instanceof Error ? reader.error : new Error(EMPTY_FILE_READER_MESSAGE))
    reader.readAsDataURL(blob)
  })
}

export type PhotoSourceOptions = {
  size: PhotoSizeWord
  /** The album API's base URL ('' for same origin) and product slug, for the proxy. */
  apiBaseUrl: string
  productSlug: string
  /** The celebrate client never uses the proxy (SPEC.md §7). */
  photoProxy: boolean
}

/** Where to fetch a photo at a size: its own URL with the size word swapped, else the proxy, else as it is. */
export function photoSourceUrl(url: string, options: PhotoSourceOptions): string {
  const direct = urlAtSize(url, options.size)
  if (direct) return direct
  if (!options.photoProxy) return url
  return photoProxyUrl(options.apiBaseUrl, options.productSlug, url, { inputSize: 'small', outputSize: options.size })
}

/** SPEC.md §4: from a media URL to a blob to a data URL. */
export async function photoToDataUrl(url: string, options: PhotoSourceOptions & { fetch?: typeof fetch; Reader?: new () => ReaderLike }): Promise<string> {
  const source = photoSourceUrl(url, options)
  // The proxy is an album call and sends credentials (SPEC.md §6); media URLs need none, and a CDN answering * refuses them.
  const viaProxy = source !== url && urlAtSize(url, options.size) === null
  const response = await (options.fetch ?? fetch)(source, { credentials: viaProxy ? 'include' : 'same-origin' })
  if (!response.ok) throw new Error(`The photo could not be loaded (${response.status})`)
  return readBlobAsDataUrl(await response.blob(), options.Reader)
}

/** A photo chosen for a product. Uploaded photos keep their url; a base64 copy is added when converted (SPEC.md §3). */
export type ChosenPhoto = {
  id: string
  url: string
  source: 'album' | 'upload'
  width: number
  height: number
  /** Where the subject is (the API's focalPoint); null or absent: place it centred. */
  focalPoint?: FocalPoint | null
  base64?: string
}

/** An album or uploaded photo (the API's answer) as it is chosen: what the designer and the cart keep of it. */
export const toChosen = (photo: Photo): ChosenPhoto => ({
  id: photo.id,
  url: photo.url,
  source: photo.source,
  width: photo.width,
  height: photo.height,
  focalPoint: photo.focalPoint,
})

export async function withBase64(photo: ChosenPhoto, options: Parameters<typeof photoToDataUrl>[1]): Promise<ChosenPhoto> {
  if (photo.base64) return photo
  return { ...photo, base64: await photoToDataUrl(photo.url, options) }
}
