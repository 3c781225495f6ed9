import { useMutation } from '@tanstack/react-query'
import { createServerFn } from '@tanstack/react-start'
import { generatePreviewRequestSchema, type GeneratedPreview, type GeneratePreviewRequest } from '~/contract/designs'
import { printifyApi } from '~/contract/endpoints/printify'
import { track } from '~/lib/analytics'
import { apiMiddleware } from '~/lib/api.middleware'
import { isUnreachable } from '~/lib/retry'
import { notify } from '~/lib/toast'

/**
 * The server renders the design into print files and mockups. A failure throws: the shopper retries
 * from the failure toast.
 */
export const generateOrnamentPreview = createServerFn({ method: 'POST' })
  .middleware([apiMiddleware])
  .validator(generatePreviewRequestSchema)
  .handler(({ data, context: { api } }) => api.call(printifyApi.generatePreview, { body: data }))

/** What the failure toast says: the connection lost (issue 42, item 17), or what the API answered. */
export function previewFailureText(error: unknown): string {
  if (isUnreachable(error) || (typeof navigator !== 'undefined' && navigator.onLine === false))
    return 'We could not make your preview: the connection was lost. Check your connection and try again.'
  return `We could not make your preview: ${error instanceof Error ? error.message : 'Unknown error'}`
}

/**
 * "Preview my ornament" as a mutation: `send` is the request, `retry` sends the same design again. Its analytics
 * (PodPreviewSuccess / PodPreviewFailure), the optional console logs, and a failure toast with Retry.
 */
export function previewMutationOptions(
  send: (request: GeneratePreviewRequest) => Promise<GeneratedPreview>,
  previewLogs: boolean,
  retry: (request: GeneratePreviewRequest) => void,
) {
  return {
    // Sent whether or not the browser thinks it is online: in react-query's default mode a mutation made offline
    // waits, paused, and the tray says "Making your preview…" for ever. Sent, it fails at once and says so.
    networkMode: 'always' as const,
    mutationFn: async (request: GeneratePreviewRequest) => {
      if (previewLogs) console.info('[keepsake] generate-preview request', request)
      return send(request)
    },
    onSuccess: (response: GeneratedPreview, request: GeneratePreviewRequest) => {
      if (previewLogs) console.info('[keepsake] generate-preview response', response)
      track('PodPreviewSuccess', {
        variantId: request.variantId,
        pseudoTemplateId: request.pseudoTemplateId,
        backSideId: request.backSideId,
        previewId: response.previewId,
      })
    },
    onError: (error: Error, request: GeneratePreviewRequest) => {
      const message = error instanceof Error ? error.message : 'Unknown error'
      if (previewLogs) console.info('[keepsake] generate-preview failed', error)
      track('PodPreviewFailure', {
        variantId: request.variantId,
        pseudoTemplateId: request.pseudoTemplateId,
        backSideId: request.backSideId,
        message: message.slice(0, 500),
      })
      notify.error(previewFailureText(error), { label: 'Retry', onClick: () => retry(request) })
    },
    // The toast above says what failed, with its Retry; the client's global handler stays quiet.
    meta: { ownsErrors: true },
  }
}

/** "Preview my ornament": the server renders the design; a failure is told in a toast whose Retry sends it again. */
export function useGeneratePreview(previewLogs: boolean) {
  const mutation = useMutation(
    previewMutationOptions(
      (request) => generateOrnamentPreview({ data: request }),
      previewLogs,
      (request) => mutation.mutate(request),
    ),
  )
  return mutation
}
