/**
 * Durable background jobs on the jobs table (ARCHITECTURE.md "background jobs"): a job is claimed with
 * FOR UPDATE SKIP LOCKED under a short lease that its worker renews while the handler runs (a
 * heartbeat), retried with exponential backoff, and claimed again as soon as the lease runs out, i.e.
 * within one lease of its worker dying. The row names its worker (`locked_by`), and only that worker
 * may renew or finish the run it claimed. Handlers must be safe to run more than once.
 */
import { randomUUID } from 'node:crypto'
import os from 'node:os'
import { count, desc, eq, sql } from 'drizzle-orm'
import type { Database } from '../db/client'
import { jobs } from '../db/schema'
import type { ApiDeps } from '../env'
import { currentRequestId, logger, outsideRequestContext, runInRequestContext } from '../../observability/log'
import { metrics, setJobCountsSource } from '../../observability/metrics'
import { isDependencyOutage } from '../outages'

export type JobRow = typeof jobs.$inferSelect
export type JobHandler = (deps: ApiDeps, job: JobRow) => Promise<void>

/** A running job owns its row this long unless its worker renews the lease (JOB_LEASE_SECONDS; this is the default). */
export const JOB_LEASE_MS = 15_000
/** 5 s, 10 s, 20 s … capped at 10 minutes. */
export const jobBackoffMs = (attempt: number) => Math.min(10 * 60_000, 5_000 * 2 ** Math.max(0, attempt - 1))

/** This process as a job worker: host, pid and a random part, so a restarted process is a new worker. */
export const WORKER_ID = `${os.hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`

export type JobWorker = { id: string; leaseMs: number }
const workerOf = (deps: ApiDeps): JobWorker => ({ id: WORKER_ID, leaseMs: deps.config.jobLeaseSeconds * 1000 })

type Executor = Pick<Database, 'insert'>

/** The payload key that names the request a job was enqueued by (decision 045); its run logs under that request id. */
export const JOB_REQUEST_ID = 'requestId'

export async function enqueueJob(db: Executor, job: { kind: string; dedupeKey: string; payload: Record<string, unknown>; runAt: Date; maxAttempts?: number }) {
  // Enqueued by a request (or by a job run for one): the job carries its request id, so its lines and e-mails do.
  const requestId = currentRequestId()
  const payload = requestId && job.payload[JOB_REQUEST_ID] === undefined ? { ...job.payload, [JOB_REQUEST_ID]: requestId } : job.payload
  await db
    .insert(jobs)
    .values({ kind: job.kind, dedupeKey: job.dedupeKey, payload, runAt: job.runAt, maxAttempts: job.maxAttempts ?? 8 })
    .onConflictDoNothing({ target: jobs.dedupeKey })
}

/**
 * Empties a job's payload, inside the transaction that does the job's work: a payload that holds what
 * should not be kept (an e-mail address) is gone once the work is, and a repeated run finds nothing to do.
 */
export async function forgetJobPayload(db: Pick<Database, 'update'>, job: Pick<JobRow, 'id'>) {
  // The request id stays: it names no one, and a log search still finds the job from the request.
  await db
    .update(jobs)
    .set({
      payload: sql`case when ${jobs.payload} ? ${JOB_REQUEST_ID} then jsonb_build_object(${JOB_REQUEST_ID}::text, ${jobs.payload} -> ${JOB_REQUEST_ID}) else '{}'::jsonb end`,
    })
    .where(eq(jobs.id, job.id))
}

/** The request a job was enqueued by, if any. */
export const requestIdOfJob = (job: Pick<JobRow, 'payload'>): string | undefined => {
  const id = (job.payload as Record<string, unknown> | null)?.[JOB_REQUEST_ID]
  return typeof id === 'string' ? id : undefined
}

/** How much of a run's error the row keeps (last_error). */
const LAST_ERROR_MAX = 1000

const errorText = (error: unknown) => (error instanceof Error ? error.message : String(error))

/**
 * The one line logged when a job runs out of attempts (issue 18): kind, dedupe key, attempts and the
 * last error on a single line, so a log search for "[jobs] gave up" finds every job that failed for good.
 */
export const giveUpLine = (job: Pick<JobRow, 'kind' | 'dedupeKey' | 'attempts' | 'maxAttempts'>, lastError: string) =>
  `[jobs] gave up: kind=${job.kind} key=${job.dedupeKey} attempts=${job.attempts}/${job.maxAttempts} last error: ${lastError.replace(/\s+/g, ' ').trim().slice(0, LAST_ERROR_MAX)}`

