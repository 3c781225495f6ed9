import { queryOptions } from '@tanstack/react-query'
import { createServerFn } from '@tanstack/react-start'
import { designTemplatesQuerySchema, generatePreviewRequestSchema } from '~/contract/designs'
import { printifyApi } from '~/contract/endpoints/printify'
import { apiMiddleware } from '~/lib/api.middleware'

/** The variant's pseudo template (cells, mask, frame) and its fourteen back sides. */
export const getDesignTemplates = createServerFn({ method: 'GET' })
  .middleware([apiMiddleware])
  .validator(designTemplatesQuerySchema)
  .handler(({ data, context: { api } }) => api.call(printifyApi.listDesignTemplates, { query: { productVariantId: data.productVariantId } }))

/**
 * The server renders the design into print files and mockups. A failure throws: the shopper retries
 * from the failure toast.
 */
export const generateOrnamentPreview = createServerFn({ method: 'POST' })
  .middleware([apiMiddleware])
  .validator(generatePreviewRequestSchema)
  .handler(({ data, context: { api } }) => api.call(printifyApi.generatePreview, { body: data }))

export const designTemplatesQuery = (variantId: number) =>
  queryOptions({
    queryKey: ['design-templates', variantId],
    queryFn: () => getDesignTemplates({ data: { productVariantId: variantId } }),
    // Templates and back sides change with a release, not during a visit.
    staleTime: 5 * 60_000,
  })
