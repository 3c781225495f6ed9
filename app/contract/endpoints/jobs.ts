import type { Endpoint } from '../endpoint'
import { failedJobsResponseSchema, jobHealthSchema } from '../jobs'

const tag = 'jobs'

export const jobsApi = {
  jobHealth: {
    method: 'get',
    path: '/status/jobs',
    tag,
    summary: 'How many background jobs ran out of attempts (a count only; for /utils/status)',
    auth: 'none',
    response: jobHealthSchema,
  },
  demoFailedJobs: {
    method: 'get',
    path: '/demo/failed-jobs',
    tag,
    summary: 'The background jobs that ran out of attempts, most recently failed first: kind, key, attempts, last error (demo mode only)',
    auth: 'none',
    response: failedJobsResponseSchema,
  },
} as const satisfies Record<string, Endpoint>
