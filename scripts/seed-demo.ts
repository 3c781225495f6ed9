/**
 * npm run seed — the demo families and their albums (64 generated photos each) in the configured
 * database and storage. The photos are deterministic and rendered once into DEMO_PHOTO_CACHE.
 * `npm run seed -- --cache-only` only renders the cache (CI runs it before the browser tests).
 */
import { getConfig } from '../app.config'
import { openDatabase } from '../app/api/db/client'
import { claimEmbeddedDatabaseOrExit } from '../app/api/db/lock'
import { seedDemoAccounts } from '../app/api/demo/accounts'
import { seedDemoAlbums, warmDemoPhotoCache } from '../app/api/demo/albums'
import { seedDemoOffers } from '../app/api/demo/offers'
import { storageFor } from '../app/api/storage'

const config = getConfig()
const started = performance.now()
const photos = await warmDemoPhotoCache(config.demoPhotoCacheDir)
console.log(`Demo photo library: ${photos} photos in ${config.demoPhotoCacheDir} (${Math.round(performance.now() - started)} ms)`)

if (!process.argv.includes('--cache-only')) {
  claimEmbeddedDatabaseOrExit(config)
  const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir, timeouts: config.databaseTimeouts })
  await seedDemoAccounts(database.db)
  await seedDemoAlbums(database.db, storageFor(config), config.demoPhotoCacheDir)
  await seedDemoOffers(database.db)
  await database.close()
  console.log(`Seeded the demo families on ${database.engine} (${Math.round(performance.now() - started)} ms)`)
}
