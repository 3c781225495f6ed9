import { queryOptions } from '@tanstack/react-query'
import { createServerFn } from '@tanstack/react-start'
import { designTemplatesQuerySchema } from '~/contract/designs'
import { printifyApi } from '~/contract/endpoints/printify'
import { apiMiddleware } from '~/lib/api.middleware'

/** The variant's pseudo template (cells, mask, frame) and its fourteen back sides. */
export const getDesignTemplates = createServerFn({ method: 'GET' })
  .middleware([apiMiddleware])
  .validator(designTemplatesQuerySchema)
  .handler(({ data, context: { api } }) => api.call(printifyApi.listDesignTemplates, { query: { productVariantId: data.productVariantId } }))

export const designTemplatesQuery = (variantId: number) =>
  queryOptions({
    queryKey: ['design-templates', variantId],
    queryFn: () => getDesignTemplates({ data: { productVariantId: variantId } }),
    // Templates and back sides change with a release, not during a visit.
    staleTime: 5 * 60_000,
  })
