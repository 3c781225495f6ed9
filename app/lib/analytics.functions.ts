import { createServerFn } from '@tanstack/react-start'
import { analyticsBatchSchema } from '../contract/analytics'
import { analyticsApi } from '../contract/endpoints/analytics'
import { apiMiddleware } from './api.middleware'

/** The local analytics transport: a batch of events for the API to record. */
export const recordAnalytics = createServerFn({ method: 'POST' })
  .middleware([apiMiddleware])
  .validator(analyticsBatchSchema)
  .handler(({ data, context: { api } }) => api.call(analyticsApi.recordEvents, { body: data }))
