import { photoSizeWords, type PhotoSizeWord, type RenditionName } from '../../contract/photos'

export const photoKey = (photoId: string, rendition: RenditionName) => `photos/${photoId}/${rendition}.jpg`

/** photos/<uuid>/<word>.jpg, with a strict UUID so nothing else ever reaches a uuid column. */
const PHOTO_FILE = /^photos\/([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\/([a-z]+)\.jpg$/

/**
 * Media URLs carry the size word (SPEC.md §4): …/photos/<id>/small.jpg. They are served by the API at
 * /v1/media/photos/…, or straight from the bucket's public URL when S3_PUBLIC_URL is set.
 *
 * Our own media URLs are root-relative (`/v1/media/…`), so a page loads them from whatever host name
 * it was opened under (issue 15, bug 6; decision 020). A URL that leaves the site — a print file for
 * the print provider, a line image for Stripe — goes through `absolute`, which resolves it against
 * PUBLIC_URL.
 */
export function mediaUrls(config: { publicUrl: string; storage: { kind: 'local' } | { kind: 's3'; publicUrl: string | null } }) {
  const ownOrigin = new URL(config.publicUrl).origin
  // Normalised by URL, so an upper-case host or an explicit default port still matches.
  const bucket = config.storage.kind === 's3' && config.storage.publicUrl ? new URL(config.storage.publicUrl) : null
  const bucketPrefix = bucket ? `${bucket.pathname.replace(/\/$/, '')}/` : null
  const bucketBase = bucket ? `${bucket.origin}${bucketPrefix}`.replace(/\/$/, '') : null
  const fileUnder = (pathname: string, prefix: string) => (pathname.startsWith(prefix) ? pathname.slice(prefix.length).match(PHOTO_FILE) : null)

  return {
    photoUrl(photoId: string, size: PhotoSizeWord) {
      return bucketBase ? `${bucketBase}/${photoKey(photoId, size)}` : `/v1/media/${photoKey(photoId, size)}`
    },
    /** A stored preview file (print file, mockup or source crop), served by the API or the bucket. */
    previewUrl(previewId: string, file: string) {
      return bucketBase ? `${bucketBase}/previews/${previewId}/${file}` : `/v1/media/previews/${previewId}/${file}`
    },
    /** A preview's print file (front.png, back.png): the API's URL even beside a bucket, since it is its design's file, kept under the design's hash. */
    printFileUrl(previewId: string, position: 'front' | 'back') {
      return `/v1/media/previews/${previewId}/${position}.png`
    },
    /** A preview's source crop: the API's URL even beside a bucket, since the API makes a crop on its first request (decision 056). */
    sourceCropUrl(previewId: string, index: number) {
      return `/v1/media/previews/${previewId}/source-${index}.jpg`
    },
    /** A media URL of ours as an absolute URL under PUBLIC_URL, for links that leave the site; others unchanged. */
    absolute(url: string) {
      return url.startsWith('/') && !url.startsWith('//') ? new URL(url, ownOrigin).href : url
    },
    /** A URL as the proxy reads it: a root-relative path of ours resolves against PUBLIC_URL. */
    resolve(raw: string) {
      return raw.startsWith('/') && !raw.startsWith('//') && !raw.startsWith('/\\') ? `${ownOrigin}${raw}` : raw
    },
    /** Hosts whose photo URLs are ours, so the proxy reads them from storage instead of the network. */
    ownHosts: [new URL(ownOrigin).host, ...(bucket ? [bucket.host] : [])],
    /** The photo and size word a URL of ours names, or null when it is not one of our photo URLs. */
    parseOwn(url: URL): { photoId: string; size: PhotoSizeWord } | null {
      let match: RegExpMatchArray | null = null
      if (url.origin === ownOrigin) match = fileUnder(url.pathname, '/v1/media/')
      else if (bucket && bucketPrefix && url.origin === bucket.origin) match = fileUnder(url.pathname, bucketPrefix)
      if (!match || !(photoSizeWords as readonly string[]).includes(match[2]!)) return null
      return { photoId: match[1]!, size: match[2] as PhotoSizeWord }
    },
  }
}
export type MediaUrls = ReturnType<typeof mediaUrls>
