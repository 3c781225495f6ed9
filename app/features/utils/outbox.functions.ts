import { queryOptions } from '@tanstack/react-query'
import { createServerFn } from '@tanstack/react-start'
import { egiftsApi } from '~/contract/endpoints/egifts'
import { orAbsent } from '~/lib/api-outcome.server'
import { apiMiddleware } from '~/lib/api.middleware'

/** The newest e-mails the store wrote, or null when demo mode is off (the API then has no such endpoint). */
export const getOutbox = createServerFn({ method: 'GET' })
  .middleware([apiMiddleware])
  .handler(({ context: { api } }) => orAbsent(async () => (await api.call(egiftsApi.demoOutbox)).emails))

export const outboxQuery = () => queryOptions({ queryKey: ['outbox'], queryFn: () => getOutbox(), staleTime: 0 })