function rowsOf<T>(result: unknown): T[] {
  return ((result as { rows?: T[] }).rows ?? (result as T[])) as T[]
}

/** Takes the next due job (or one whose lease ran out) and leases it to the caller. */
export async function claimJob(db: Database, now: Date, kinds: string[], worker: JobWorker = { id: WORKER_ID, leaseMs: JOB_LEASE_MS }): Promise<JobRow | null> {
  const lease = new Date(now.getTime() + worker.leaseMs)
  const result = await db.execute(sql`
    update jobs set status = 'running', attempts = attempts + 1, locked_until = ${lease.toISOString()}, locked_by = ${worker.id}, updated_at = ${now.toISOString()}
    where id = (
      select id from jobs
      where kind in (${sql.join(
        kinds.map((k) => sql`${k}`),
        sql`, `,
      )})
        and ((status = 'queued' and run_at <= ${now.toISOString()}) or (status = 'running' and locked_until < ${now.toISOString()}))
      order by run_at, id
      limit 1
      for update skip locked
    )
    returning id, kind, dedupe_key as "dedupeKey", payload, status, attempts, max_attempts as "maxAttempts", run_at as "runAt",
      locked_until as "lockedUntil", locked_by as "lockedBy", last_error as "lastError", created_at as "createdAt", updated_at as "updatedAt"`)
  return rowsOf<JobRow>(result)[0] ?? null
}

/** This run of the job: the row as claimed, still leased to `worker` (a job taken over since is another run). */
const thisRun = (job: JobRow, worker: JobWorker) => sql`id = ${job.id} and status = 'running' and locked_by = ${worker.id} and attempts = ${job.attempts}`

/** The heartbeat: pushes the lease of this run on; answers false when the run is no longer ours. */
export async function renewLease(db: Database, job: JobRow, worker: JobWorker, now: Date) {
  const lease = new Date(now.getTime() + worker.leaseMs)
  const result = await db.execute(sql`update jobs set locked_until = ${lease.toISOString()} where ${thisRun(job, worker)} returning id`)
  return rowsOf(result).length > 0
}

/** Records the outcome of this run; 'lost' when the lease ran out and another worker has the job now (nothing is written). */
async function finish(db: Database, job: JobRow, worker: JobWorker, now: Date, error: unknown): Promise<'done' | 'retry' | 'failed' | 'lost'> {
  const update = async (set: ReturnType<typeof sql>) =>
    rowsOf(
      await db.execute(
        sql`update jobs set ${set}, locked_until = null, locked_by = null, updated_at = ${now.toISOString()} where ${thisRun(job, worker)} returning id`,
      ),
    ).length > 0
  if (error === undefined) return (await update(sql`status = 'done', last_error = null`)) ? 'done' : 'lost'
  const message = errorText(error).slice(0, LAST_ERROR_MAX)
  if (job.attempts >= job.maxAttempts) return (await update(sql`status = 'failed', last_error = ${message}`)) ? 'failed' : 'lost'
  const runAt = new Date(now.getTime() + jobBackoffMs(job.attempts))
  return (await update(sql`status = 'queued', last_error = ${message}, run_at = ${runAt.toISOString()}`)) ? 'retry' : 'lost'
}

/** Runs one handler while renewing its lease every third of the lease, so only a dead worker's job is taken over. */
async function runLeased(deps: ApiDeps, job: JobRow, worker: JobWorker, run: JobHandler) {
  let renewing: Promise<unknown> = Promise.resolve()
  const heartbeat = setInterval(
    () => {
      renewing = renewing
        .then(() => renewLease(deps.db, job, worker, deps.now()))
        .then((ours) => {
          if (ours) return
          clearInterval(heartbeat)
          logger().warn({ jobId: job.id, kind: job.kind }, `[jobs] ${job.kind} ${job.dedupeKey}: the lease was lost; another worker may run it too`)
        })
        .catch((error) => logger().warn({ err: error, jobId: job.id, kind: job.kind }, `[jobs] ${job.kind} ${job.dedupeKey}: lease renewal failed`))
    },
    Math.max(100, Math.floor(worker.leaseMs / 3)),
  )
  heartbeat.unref()
  try {
    await run(deps, job)
  } finally {
    clearInterval(heartbeat)
    await renewing
  }
}

