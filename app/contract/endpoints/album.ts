import type { Endpoint } from '../endpoint'
import {
  albumPhotosPageSchema,
  albumPhotosParamsSchema,
  albumPhotosQuerySchema,
  albumSummarySchema,
  curatedPhotosQuerySchema,
  curatedProductPhotosQuerySchema,
  photoListSchema,
  photoProxyQuerySchema,
} from '../photos'
import { z } from '../zod'

const albumHeaders = { 'x-keepsake-timezone': 'IANA time zone for dates (default UTC)', 'x-keepsake-version': 'client version (may be empty)' }

export const albumApi = {
  albumSummary: {
    method: 'get',
    path: `/{product}-photos`,
    tag: 'album',
    summary: "Summary of the caller's album: each family with photo counts, a cover and its date range",
    auth: 'user',
    headers: albumHeaders,
    response: albumSummarySchema,
  },
  photoProxy: {
    method: 'get',
    path: `/{product}-photos/proxy`,
    tag: 'album',
    summary: 'An image by URL at the output size (our media and allow-listed CDN hosts only)',
    auth: 'user',
    query: photoProxyQuerySchema,
    headers: { 'if-none-match': 'ETag from an earlier answer' },
    response: z.any(),
    produces: ['image/jpeg'],
    alsoAnswers: { 304: 'Not modified: the ETag sent is current' },
  },
  albumPhotos: {
    method: 'get',
    path: `/{product}-photos/:familyId`,
    tag: 'album',
    summary: "One family's photos, newest first, a page at a time (opaque cursor; nextCursor null at the end)",
    auth: 'user',
    headers: albumHeaders,
    params: albumPhotosParamsSchema,
    query: albumPhotosQuerySchema,
    response: albumPhotosPageSchema,
  },
  curatedPhotos: {
    method: 'get',
    path: `/growth/{product}-curated-photos`,
    tag: 'album',
    summary: 'The best photos for products: favourites and recommended first, landscape only when asked',
    auth: 'user',
    headers: albumHeaders,
    query: curatedPhotosQuerySchema,
    response: photoListSchema,
  },
  curatedProductPhotos: {
    method: 'get',
    path: `/{product}-curated-photo-products-photos`,
    tag: 'album',
    summary: 'Curated photos for the product pages, optionally for one family',
    auth: 'user',
    headers: albumHeaders,
    query: curatedProductPhotosQuerySchema,
    response: photoListSchema,
  },
} as const satisfies Record<string, Endpoint>
