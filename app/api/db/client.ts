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
import { logger } from '../../observability/log'
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

/** PostgreSQL's deadlines (DATABASE_CONNECT_TIMEOUT_MS, DATABASE_QUERY_TIMEOUT_MS; decision 073). */
export type DatabaseTimeouts = { connectMs: number; queryMs: number }
export const defaultDatabaseTimeouts: DatabaseTimeouts = { connectMs: 5000, queryMs: 15_000 }

/**
 * A connection PostgreSQL ended (a restart, a failover, `pg_terminate_backend`) is an outage the requests meet as
 * 503s, never the process's end: without a listener, node exits on the pool's 'error' (issue 43, item 1). Each error
 * is told once, whether the pool (an idle connection) or the client (one checked out) heard it.
 */
function connectionLossWarner() {
  const told = new WeakSet<object>()
  return (error: unknown) => {
    if (typeof error === 'object' && error !== null) {
      if (told.has(error)) return
      told.add(error)
    }
    logger().warn({ err: error }, 'A PostgreSQL connection failed; the pool opens a new one when it is needed')
  }
}

/**
 * PostgreSQL when a URL is given, otherwise PGlite: in memory for `dataDir: null`, else persisted
 * under `dataDir/pglite`. Migrations are applied before the handle is returned. `logger` hears every
 * query the handle runs (its text, with $n placeholders, and its parameters). On PostgreSQL, a connection
 * waits at most `timeouts.connectMs` and a query `timeouts.queryMs` (the server cancels it too); migrations
 * get the connection deadline only, as a long one is no outage. `embeddedImage` (in-memory PGlite only) starts it from a
 * data directory PGlite dumped (`dumpDataDir`) instead of an empty one: no initdb, and the migrations it already has
 * are not run again (the test harness opens a fresh database per test file this way: decision 079).
 */
export async function openDatabase(opts: {
  databaseUrl: string | null
  dataDir: string | null
  logger?: Logger
  timeouts?: DatabaseTimeouts
  embeddedImage?: Blob
}): Promise<DatabaseHandle> {
  if (opts.databaseUrl) {
    const { connectMs, queryMs } = opts.timeouts ?? defaultDatabaseTimeouts
    const warn = connectionLossWarner()
    const migrator = new pg.Client({ connectionString: opts.databaseUrl, connectionTimeoutMillis: connectMs })
    migrator.on('error', warn)
    try {
      await migrator.connect()
      await migratePostgres(drizzlePostgres({ client: migrator }), { migrationsFolder })
    } finally {
      await migrator.end().catch(() => {})
    }
    const pool = new pg.Pool({
      connectionString: opts.databaseUrl,
      max: 10,
      connectionTimeoutMillis: connectMs,
      query_timeout: queryMs,
      statement_timeout: queryMs,
    })
    pool.on('error', warn)
    // A checked-out connection that dies between its queries: its next query fails (a 503), the process lives.
    pool.on('connect', (client) => client.on('error', warn))
    const db = drizzlePostgres({ client: pool, schema, logger: opts.logger })
    return { db: db as unknown as Database, engine: 'postgres', close: () => pool.end() }
  }
  let dir: string | undefined
  const dataDir = opts.dataDir
  if (opts.embeddedImage && dataDir) throw new Error('An embedded image starts an in-memory database only (dataDir: null)')
  if (dataDir) {
    // Before PGlite touches the files: a second process on them would destroy both (lock.ts).
    claimEmbeddedDatabase(dataDir)
    dir = path.join(dataDir, 'pglite')
    fs.mkdirSync(dir, { recursive: true })
  }
  const client = opts.embeddedImage ? new PGlite({ loadDataDir: opts.embeddedImage }) : new PGlite(dir)
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
