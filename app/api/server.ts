import { getConfig } from '../../app.config'
import { createApi, type Api } from './app'
import { openDatabase, type DatabaseHandle } from './db/client'
import { seedDemoAccounts } from './services/demo'

let ready: Promise<{ api: Api; database: DatabaseHandle }> | undefined

/** The process's API: database opened and migrated, demo data seeded, once. */
export function getApiServer() {
  ready ??= (async () => {
    const config = getConfig()
    const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir })
    if (config.demoMode) await seedDemoAccounts(database.db)
    const api = createApi({ db: database.db, config, now: () => new Date() })
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
