import { queryOptions } from '@tanstack/react-query'
import { createServerFn } from '@tanstack/react-start'
import { outboxResponseSchema } from '~/contract/egifts'
import { ApiClientError } from '~/lib/api-client'
import { apiForRequest } from '~/lib/api-call.server'

/** GET /v1/demo/outbox: the newest e-mails the store wrote, or null when demo mode is off (the API then has no such endpoint). */
export const getOutbox = createServerFn({ method: 'GET' }).handler(async () => {
  try {
    return (await apiForRequest().call('/demo/outbox', { schema: outboxResponseSchema })).emails
  } catch (error) {
    if (error instanceof ApiClientError && error.status === 404) return null
    throw error
  }
})

export const outboxQuery = () => queryOptions({ queryKey: ['outbox'], queryFn: () => getOutbox(), staleTime: 0 })
