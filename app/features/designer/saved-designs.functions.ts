import { queryOptions } from '@tanstack/react-query'
import { createServerFn } from '@tanstack/react-start'
import { savedDesignsApi } from '~/contract/endpoints/saved-designs'
import { saveDesignRequestSchema, savedDesignParamsSchema, savedDesignVariantParamsSchema } from '~/contract/saved-designs'
import { orSignedOut, outcomeOf } from '~/lib/api-outcome.server'
import { apiMiddleware } from '~/lib/api.middleware'

/** The shopper's saved designs, last edited first, or null when signed out. */
export const getSavedDesigns = createServerFn({ method: 'GET' })
  .middleware([apiMiddleware])
  .handler(({ context: { api } }) => orSignedOut(async () => (await api.call(savedDesignsApi.listSavedDesigns)).designs))

/** Saves the design of one variant to the account (404 when it names a photo the shopper cannot see). */
export const saveDesign = createServerFn({ method: 'POST' })
  .middleware([apiMiddleware])
  .validator(savedDesignVariantParamsSchema.extend({ design: saveDesignRequestSchema }))
  .handler(({ data, context: { api } }) => outcomeOf(() => api.call(savedDesignsApi.saveDesign, { params: { variantId: data.variantId }, body: data.design })))

export const deleteSavedDesign = createServerFn({ method: 'POST' })
  .middleware([apiMiddleware])
  .validator(savedDesignParamsSchema)
  .handler(({ data, context: { api } }) => outcomeOf(async () => (await api.call(savedDesignsApi.deleteSavedDesign, { params: data })).designs))

export const savedDesignsQuery = () => queryOptions({ queryKey: ['saved-designs'], queryFn: () => getSavedDesigns() })
