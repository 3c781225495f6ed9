import { queryOptions } from '@tanstack/react-query'
import { createServerFn } from '@tanstack/react-start'
import {
  designTemplatesQuerySchema,
  designTemplatesSchema,
  generatePreviewRequestSchema,
  generatePreviewResponseSchema,
} from '~/contract/designs'
import { apiForRequest } from '~/lib/api-call.server'
import { timezoneMiddleware } from '~/lib/timezone.middleware'

/** GET /v1/design-templates?productVariantId=: the variant's pseudo template (cells, mask, frame) and its fourteen back sides. */
export const getDesignTemplates = createServerFn({ method: 'GET' })
  .validator(designTemplatesQuerySchema)
  .handler(({ data }) =>
    apiForRequest().call('/design-templates', { query: { productVariantId: data.productVariantId }, schema: designTemplatesSchema }),
  )

/**
 * POST /v1/printify/generate-preview: the server renders the design into print files and mockups.
 * Not retried automatically (SPEC.md §8 retries uploads and bundles only, and a render is costly);
 * the shopper retries from the failure toast.
 */
export const generateOrnamentPreview = createServerFn({ method: 'POST' })
  .middleware([timezoneMiddleware])
  .validator(generatePreviewRequestSchema)
  .handler(({ data, context }) =>
    apiForRequest({ timezone: context.timezone }).call('/printify/generate-preview', {
      method: 'POST',
      body: data,
      schema: generatePreviewResponseSchema,
    }),
  )

export const designTemplatesQuery = (variantId: number) =>
  queryOptions({
    queryKey: ['design-templates', variantId],
    queryFn: () => getDesignTemplates({ data: { productVariantId: variantId } }),
    // Templates and back sides change with a release, not during a visit.
    staleTime: 5 * 60_000,
  })
