/**
 * Background jobs as the people who run the store see them (issue 18): how many failed for good, and
 * in demo mode which ones. A job fails for good when it runs out of attempts (app/api/services/jobs.ts).
 */
import { z } from './zod'

export const jobHealthSchema = z.object({
  /** Jobs that ran out of attempts; each waits for a person. */
  failedJobs: z.number().int().nonnegative(),
})

export const failedJobSchema = z.object({
  id: z.number().int(),
  kind: z.string(),
  dedupeKey: z.string(),
  attempts: z.number().int(),
  maxAttempts: z.number().int(),
  lastError: z.string().nullable(),
  /** When the last attempt gave up (ISO 8601). */
  failedAt: z.string(),
  createdAt: z.string(),
})

export const failedJobsResponseSchema = z.object({
  jobs: z.array(failedJobSchema),
  /** All failed jobs, of which `jobs` holds the most recent. */
  total: z.number().int().nonnegative(),
})

export type JobHealth = z.infer<typeof jobHealthSchema>
export type FailedJob = z.infer<typeof failedJobSchema>
export type FailedJobsResponse = z.infer<typeof failedJobsResponseSchema>
