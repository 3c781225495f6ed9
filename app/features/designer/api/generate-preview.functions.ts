import { useMutation } from '@tanstack/react-query'
import { createServerFn } from '@tanstack/react-start'
import { generatePreviewRequestSchema, type GeneratePreviewRequest } from '~/contract/designs'
import { printifyApi } from '~/contract/endpoints/printify'
import { track } from '~/lib/analytics'
import { apiMiddleware } from '~/lib/api.middleware'
import { notify } from '~/lib/toast'

/**
 * The server renders the design into print files and mockups. A failure throws: the shopper retries
 * from the failure toast.
 */
export const generateOrnamentPreview = createServerFn({ method: 'POST' })
  .middleware([apiMiddleware])
  .validator(generatePreviewRequestSchema)
  .handler(({ data, context: { api } }) => api.call(printifyApi.generatePreview, { body: data }))

/**
 * "Preview my ornament": the request, its analytics (PodPreviewSuccess / PodPreviewFailure), the
 * optional console logs, and a failure toast whose Retry sends the same design again.
 */
export function useGeneratePreview(previewLogs: boolean) {
  const mutation = useMutation({
    mutationFn: async (request: GeneratePreviewRequest) => {
      if (previewLogs) console.info('[keepsake] generate-preview request', request)
      return generateOrnamentPreview({ data: request })
    },
    onSuccess: (response, request) => {
      if (previewLogs) console.info('[keepsake] generate-preview response', response)
      track('PodPreviewSuccess', {
        variantId: request.variantId,
        pseudoTemplateId: request.pseudoTemplateId,
        backSideId: request.backSideId,
        previewId: response.previewId,
      })
    },
    onError: (error, request) => {
      const message = error instanceof Error ? error.message : 'Unknown error'
      if (previewLogs) console.info('[keepsake] generate-preview failed', error)
      track('PodPreviewFailure', {
        variantId: request.variantId,
        pseudoTemplateId: request.pseudoTemplateId,
        backSideId: request.backSideId,
        message: message.slice(0, 500),
      })
      notify.error(`We could not make your preview: ${message}`, { label: 'Retry', onClick: () => mutation.mutate(request) })
    },
    // The toast above says what failed, with its Retry; the client's global handler stays quiet.
    meta: { ownsErrors: true },
  })
  return mutation
}
