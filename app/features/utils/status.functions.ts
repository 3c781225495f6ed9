import { createServerFn } from '@tanstack/react-start'
import { version } from '../../../package.json'
import { getConfig } from '../../../app.config'
import { jobsApi } from '~/contract/endpoints/jobs'
import { apiMiddleware } from '~/lib/api.middleware'
import { statusSummaryOf } from './engine-status'
import { jobsStatusOf } from './jobs-status'

/** /utils/status: the engine summary, read on the server (the configuration itself never leaves it), and the failed-jobs count from the API. */
export const getStatusSummary = createServerFn({ method: 'GET' })
  .middleware([apiMiddleware])
  .handler(async ({ context: { api } }) => {
    // The engines are worth showing even when the database cannot answer; the count then says it is unknown.
    const failedJobs = await api
      .call(jobsApi.jobHealth)
      .then((health) => health.failedJobs)
      .catch(() => null)
    return { ...statusSummaryOf(getConfig(), version ?? null), jobs: jobsStatusOf(failedJobs) }
  })
