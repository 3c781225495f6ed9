import { getConfig } from '../../app.config'
import { createApi, type Api } from './app'
import { openDatabase, type DatabaseHandle } from './db/client'
import { seedDemoAccounts } from './demo/accounts'
import { addReadinessCheck, isDraining, onShutdown, ShuttingDown, stopIfDraining } from './lifecycle'
import { jobHandlers, scheduleRecurringJobs } from './services/handlers'
import { startJobWorker } from './services/jobs'
import { closeMailTransports } from './services/mail'
import { seedDemoAlbums } from './demo/albums'
import { seedDemoOffers } from './demo/offers'
import { sql } from 'drizzle-orm'
import { storageFor } from './storage'
import { recoverInterruptedUploads } from './services/uploads'
import { warmPreviewRenderer } from './services/previews'
import { currentRequestId, logger } from '../observability/log'
import { noteOutage } from '../observability/request-log'
import type { ErrorCode } from '../contract/errors'
import { crashPoint } from './crash-points'
import { OUTAGE_RETRY_AFTER_MS } from './errors'
import { isDependencyOutage, outageAnswer } from './outages'

type Opened = { api: Api; database: DatabaseHandle }

let ready: Promise<Opened> | undefined
/**
 * The last open that failed because a dependency (the database) was not answering: until `retryAt`, requests are
 * answered 503 at once rather than each trying again; at `retryAt` the process tries by itself (a timer), so it
 * serves again when the database returns, without a restart or a shopper's request (issue 43, item 2).
 */
let failedOpen: { error: unknown; retryAt: number; delayMs: number } | undefined
let databaseCheckAdded = false
const FIRST_RETRY_MS = 250

/**
 * /readyz's database check, in place before the first open: not ready while the API has not opened (an open under
 * way waits, within the check's time), or while the database does not answer. Asking opens again after a failed open.
 */
function addDatabaseCheck() {
  if (databaseCheckAdded) return
  databaseCheckAdded = true
  addReadinessCheck({
    name: 'database',
    check: async () => {
      const { database } = await getApiServer()
      await database.db.execute(sql`select 1`)
    },
  })
}

/** Runs `close` the first time only: the warm-up's clean-up and the shutdown's hook share one close. */
function once(close: () => Promise<void>) {
  let closing: Promise<void> | undefined
  return () => (closing ??= close())
}

/**
 * The process's API: database opened and migrated, demo data seeded, once. What it opens is closed on
 * shutdown (lifecycle.ts); a signal during this warm-up stops it between steps. Once the shutdown's hooks are
 * registered, they close what it opened, in their order (the job worker stopped and its leases handed back
 * first, the database last and once; issue 42, item 21); before that, the warm-up closes the database itself.
 */
