/**
 * npm run report:smokescreens — how many shoppers asked for each product we do not sell yet
 * ("notify me" waitlist and "deliver to me" interest), most wanted first.
 */
import { getConfig } from '../app.config'
import { openDatabase } from '../app/api/db/client'
import { claimEmbeddedDatabaseOrExit } from '../app/api/db/lock'
import { smokescreenReport } from '../app/api/services/smokescreens'

const config = getConfig()
claimEmbeddedDatabaseOrExit(config)
const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir, timeouts: config.databaseTimeouts })
try {
  const rows = await smokescreenReport(database.db)
  if (rows.length === 0) console.log('No smokescreen sign-ups yet.')
  else {
    console.log('| product | kind | sign-ups | signed in | last |')
    console.log('|---|---|---|---|---|')
    for (const r of rows)
      console.log(`| ${r.product} | ${r.kind} | ${r.signups} | ${r.signedIn} | ${new Date(r.lastAt).toISOString().slice(0, 16).replace('T', ' ')} |`)
  }
} finally {
  await database.close()
}
