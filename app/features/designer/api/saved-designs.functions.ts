import { queryOptions } from '@tanstack/react-query'
import { createServerFn } from '@tanstack/react-start'
import { savedDesignsApi } from '~/contract/endpoints/saved-designs'
import { orSignedOut } from '~/lib/api-outcome.server'
import { apiMiddleware } from '~/lib/api.middleware'

/** The shopper's saved designs, last edited first, or null when signed out. */
export const getSavedDesigns = createServerFn({ method: 'GET' })
  .middleware([apiMiddleware])
  .handler(({ context: { api } }) => orSignedOut(async () => (await api.call(savedDesignsApi.listSavedDesigns)).designs))

export const savedDesignsQuery = () => queryOptions({ queryKey: ['saved-designs'], queryFn: () => getSavedDesigns() })
