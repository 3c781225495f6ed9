import { infiniteQueryOptions, queryOptions } from '@tanstack/react-query'
import { createServerFn } from '@tanstack/react-start'
import {
  albumFilterSchema,
  albumPhotosPageSchema,
  albumSummarySchema,
  photoListSchema,
  uploadLinkRequestSchema,
  uploadLinkSchema,
  type AlbumFilter,
} from '~/contract/photos'
import { z } from '~/contract/zod'
import { ApiClientError } from '~/lib/api-client'
import { apiForRequest } from '~/lib/api-call.server'
import { timezoneMiddleware } from '~/lib/timezone.middleware'
import { getConfig } from '../../../app.config'

const slug = () => getConfig().productSlug

/** The shopper's album summary, or null when signed out (the picker then asks them to sign in). */
export const getAlbumSummary = createServerFn({ method: 'GET' })
  .middleware([timezoneMiddleware])
  .handler(async ({ context }) => {
    try {
      return await apiForRequest({ timezone: context.timezone }).call(`/${slug()}-photos`, { schema: albumSummarySchema })
    } catch (error) {
      if (error instanceof ApiClientError && error.status === 401) return null
      throw error
    }
  })

export const getAlbumPhotos = createServerFn({ method: 'GET' })
  .middleware([timezoneMiddleware])
  .validator(z.object({ familyId: z.uuid(), filter: albumFilterSchema, cursor: z.string().max(512).optional() }))
  .handler(({ data, context }) =>
    apiForRequest({ timezone: context.timezone }).call(`/${slug()}-photos/${data.familyId}`, {
      query: { filter: data.filter, cursor: data.cursor },
      schema: albumPhotosPageSchema,
    }),
  )

export const getCuratedProductPhotos = createServerFn({ method: 'GET' })
  .middleware([timezoneMiddleware])
  .validator(z.object({ familyId: z.uuid().optional() }))
  .handler(({ data, context }) =>
    apiForRequest({ timezone: context.timezone }).call(`/${slug()}-curated-photo-products-photos`, {
      query: { familyId: data.familyId },
      schema: photoListSchema,
    }),
  )

export const getUploadedPhotos = createServerFn({ method: 'GET' })
  .middleware([timezoneMiddleware])
  .handler(({ context }) => apiForRequest({ timezone: context.timezone }).call('/media/uploads', { schema: photoListSchema }))

export const createPhotoUploadLink = createServerFn({ method: 'POST' })
  .validator(uploadLinkRequestSchema)
  .handler(({ data }) => apiForRequest().call('/media/growth-product-photo', { method: 'POST', body: data, schema: uploadLinkSchema }))

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
