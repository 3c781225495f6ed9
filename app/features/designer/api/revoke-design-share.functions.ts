import { createServerFn } from '@tanstack/react-start'
import { designSharesApi } from '~/contract/endpoints/design-shares'
import { designShareTokenParamsSchema } from '~/contract/design-shares'
import { outcomeOf } from '~/lib/api-outcome.server'
import { apiMiddleware } from '~/lib/api.middleware'

/** Stops a share: the family can no longer open it. */
export const revokeDesignShare = createServerFn({ method: 'POST' })
  .middleware([apiMiddleware])
  .validator(designShareTokenParamsSchema)
  .handler(({ data, context: { api } }) => outcomeOf(() => api.call(designSharesApi.revokeDesignShare, { params: data })))
