/**
 * Durable background jobs on the jobs table (ARCHITECTURE.md "background jobs"): a job is claimed with
 * FOR UPDATE SKIP LOCKED under a lease, retried with exponential backoff, and claimed again when the
 * process that held it died (its lease ran out). Handlers must be safe to run more than once.
 */
import { sql } from 'drizzle-orm'
import type { Database } from '../db/client'
import { jobs } from '../db/schema'
import type { ApiDeps } from '../env'

export type JobRow = typeof jobs.$inferSelect
export type JobHandler = (deps: ApiDeps, job: JobRow) => Promise<void>

/** A running job owns its row this long; after that another worker may take it over. */
export const JOB_LEASE_MS = 5 * 60_000
/** 5 s, 10 s, 20 s … capped at 10 minutes. */
export const jobBackoffMs = (attempt: number) => Math.min(10 * 60_000, 5_000 * 2 ** Math.max(0, attempt - 1))

type Executor = Pick<Database, 'insert'>

export async function enqueueJob(
  db: Executor,
  job: { kind: string; dedupeKey: string; payload: Record<string, unknown>; runAt: Date; maxAttempts?: number },
) {
  await db
    .insert(jobs)
    .values({ kind: job.kind, dedupeKey: job.dedupeKey, payload: job.payload, runAt: job.runAt, maxAttempts: job.maxAttempts ?? 8 })
    .onConflictDoNothing({ target: jobs.dedupeKey })
}

function rowsOf<T>(result: unknown): T[] {
  return ((result as { rows?: T[] }).rows ?? (result as T[])) as T[]
}

/** Takes the next due job (or one whose lease ran out) and leases it to the caller. */
export async function claimJob(db: Database, now: Date, kinds: string[]): Promise<JobRow | null> {
  const lease = new Date(now.getTime() + JOB_LEASE_MS)
  const result = await db.execute(sql`
    update jobs set status = 'running', attempts = attempts + 1, locked_until = ${lease.toISOString()}, updated_at = ${now.toISOString()}
    where id = (
      select id from jobs
      where kind in (${sql.join(kinds.map((k) => sql`${k}`), sql`, `)})
        and ((status = 'queued' and run_at <= ${now.toISOString()}) or (status = 'running' and locked_until < ${now.toISOString()}))
      order by run_at, id
      limit 1
      for update skip locked
    )
    returning id, kind, dedupe_key as "dedupeKey", payload, status, attempts, max_attempts as "maxAttempts", run_at as "runAt",
      locked_until as "lockedUntil", last_error as "lastError", created_at as "createdAt", updated_at as "updatedAt"`)
  return rowsOf<JobRow>(result)[0] ?? null
}

async function finish(db: Database, job: JobRow, now: Date, error: unknown): Promise<'done' | 'retry' | 'failed'> {
  if (error === undefined) {
    await db.execute(sql`update jobs set status = 'done', locked_until = null, last_error = null, updated_at = ${now.toISOString()} where id = ${job.id}`)
    return 'done'
  }
  const message = (error instanceof Error ? error.message : String(error)).slice(0, 1000)
  if (job.attempts >= job.maxAttempts) {
    await db.execute(sql`update jobs set status = 'failed', locked_until = null, last_error = ${message}, updated_at = ${now.toISOString()} where id = ${job.id}`)
    return 'failed'
  }
  const runAt = new Date(now.getTime() + jobBackoffMs(job.attempts))
  await db.execute(
    sql`update jobs set status = 'queued', locked_until = null, last_error = ${message}, run_at = ${runAt.toISOString()}, updated_at = ${now.toISOString()} where id = ${job.id}`,
  )
  return 'retry'
}

export type JobHandlers = Record<string, { run: JobHandler; onGiveUp?: JobHandler }>

/** Runs due jobs until none is left (or `maxJobs`); answers what happened to each, for tests and logs. */
export async function drainJobs(deps: ApiDeps, handlers: JobHandlers, { maxJobs = 100 } = {}) {
  const outcomes: { id: number; kind: string; outcome: 'done' | 'retry' | 'failed'; error?: string }[] = []
  for (let i = 0; i < maxJobs; i++) {
    const job = await claimJob(deps.db, deps.now(), Object.keys(handlers))
    if (!job) break
    const handler = handlers[job.kind]!
    let error: unknown
    try {
      await handler.run(deps, job)
    } catch (e) {
      error = e ?? new Error('job failed')
    }
    const outcome = await finish(deps.db, job, deps.now(), error)
    if (outcome === 'failed') await handler.onGiveUp?.(deps, job)
    if (error !== undefined) console.warn(`[jobs] ${job.kind} ${job.dedupeKey} attempt ${job.attempts}: ${error instanceof Error ? error.message : error}`)
    outcomes.push({ id: job.id, kind: job.kind, outcome, ...(error !== undefined ? { error: String(error instanceof Error ? error.message : error) } : {}) })
  }
  return outcomes
}

/** Drains jobs every `intervalMs` in this process; answers a stop function. One drain at a time. */
export function startJobWorker(deps: ApiDeps, handlers: JobHandlers, { intervalMs = 1000, beforeDrain }: { intervalMs?: number; beforeDrain?: (deps: ApiDeps) => Promise<void> } = {}) {
  let running = false
  const timer = setInterval(() => {
    if (running) return
    running = true
    Promise.resolve(beforeDrain?.(deps))
      .then(() => drainJobs(deps, handlers))
      .catch((error) => console.error('[jobs] drain failed', error))
      .finally(() => {
        running = false
      })
  }, intervalMs)
  timer.unref()
  return () => clearInterval(timer)
}
