import type { Endpoint } from '../endpoint'
import { analyticsAcceptedSchema, analyticsBatchSchema } from '../analytics'

export const analyticsApi = {
  recordEvents: {
    method: 'post',
    path: '/analytics/events',
    tag: 'analytics',
    summary: 'Record a batch of analytics events (the local analytics transport)',
    auth: 'none',
    body: analyticsBatchSchema,
    response: analyticsAcceptedSchema,
    status: 202,
  },
} as const satisfies Record<string, Endpoint>
