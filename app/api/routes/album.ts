import { albumApi } from '../../contract/endpoints/album'
import { forProduct } from '../endpoint'
import { Hono } from 'hono'
import { endpoint } from '../endpoint'
import { jpegResponse } from '../media/image-response'
import type { ApiEnv } from '../env'
import { albumPage, albumSummary, curatedPhotos, curatedProductPhotos } from '../services/album'
import { findPhoto } from '../services/photo-library'
import { ImageCache, proxyPhoto, type PhotoProxy } from '../services/photo-proxy'
import { signingKey } from '../services/signing'

const PROXY_CACHE_BYTES = 64 * 1024 * 1024

/** SPEC.md §7's album calls; their paths carry the product slug (`/v1/{product}-photos`). */
export function albumRoutes(productSlug: string) {
  const router = new Hono<ApiEnv>()
  const cache = new ImageCache(PROXY_CACHE_BYTES)
  let proxy: PhotoProxy | undefined

  endpoint(router, forProduct(albumApi.albumSummary, productSlug), ({ user }, c) => {
    const { db, media } = c.get('deps')
    return albumSummary(db, user.id, media, c.get('timezone'))
  })

  endpoint(router, forProduct(albumApi.photoProxy, productSlug), async ({ query }, c) => {
    const { db, storage, media, config } = c.get('deps')
    proxy ??= {
      storage,
      media,
      cache,
      remoteHosts: [...config.photoProxyHosts, ...storage.hosts],
      ownEtag: async (photoId, size) => (await findPhoto(db, photoId))?.etags[size] ?? null,
    }
    const image = await proxyPhoto(proxy, query.url, query.outputSize, c.req.header('if-none-match'))
    return jpegResponse(image.body, image.etag, 'private, max-age=86400', { vary: 'cookie' })
  })

  endpoint(router, forProduct(albumApi.albumPhotos, productSlug), async ({ user, params, query }, c) => {
    const { db, media, config } = c.get('deps')
    return albumPage(db, {
      userId: user.id,
      familyId: params.familyId,
      filter: query.filter,
      cursor: query.cursor,
      key: await signingKey(db, config),
      media,
      timezone: c.get('timezone'),
    })
  })

  endpoint(router, forProduct(albumApi.curatedPhotos, productSlug), ({ user, query }, c) => {
    const { db, media } = c.get('deps')
    return curatedPhotos(db, { userId: user.id, ...query, media, timezone: c.get('timezone') })
  })

  endpoint(router, forProduct(albumApi.curatedProductPhotos, productSlug), ({ user, query }, c) => {
    const { db, media } = c.get('deps')
    return curatedProductPhotos(db, { userId: user.id, familyId: query.familyId, media, timezone: c.get('timezone') })
  })

  return router
}
