import { getConfig } from '../../app.config'
import { createApi, type Api } from './app'
import { openDatabase, type DatabaseHandle } from './db/client'
import { seedDemoAccounts } from './demo/accounts'
import { jobHandlers, scheduleRecurringJobs } from './services/handlers'
import { startJobWorker } from './services/jobs'
import { seedDemoAlbums } from './demo/albums'
import { seedDemoOffers } from './demo/offers'
import { storageFor } from './storage'
import { recoverInterruptedUploads } from './services/uploads'

let ready: Promise<{ api: Api; database: DatabaseHandle }> | undefined

/** The process's API: database opened and migrated, demo data seeded, once. */
export function getApiServer() {
  ready ??= (async () => {
    const config = getConfig()
    const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir })
    const storage = storageFor(config)
    // Uploads a killed process left half-ingested go back to pending; its temporary files go (issue 15, bug 11).
    await recoverInterruptedUploads({ db: database.db, storage, now: new Date() }, { exclusive: database.engine === 'pglite' })
    if (config.demoMode) {
      await seedDemoAccounts(database.db)
      await seedDemoAlbums(database.db, storage, config.demoPhotoCacheDir)
      await seedDemoOffers(database.db)
    }
    const api = createApi({ db: database.db, config, storage, now: () => new Date() })
    // Paid orders go to the print provider from the jobs table; a restart picks up where it left off. Daily jobs (preview retention) are enqueued here too.
    startJobWorker(api.deps, jobHandlers, { beforeDrain: scheduleRecurringJobs })
    return { api, database }
  })()
  ready.catch(() => {
    ready = undefined
  })
  return ready
}

export async function handleApiRequest(request: Request): Promise<Response> {
  const { api } = await getApiServer()
  return api.fetch(request)
}
