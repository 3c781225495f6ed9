/**
 * npm run account:create -- --email ava@example.com --first-name Ava [--last-name Lee] [--family "The Lees"] [--album-photos 12]
 *
 * Creates one album account — a user, a family it owns and, optionally, album photos generated like
 * the demo ones — in the configured database and storage. For tests and for trying the store with
 * DEMO_MODE off; the album app creates real accounts. Deliberately a script, not an endpoint.
 * With the embedded database, run it while the store is stopped (one process per DATA_DIR).
 */
import { parseArgs } from 'node:util'
import { sql } from 'drizzle-orm'
import { getConfig } from '../app.config'
import { openDatabase } from '../app/api/db/client'
import { claimEmbeddedDatabaseOrExit } from '../app/api/db/lock'
import { families, familyMembers, users } from '../app/api/db/schema'
import { addGeneratedAlbumPhotos } from '../app/api/demo/albums'
import { storageFor } from '../app/api/storage'
import { emailAddress, personName } from '../app/contract/field-messages'

function fail(message: string): never {
  console.error(`create-account: ${message}`)
  process.exit(1)
}

const { values } = parseArgs({
  options: {
    email: { type: 'string' },
    'first-name': { type: 'string' },
    'last-name': { type: 'string', default: '' },
    family: { type: 'string' },
    'album-photos': { type: 'string', default: '0' },
  },
})

const email = emailAddress().safeParse(values.email ?? '')
if (!email.success) fail(`--email: ${email.error.issues[0]!.message}`)
const firstName = personName().safeParse(values['first-name'] ?? '')
if (!firstName.success) fail(`--first-name: ${firstName.error.issues[0]!.message}`)
const albumPhotos = Number(values['album-photos'])
if (!Number.isInteger(albumPhotos) || albumPhotos < 0 || albumPhotos > 72) fail('--album-photos: a whole number from 0 to 72')
const lastName = (values['last-name'] ?? '').trim()

const config = getConfig()
claimEmbeddedDatabaseOrExit(config)
const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir, timeouts: config.databaseTimeouts })
try {
  const [taken] = await database.db
    .select({ id: users.id })
    .from(users)
    .where(sql`lower(${users.email}) = lower(${email.data})`)
  if (taken) fail(`an account with ${email.data} already exists`)
  const { userId, familyId } = await database.db.transaction(async (tx) => {
    const [user] = await tx.insert(users).values({ email: email.data, firstName: firstName.data, lastName }).returning({ id: users.id })
    const [family] = await tx
      .insert(families)
      .values({ name: values.family?.trim() || `The ${lastName || firstName.data} family` })
      .returning({ id: families.id })
    await tx.insert(familyMembers).values({ familyId: family!.id, userId: user!.id, role: 'owner' })
    return { userId: user!.id, familyId: family!.id }
  })
  if (albumPhotos > 0) await addGeneratedAlbumPhotos(database.db, storageFor(config), config.demoPhotoCacheDir, familyId, albumPhotos)
  console.log(JSON.stringify({ userId, familyId, email: email.data, albumPhotos, engine: database.engine }))
} finally {
  await database.close()
}