/** The lane of every kind that names none: sending paid orders to the print provider, retention, referrals… */
export const DEFAULT_JOB_LANE = 'default'

/**
 * `lane`: the worker drains each lane in a loop of its own, claiming only that lane's kinds, so a kind that hangs (an
 * e-mail to a frozen SMTP server) holds back only its own lane, never another (issue 43, decision 074). Unset: the default lane.
 */
export type JobHandlers = Record<string, { run: JobHandler; onGiveUp?: JobHandler; lane?: string }>

/** The handlers of each lane, by lane. */
export function jobLanesOf(handlers: JobHandlers): Map<string, JobHandlers> {
  const lanes = new Map<string, JobHandlers>()
  for (const [kind, handler] of Object.entries(handlers)) {
    const lane = handler.lane ?? DEFAULT_JOB_LANE
    lanes.set(lane, { ...lanes.get(lane), [kind]: handler })
  }
  return lanes
}

/** Runs due jobs until none is left (or `maxJobs`); answers what happened to each, for tests and logs. */
export async function drainJobs(
  deps: ApiDeps,
  handlers: JobHandlers,
  { maxJobs = 100, worker = workerOf(deps), stopped = () => false }: { maxJobs?: number; worker?: JobWorker; stopped?: () => boolean } = {},
) {
  const outcomes: { id: number; kind: string; outcome: 'done' | 'retry' | 'failed' | 'lost'; error?: string }[] = []
  // `stopped`: the process is shutting down; the job in hand finishes, no other is claimed.
  for (let i = 0; i < maxJobs && !stopped(); i++) {
    const job = await claimJob(deps.db, deps.now(), Object.keys(handlers), worker)
    if (!job) break
    const handler = handlers[job.kind]!
    // The run logs under the id of the request that enqueued it (decision 045), or under its own.
    const context = { id: requestIdOfJob(job) ?? `job-${job.id}`, layer: 'job' as const }
    const started = performance.now()
    let error: unknown
    try {
      await runInRequestContext(context, () => runLeased(deps, job, worker, handler.run))
    } catch (e) {
      error = e ?? new Error('job failed')
    }
    const outcome = await finish(deps.db, job, worker, deps.now(), error)
    const message = error === undefined ? undefined : errorText(error)
    const facts = { jobId: job.id, kind: job.kind, attempt: job.attempts, outcome, ms: Math.round(performance.now() - started) }
    metrics().jobs.inc({ kind: job.kind, outcome })
    metrics().jobDuration.observe({ kind: job.kind }, (performance.now() - started) / 1000)
    await runInRequestContext(context, async () => {
      if (outcome === 'failed') {
        logger().error({ ...facts, err: error }, giveUpLine(job, message!))
        // The job is failed already; a give-up hook that throws must not stop the drain or hide the line above.
        await Promise.resolve(handler.onGiveUp?.(deps, job)).catch((e) =>
          logger().error({ ...facts, err: e }, `[jobs] ${job.kind} ${job.dedupeKey}: the give-up step failed`),
        )
      } else if (message !== undefined) logger().warn({ ...facts, err: error }, `[jobs] ${job.kind} ${job.dedupeKey} attempt ${job.attempts}: ${message}`)
      else logger().info(facts, `[jobs] ${job.kind} ${job.dedupeKey} ${outcome}`)
    })
    outcomes.push({ id: job.id, kind: job.kind, outcome, ...(message !== undefined ? { error: message } : {}) })
  }
  return outcomes
}

/**
 * Hands back every job this worker holds and has not finished (a shutdown that could not wait for its
 * handler): queued again, due now, unleased, and the interrupted run not counted as an attempt, so
 * another instance claims it at once. A handler still running here can no longer finish that run
 * (finish() finds the row is not its own). Answers the ids handed back.
 */
export async function handBackLeases(db: Database, worker: Pick<JobWorker, 'id'>, now: Date): Promise<number[]> {
  const result = await db.execute(sql`
    update jobs set status = 'queued', run_at = ${now.toISOString()}, locked_until = null, locked_by = null,
      attempts = greatest(attempts - 1, 0), updated_at = ${now.toISOString()}
    where status = 'running' and locked_by = ${worker.id}
    returning id`)
  return rowsOf<{ id: number }>(result).map((r) => Number(r.id))
}

