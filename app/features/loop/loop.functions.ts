import { queryOptions } from '@tanstack/react-query'
import { createServerFn } from '@tanstack/react-start'
import { albumApi } from '~/contract/endpoints/album'
import { orSignedOut } from '~/lib/api-outcome.server'
import { apiMiddleware } from '~/lib/api.middleware'

/** The shopper's best photos for products; null when signed out. */
export const getCampaignPhotos = createServerFn({ method: 'GET' })
  .middleware([apiMiddleware])
  .handler(({ context: { api } }) => orSignedOut(async () => (await api.call(albumApi.curatedProductPhotos, { query: {} })).photos))

export const campaignPhotosQuery = () => queryOptions({ queryKey: ['loop', 'campaign-photos'], queryFn: () => getCampaignPhotos(), staleTime: 60_000 })
