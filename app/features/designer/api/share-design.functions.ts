import { createServerFn } from '@tanstack/react-start'
import { designSharesApi } from '~/contract/endpoints/design-shares'
import { createDesignShareRequestSchema } from '~/contract/design-shares'
import { outcomeOf } from '~/lib/api-outcome.server'
import { apiMiddleware } from '~/lib/api.middleware'

/** Sends a saved design to one of the shopper's families (422 with the reason when it cannot go). */
export const shareDesign = createServerFn({ method: 'POST' })
  .middleware([apiMiddleware])
  .validator(createDesignShareRequestSchema)
  .handler(({ data, context: { api } }) => outcomeOf(() => api.call(designSharesApi.createDesignShare, { body: data })))
