import { infiniteQueryOptions, queryOptions } from '@tanstack/react-query'
import { createServerFn } from '@tanstack/react-start'
import { albumApi } from '~/contract/endpoints/album'
import { mediaApi } from '~/contract/endpoints/media'
import { albumFilterSchema, uploadLinkRequestSchema, type AlbumFilter, type UploadLink } from '~/contract/photos'
import { z } from '~/contract/zod'
import type { ApiOutcome } from '~/lib/api-outcome'
import { orSignedOut, outcomeOf } from '~/lib/api-outcome.server'
import { apiMiddleware } from '~/lib/api.middleware'
import { UPLOAD_LINK_OPERATION } from '~/lib/photo-upload'

/** The shopper's album summary, or null when signed out (the picker then asks them to sign in). */
export const getAlbumSummary = createServerFn({ method: 'GET' })
  .middleware([apiMiddleware])
  .handler(({ context: { api } }) => orSignedOut(() => api.call(albumApi.albumSummary)))

/** One page of a family's photos, newest first; `nextCursor` is null at the end. */
export const getAlbumPhotos = createServerFn({ method: 'GET' })
  .middleware([apiMiddleware])
  .validator(z.object({ familyId: z.uuid(), filter: albumFilterSchema, cursor: z.string().max(512).optional() }))
  .handler(({ data, context: { api } }) =>
    api.call(albumApi.albumPhotos, { params: { familyId: data.familyId }, query: { filter: data.filter, cursor: data.cursor } }),
  )

/** The best photos for products, optionally of one family. */
export const getCuratedProductPhotos = createServerFn({ method: 'GET' })
  .middleware([apiMiddleware])
  .validator(z.object({ familyId: z.uuid().optional() }))
  .handler(({ data, context: { api } }) => api.call(albumApi.curatedProductPhotos, { query: { familyId: data.familyId } }))

/** The shopper's uploaded photos, newest first. */
export const getUploadedPhotos = createServerFn({ method: 'GET' })
  .middleware([apiMiddleware])
  .handler(({ context: { api } }) => api.call(mediaApi.listUploads))

/**
 * A signed, single-use link the browser uploads one photo to. Retried here, the one layer (SPEC.md §8);
 * answered as an outcome so a refusal's status reaches the page, which never asks again (issue 29).
 */
export const createPhotoUploadLink = createServerFn({ method: 'POST' })
  .middleware([apiMiddleware])
  .validator(uploadLinkRequestSchema)
  .handler(({ data, context: { api } }): Promise<ApiOutcome<UploadLink>> =>
    outcomeOf(() => api.call(mediaApi.createUploadLink, { body: data }, { operation: UPLOAD_LINK_OPERATION })),
  )

export const albumSummaryQuery = () => queryOptions({ queryKey: ['album', 'summary'], queryFn: () => getAlbumSummary() })

export const albumPhotosQuery = (familyId: string, filter: AlbumFilter) =>
  infiniteQueryOptions({
    queryKey: ['album', 'photos', familyId, filter],
    queryFn: ({ pageParam }) => getAlbumPhotos({ data: { familyId, filter, cursor: pageParam ?? undefined } }),
    initialPageParam: null as string | null,
    getNextPageParam: (page) => page.nextCursor,
  })

export const curatedProductPhotosQuery = (familyId?: string) =>
  queryOptions({ queryKey: ['album', 'curated', familyId ?? 'all'], queryFn: () => getCuratedProductPhotos({ data: { familyId } }) })

export const uploadedPhotosQuery = () => queryOptions({ queryKey: ['album', 'uploads'], queryFn: () => getUploadedPhotos() })
