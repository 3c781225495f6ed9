import { queryOptions } from '@tanstack/react-query'
import { createServerFn } from '@tanstack/react-start'
import { designSharesApi } from '~/contract/endpoints/design-shares'
import { designShareTokenParamsSchema } from '~/contract/design-shares'
import { outcomeOf } from '~/lib/api-outcome.server'
import { apiMiddleware } from '~/lib/api.middleware'

/** A shared design as a family member sees it: 401 signed out, 404 when it is not theirs to see. */
export const getSharedDesign = createServerFn({ method: 'GET' })
  .middleware([apiMiddleware])
  .validator(designShareTokenParamsSchema)
  .handler(({ data, context: { api } }) => outcomeOf(() => api.call(designSharesApi.getSharedDesign, { params: data })))

export const sharedDesignQuery = (token: string) => queryOptions({ queryKey: ['shared-design', token], queryFn: () => getSharedDesign({ data: { token } }) })
