import { createServerFn } from '@tanstack/react-start'
import { savedDesignsApi } from '~/contract/endpoints/saved-designs'
import { savedDesignParamsSchema } from '~/contract/saved-designs'
import { outcomeOf } from '~/lib/api-outcome.server'
import { apiMiddleware } from '~/lib/api.middleware'

/** Deletes one saved design; answers the account's designs left. */
export const deleteSavedDesign = createServerFn({ method: 'POST' })
  .middleware([apiMiddleware])
  .validator(savedDesignParamsSchema)
  .handler(({ data, context: { api } }) => outcomeOf(async () => (await api.call(savedDesignsApi.deleteSavedDesign, { params: data })).designs))
