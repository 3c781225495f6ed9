import { createServerFn } from '@tanstack/react-start'
import { jobsApi } from '~/contract/endpoints/jobs'
import { orAbsent } from '~/lib/api-outcome.server'
import { apiMiddleware } from '~/lib/api.middleware'

/** /utils/failed-jobs: the jobs that ran out of attempts, or null when demo mode is off (the API answers 404; the page is then absent). */
export const getFailedJobs = createServerFn({ method: 'GET' })
  .middleware([apiMiddleware])
  .handler(({ context: { api } }) => orAbsent(() => api.call(jobsApi.demoFailedJobs)))