export type RunningJobWorker = {
  /**
   * Stops claiming in every lane at once, waits for the jobs in hand until `deadline` aborts, then hands back whatever
   * this worker still holds, in any lane (handBackLeases). Answers the ids handed back.
   */
  stop(deadline?: AbortSignal): Promise<number[]>
}

/**
 * Drains jobs every `intervalMs` in this process, one loop per lane (JobHandlers' `lane`): within a lane one drain at a
 * time, the lanes side by side, all under this process's one worker id. `beforeDrain` runs before each drain of the
 * default lane (the recurring jobs it schedules are of its kinds). `stop` for a shutdown.
 */
export function startJobWorker(
  deps: ApiDeps,
  handlers: JobHandlers,
  { intervalMs = 1000, beforeDrain }: { intervalMs?: number; beforeDrain?: (deps: ApiDeps) => Promise<void> } = {},
): RunningJobWorker {
  let stopping = false
  const worker = workerOf(deps)
  // The queue-depth gauge reads the jobs table at scrape time (decision 045).
  setJobCountsSource(async () => {
    const rows = await deps.db
      .select({ kind: jobs.kind, status: jobs.status, n: count() })
      .from(jobs)
      .where(sql`${jobs.status} in ('queued', 'running', 'failed')`)
      .groupBy(jobs.kind, jobs.status)
    return rows.map((row) => ({ kind: row.kind, status: String(row.status), n: Number(row.n) }))
  })
  const lanes = jobLanesOf(handlers)
  const schedulingLane = lanes.has(DEFAULT_JOB_LANE) ? DEFAULT_JOB_LANE : [...lanes.keys()][0]
  const loops = [...lanes].map(([lane, laneHandlers]) => {
    const loop = { lane, drain: null as Promise<unknown> | null, timer: undefined as ReturnType<typeof setInterval> | undefined }
    // Started by the process's first request: the worker's timers must not inherit that request's id (decision 045).
    loop.timer = outsideRequestContext(() =>
      setInterval(() => {
        if (loop.drain || stopping) return
        loop.drain = Promise.resolve(lane === schedulingLane ? beforeDrain?.(deps) : undefined)
          .then(() => drainJobs(deps, laneHandlers, { worker, stopped: () => stopping }))
          .catch((error) => {
            // The database gone or past its deadline is an outage, not our bug: a warning, and the next tick tries again (decision 073).
            if (isDependencyOutage(error)) logger().warn({ err: error, lane }, `[jobs] ${lane} lane: the database is not answering; trying again`)
            else logger().error({ err: error, lane }, `[jobs] ${lane} lane: drain failed`)
          })
          .finally(() => {
            loop.drain = null
          })
      }, intervalMs),
    )
    loop.timer.unref()
    return loop
  })
  return {
    async stop(deadline) {
      stopping = true
      for (const loop of loops) clearInterval(loop.timer)
      const inHand = loops.flatMap((loop) => (loop.drain ? [loop.drain] : []))
      if (inHand.length > 0 && !deadline?.aborted) {
        await new Promise<void>((resolve) => {
          deadline?.addEventListener('abort', () => resolve(), { once: true })
          void Promise.allSettled(inHand).then(() => resolve())
        })
      }
      const handedBack = await handBackLeases(deps.db, worker, deps.now())
      if (handedBack.length > 0) logger().info(`[jobs] handed back ${handedBack.length} unfinished job(s) for another instance: ${handedBack.join(', ')}`)
      return handedBack
    },
  }
}

/** How many jobs ran out of attempts and wait for a person (/utils/status). */
export async function countFailedJobs(db: Database): Promise<number> {
  const [row] = await db.select({ n: count() }).from(jobs).where(eq(jobs.status, 'failed'))
  return row?.n ?? 0
}

/** The failed jobs, most recently failed first (a failed run's updated_at is when it gave up). */
export async function listFailedJobs(db: Database, limit = 100) {
  return db
    .select({
      id: jobs.id,
      kind: jobs.kind,
      dedupeKey: jobs.dedupeKey,
      attempts: jobs.attempts,
      maxAttempts: jobs.maxAttempts,
      lastError: jobs.lastError,
      failedAt: jobs.updatedAt,
      createdAt: jobs.createdAt,
    })
    .from(jobs)
    .where(eq(jobs.status, 'failed'))
    .orderBy(desc(jobs.updatedAt), desc(jobs.id))
    .limit(limit)
}
