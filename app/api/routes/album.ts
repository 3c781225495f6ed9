import { Hono } from 'hono'
import {
  albumPhotosPageSchema,
  albumPhotosParamsSchema,
  albumPhotosQuerySchema,
  albumSummarySchema,
  curatedPhotosQuerySchema,
  curatedProductPhotosQuerySchema,
  photoListSchema,
  photoProxyQuerySchema,
} from '../../contract/photos'
import { z } from '../../contract/zod'
import { endpoint } from '../endpoint'
import { jpegResponse } from '../media/image-response'
import type { ApiEnv } from '../env'
import { albumPage, albumSummary, curatedPhotos, curatedProductPhotos } from '../services/album'
import { findPhoto } from '../services/photo-library'
import { ImageCache, proxyPhoto, type PhotoProxy } from '../services/photo-proxy'
import { signingKey } from '../services/signing'

const albumHeaders = { 'x-keepsake-timezone': 'IANA time zone for dates (default UTC)', 'x-keepsake-version': 'client version (may be empty)' }
const PROXY_CACHE_BYTES = 64 * 1024 * 1024

/** SPEC.md §7's album calls; their paths carry the product slug (`/v1/{product}-photos`). */
export function albumRoutes(productSlug: string) {
  const router = new Hono<ApiEnv>()
  const cache = new ImageCache(PROXY_CACHE_BYTES)
  let proxy: PhotoProxy | undefined

  endpoint(
    router,
    {
      method: 'get',
      path: `/${productSlug}-photos`,
      tag: 'album',
      summary: "Summary of the caller's album: each family with photo counts, a cover and its date range",
      auth: 'user',
      headers: albumHeaders,
      response: albumSummarySchema,
    },
    ({ user }, c) => {
      const { db, media } = c.get('deps')
      return albumSummary(db, user.id, media, c.get('timezone'))
    },
  )

  endpoint(
    router,
    {
      method: 'get',
      path: `/${productSlug}-photos/proxy`,
      tag: 'album',
      summary: 'An image by URL at the output size (our media and allow-listed CDN hosts only)',
      auth: 'user',
      query: photoProxyQuerySchema,
      headers: { 'if-none-match': 'ETag from an earlier answer' },
      response: z.any(),
    },
    async ({ query }, c) => {
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
    },
  )

  endpoint(
    router,
    {
      method: 'get',
      path: `/${productSlug}-photos/:familyId`,
      tag: 'album',
      summary: "One family's photos, newest first, a page at a time (opaque cursor; nextCursor null at the end)",
      auth: 'user',
      headers: albumHeaders,
      params: albumPhotosParamsSchema,
      query: albumPhotosQuerySchema,
      response: albumPhotosPageSchema,
    },
    async ({ user, params, query }, c) => {
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
    },
  )

  endpoint(
    router,
    {
      method: 'get',
      path: `/growth/${productSlug}-curated-photos`,
      tag: 'album',
      summary: 'The best photos for products: favourites and recommended first, landscape only when asked',
      auth: 'user',
      headers: albumHeaders,
      query: curatedPhotosQuerySchema,
      response: photoListSchema,
    },
    ({ user, query }, c) => {
      const { db, media } = c.get('deps')
      return curatedPhotos(db, { userId: user.id, ...query, media, timezone: c.get('timezone') })
    },
  )

  endpoint(
    router,
    {
      method: 'get',
      path: `/${productSlug}-curated-photo-products-photos`,
      tag: 'album',
      summary: 'Curated photos for the product pages, optionally for one family',
      auth: 'user',
      headers: albumHeaders,
      query: curatedProductPhotosQuerySchema,
      response: photoListSchema,
    },
    ({ user, query }, c) => {
      const { db, media } = c.get('deps')
      return curatedProductPhotos(db, { userId: user.id, familyId: query.familyId, media, timezone: c.get('timezone') })
    },
  )

  return router
}
