import { queryOptions } from '@tanstack/react-query'
import { createServerFn } from '@tanstack/react-start'
import { designSharesApi } from '~/contract/endpoints/design-shares'
import { designSharesQuerySchema } from '~/contract/design-shares'
import { orSignedOut } from '~/lib/api-outcome.server'
import { apiMiddleware } from '~/lib/api.middleware'

/** The live shares of one saved design with the family's answers, and the families it can go to; null when signed out. */
export const getDesignShares = createServerFn({ method: 'GET' })
  .middleware([apiMiddleware])
  .validator(designSharesQuerySchema)
  .handler(({ data, context: { api } }) => orSignedOut(() => api.call(designSharesApi.listDesignShares, { query: data })))

export const designSharesQuery = (designId: string) =>
  queryOptions({ queryKey: ['design-shares', designId], queryFn: () => getDesignShares({ data: { designId } }) })