export function getApiServer(): Promise<Opened> {
  addDatabaseCheck()
  if (ready) return ready
  if (failedOpen && performance.now() < failedOpen.retryAt) return Promise.reject(failedOpen.error)
  const opening = (async () => {
    stopIfDraining('Opening the album API')
    const config = getConfig()
    const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir, timeouts: config.databaseTimeouts })
    const closeDatabase = once(() => database.close())
    let worker: ReturnType<typeof startJobWorker> | undefined
    let hooksRegistered = false
    try {
      const storage = storageFor(config)
      stopIfDraining('Opening the album API')
      // Uploads a killed process left half-ingested go back to pending; its temporary files go (issue 15, bug 11).
      await recoverInterruptedUploads({ db: database.db, storage, now: new Date() }, { exclusive: database.engine === 'pglite' })
      if (config.demoMode) {
        stopIfDraining('Seeding the demo')
        await seedDemoAccounts(database.db)
        stopIfDraining('Seeding the demo')
        await seedDemoAlbums(database.db, storage, config.demoPhotoCacheDir)
        stopIfDraining('Seeding the demo')
        await seedDemoOffers(database.db)
      }
      stopIfDraining('Opening the album API')
      const api = createApi({ db: database.db, config, storage, now: () => new Date() })
      // Registered first, so closed last: everything before it may still write.
      onShutdown({ name: 'database', phase: 'close', run: closeDatabase })
      onShutdown({ name: 'mail', phase: 'close', run: async () => closeMailTransports() })
      onShutdown({ name: 'rate limiter', phase: 'close', run: () => api.deps.rateLimiter.close() })
      onShutdown({ name: 'render slots', phase: 'close', run: () => api.deps.renderSlots.close() })
      hooksRegistered = true
      const { rateLimiter } = api.deps
      if (config.redisUrl && rateLimiter.ping) addReadinessCheck({ name: 'redis', check: () => rateLimiter.ping!() })
      // A HEAD of a key that is not there: the bucket answers (404) when it is reachable and ours.
      if (storage.kind === 's3') addReadinessCheck({ name: 'storage', check: async () => void (await storage.size('.keepsake-readyz')) })
      // Paid orders go to the print provider from the jobs table; a restart picks up where it left off. Daily jobs (preview retention) are enqueued here too.
      if (!isDraining()) {
        const started = startJobWorker(api.deps, jobHandlers, { beforeDrain: scheduleRecurringJobs })
        worker = started
        onShutdown({ name: 'job worker', phase: 'drain', run: async (deadline) => void (await started.stop(deadline)) })
      }
      // The first previews after a start cost what every later one does (decision 056). Test stores that make few
      // previews and start often skip it (PREVIEW_WARM_UP=false).
      if (config.previewWarmUp) {
        const started = performance.now()
        await crashPoint('warm-up:previews')
        await warmPreviewRenderer(() => stopIfDraining('Warming the preview renderer'))
        logger().info({ ms: Math.round(performance.now() - started) }, 'Preview renderer warmed')
      }
      return { api, database }
    } catch (error) {
      // A signal: the shutdown's hooks stop the worker (its running job finishes or is handed back) and then close.
      if (!(hooksRegistered && isDraining())) {
        // Anything else: the worker stops and hands its leases back before the database goes.
        await worker?.stop().catch(() => {})
        await closeDatabase().catch(() => {})
      }
      throw error
    }
  })()
  ready = opening
  opening.then(
    () => {
      failedOpen = undefined
    },
    (error: unknown) => {
      ready = undefined
      if (!isDependencyOutage(error)) return
      const delayMs = failedOpen ? Math.min(failedOpen.delayMs * 2, OUTAGE_RETRY_AFTER_MS) : FIRST_RETRY_MS
      failedOpen = { error, delayMs, retryAt: performance.now() + delayMs }
      logger().warn({ err: error, retryInMs: delayMs }, 'The album API could not open: the database is not answering')
      const retry = failedOpen
      setTimeout(() => {
        retry.retryAt = 0
        if (!ready && !isDraining()) getApiServer().catch(() => {})
      }, delayMs).unref()
    },
  )
  return opening
}

/**
 * A request that waited for a warm-up a signal stopped: the process is going, another instance (or this one,
 * restarted) answers soon. 503 with Retry-After, no stack: it is no error (issue 42, item 20).
 */
function restartingResponse() {
  return unavailableResponse('maintenance', 'Keepsake is restarting; try again in a moment', OUTAGE_RETRY_AFTER_MS)
}

/** A 503 in the error shape, with the request id and Retry-After, for a request the API could not be opened for. */
function unavailableResponse(code: ErrorCode, message: string, retryAfterMs: number) {
  const requestId = currentRequestId()
  return Response.json(
    { error: { code, message, ...(requestId ? { requestId } : {}) } },
    {
      status: 503,
      headers: { 'retry-after': String(Math.max(1, Math.ceil(retryAfterMs / 1000))), 'cache-control': 'no-store' },
    },
  )
}

export async function handleApiRequest(request: Request): Promise<Response> {
  let api: Api
  try {
    ;({ api } = await getApiServer())
  } catch (error) {
    if (error instanceof ShuttingDown) return restartingResponse()
    // The database is gone (a start during its outage): 503 now; the next request, or the retry timer, opens again.
    const outage = outageAnswer(error)
    if (outage) {
      noteOutage()
      return unavailableResponse(outage.code, outage.message, outage.retryAfterMs ?? OUTAGE_RETRY_AFTER_MS)
    }
    throw error
  }
  return api.fetch(request)
}
