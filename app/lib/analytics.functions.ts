import { createServerFn } from '@tanstack/react-start'
import { analyticsAcceptedSchema, analyticsBatchSchema } from '../contract/analytics'
import { apiForRequest } from './api-call.server'
import { timezoneMiddleware } from './timezone.middleware'

/** The local analytics transport: a batch of events to POST /v1/analytics/events. */
export const recordAnalytics = createServerFn({ method: 'POST' })
  .middleware([timezoneMiddleware])
  .validator(analyticsBatchSchema)
  .handler(({ data, context }) =>
    apiForRequest({ timezone: context.timezone }).call('/analytics/events', {
      method: 'POST',
      body: data,
      schema: analyticsAcceptedSchema,
    }),
  )
