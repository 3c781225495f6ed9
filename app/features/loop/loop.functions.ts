import { queryOptions } from '@tanstack/react-query'
import { createServerFn } from '@tanstack/react-start'
import { photoListSchema } from '~/contract/photos'
import { orSignedOut } from '~/lib/api-outcome.server'
import { apiForRequest } from '~/lib/api-call.server'
import { timezoneMiddleware } from '~/lib/timezone.middleware'
import { getConfig } from '../../../app.config'

/** GET /v1/{product}-curated-photo-products-photos: the shopper's best photos for products; null when signed out. */
export const getCampaignPhotos = createServerFn({ method: 'GET' })
  .middleware([timezoneMiddleware])
  .handler(({ context }) =>
    orSignedOut(async () => {
      const { photos } = await apiForRequest({ timezone: context.timezone }).call(`/${getConfig().productSlug}-curated-photo-products-photos`, {
        schema: photoListSchema,
      })
      return photos
    }),
  )

export const campaignPhotosQuery = () => queryOptions({ queryKey: ['loop', 'campaign-photos'], queryFn: () => getCampaignPhotos(), staleTime: 60_000 })
