/**
 * A database of its own on a PostgreSQL server, for a bench or a test that must never meet another run's
 * rows: made with CREATE DATABASE, dropped (connections and all) by `drop`.
 */
import pg from 'pg'

export type ScratchDatabase = { name: string; url: string; drop: () => Promise<void> }

export async function scratchPostgres(serverUrl: string, prefix: string): Promise<ScratchDatabase> {
  const name = `${prefix}_${process.pid}_${Date.now()}_${Math.floor(Math.random() * 1e6)}`
  if (!/^[a-z_][a-z0-9_]{0,62}$/.test(name)) throw new Error(`Not a database name PostgreSQL takes unquoted: ${name}`)
  const admin = async (query: string) => {
    const client = new pg.Client({ connectionString: serverUrl })
    await client.connect()
    try {
      await client.query(query)
    } finally {
      await client.end()
    }
  }
  await admin(`CREATE DATABASE ${name}`)
  const url = new URL(serverUrl)
  url.pathname = `/${name}`
  return { name, url: url.toString(), drop: () => admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`) }
}
