import fs from 'node:fs'
import path from 'node:path'
import { PGlite } from '@electric-sql/pglite'
import type { Logger } from 'drizzle-orm/logger'
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core'
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite'
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator'
import { drizzle as drizzlePostgres } from 'drizzle-orm/node-postgres'
import { migrate as migratePostgres } from 'drizzle-orm/node-postgres/migrator'
import pg from 'pg'
import { claimEmbeddedDatabase, releaseEmbeddedDatabase } from './lock'
import * as schema from './schema'

export type Database = PgDatabase<PgQueryResultHKT, typeof schema>

export type DatabaseHandle = {
  db: Database
  engine: 'pglite' | 'postgres'
  close: () => Promise<void>
}

/** Migrations are committed SQL, read from the source tree wherever the server was built. */
export const migrationsFolder = path.resolve(process.env.MIGRATIONS_DIR ?? 'app/api/db/migrations')

/**
 * PostgreSQL when a URL is given, otherwise PGlite: in memory for `dataDir: null`, else persisted
 * under `dataDir/pglite`. Migrations are applied before the handle is returned. `logger` hears every
 * query the handle runs (its text, with $n placeholders, and its parameters).
 */
export async function openDatabase(opts: { databaseUrl: string | null; dataDir: string | null; logger?: Logger }): Promise<DatabaseHandle> {
  if (opts.databaseUrl) {
    const pool = new pg.Pool({ connectionString: opts.databaseUrl, max: 10 })
    const db = drizzlePostgres({ client: pool, schema, logger: opts.logger })
    await migratePostgres(db, { migrationsFolder })
    return { db: db as unknown as Database, engine: 'postgres', close: () => pool.end() }
  }
  let dir: string | undefined
  const dataDir = opts.dataDir
  if (dataDir) {
    // Before PGlite touches the files: a second process on them would destroy both (lock.ts).
    claimEmbeddedDatabase(dataDir)
    dir = path.join(dataDir, 'pglite')
    fs.mkdirSync(dir, { recursive: true })
  }
  const client = new PGlite(dir)
  const db = drizzlePglite({ client, schema, logger: opts.logger })
  try {
    await migratePglite(db, { migrationsFolder })
  } catch (error) {
    await client.close().catch(() => {})
    if (dataDir) releaseEmbeddedDatabase(dataDir)
    throw error
  }
  const close = async () => {
    await client.close()
    if (dataDir) releaseEmbeddedDatabase(dataDir)
  }
  return { db: db as unknown as Database, engine: 'pglite', close }
}

export { schema }
