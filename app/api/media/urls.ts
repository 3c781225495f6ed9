import { photoSizeWords, type PhotoSizeWord, type RenditionName } from '../../contract/photos'

export const photoKey = (photoId: string, rendition: RenditionName) => `photos/${photoId}/${rendition}.jpg`

const MEDIA_PATH = /^\/v1\/media\/photos\/([0-9a-f-]{36})\/([a-z]+)\.jpg$/
const BUCKET_PATH = /^\/photos\/([0-9a-f-]{36})\/([a-z]+)\.jpg$/

/**
 * Media URLs carry the size word (SPEC.md §4): …/photos/<id>/small.jpg. They are served by the API at
 * /v1/media/photos/…, or straight from the bucket's public URL when S3_PUBLIC_URL is set.
 */
export function mediaUrls(config: { publicUrl: string; storage: { kind: 'local' } | { kind: 's3'; publicUrl: string | null } }) {
  const ownOrigin = new URL(config.publicUrl).origin
  const bucketBase = config.storage.kind === 's3' && config.storage.publicUrl ? config.storage.publicUrl.replace(/\/$/, '') : null

  return {
    photoUrl(photoId: string, size: PhotoSizeWord) {
      return bucketBase ? `${bucketBase}/${photoKey(photoId, size)}` : `${ownOrigin}/v1/media/${photoKey(photoId, size)}`
    },
    /** Hosts whose photo URLs are ours, so the proxy reads them from storage instead of the network. */
    ownHosts: [new URL(ownOrigin).host, ...(bucketBase ? [new URL(bucketBase).host] : [])],
    /** The photo and size word a URL of ours names, or null when it is not one of our photo URLs. */
    parseOwn(url: URL): { photoId: string; size: PhotoSizeWord } | null {
      let match: RegExpMatchArray | null = null
      if (url.origin === ownOrigin) match = url.pathname.match(MEDIA_PATH)
      else if (bucketBase && url.href.startsWith(`${bucketBase}/`)) match = `/${url.href.slice(bucketBase.length + 1).split(/[?#]/)[0]}`.match(BUCKET_PATH)
      if (!match || !(photoSizeWords as readonly string[]).includes(match[2]!)) return null
      return { photoId: match[1]!, size: match[2] as PhotoSizeWord }
    },
  }
}
export type MediaUrls = ReturnType<typeof mediaUrls>
