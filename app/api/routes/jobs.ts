import { jobsApi } from '../../contract/endpoints/jobs'
import { Hono } from 'hono'
import { endpoint } from '../endpoint'
import type { ApiEnv } from '../env'
import { AppError } from '../errors'
import { countFailedJobs, listFailedJobs } from '../services/jobs'

/** Background jobs for the people who run the store (issue 18): a failed-jobs count always, the list in demo mode only. */
export const jobRoutes = new Hono<ApiEnv>()

/** The most recent failed jobs the list shows; the count covers them all. */
const FAILED_JOBS_SHOWN = 100

endpoint(jobRoutes, jobsApi.jobHealth, async (_input, c) => ({ failedJobs: await countFailedJobs(c.get('deps').db) }))

// The list names orders and e-mails by id and carries providers' error text: on a live store that belongs in the server log, not on a page.
endpoint(jobRoutes, jobsApi.demoFailedJobs, async (_input, c) => {
  const { db, config } = c.get('deps')
  if (!config.demoMode) throw new AppError('not_found', `No such endpoint: ${c.req.method} ${c.req.path}`)
  const [rows, total] = await Promise.all([listFailedJobs(db, FAILED_JOBS_SHOWN), countFailedJobs(db)])
  return { jobs: rows.map((row) => ({ ...row, failedAt: row.failedAt.toISOString(), createdAt: row.createdAt.toISOString() })), total }
})
