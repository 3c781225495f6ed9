import { randomUUID } from 'node:crypto'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import pg from 'pg'
import { loadConfig } from '../../app.config'
import { createApi } from '../../app/api/app'
import { openDatabase, type DatabaseHandle } from '../../app/api/db/client'
import { storageFor } from '../../app/api/storage'
import type { PaymentProvider } from '../../app/api/providers/payments/provider'
import type { PrintProvider } from '../../app/api/providers/print/provider'
import { seedDemoAccounts, demoAccounts } from '../../app/api/services/demo'

export const TEST_ORIGIN = 'http://localhost:3000'

/** A fresh database for one test file: in-memory PGlite, or a new database on TEST_DATABASE_URL's server. */
async function freshDatabase(): Promise<DatabaseHandle> {
  const serverUrl = process.env.TEST_DATABASE_URL
  if (process.env.TEST_DB_ENGINE !== 'postgres' || !serverUrl) {
    return openDatabase({ databaseUrl: null, dataDir: null })
  }
  const name = `keepsake_test_${randomUUID().replaceAll('-', '')}`
  const admin = new pg.Client({ connectionString: serverUrl })
  await admin.connect()
  await admin.query(`CREATE DATABASE ${name}`)
  await admin.end()
  const url = new URL(serverUrl)
  url.pathname = `/${name}`
  const handle = await openDatabase({ databaseUrl: url.toString(), dataDir: null })
  return {
    ...handle,
    close: async () => {
      await handle.close()
      const dropper = new pg.Client({ connectionString: serverUrl })
      await dropper.connect()
      await dropper.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)
      await dropper.end()
    },
  }
}

export type TestApi = Awaited<ReturnType<typeof createTestApi>>

export async function createTestApi(env: Record<string, string> = {}, overrides: { print?: PrintProvider; payments?: PaymentProvider } = {}) {
  const database = await freshDatabase()
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'keepsake-api-test-'))
  const config = loadConfig({ PUBLIC_URL: TEST_ORIGIN, DEMO_MODE: 'true', DATA_DIR: dataDir, ...env })
  let clock = new Date('2026-11-22T12:00:00Z')
  const storage = storageFor(config)
  const api = createApi({ db: database.db, config, storage, now: () => clock, ...overrides })
  await seedDemoAccounts(database.db)

  async function request(path: string, init: RequestInit & { json?: unknown; cookie?: string } = {}) {
    const headers = new Headers(init.headers)
    if (init.json !== undefined) {
      headers.set('content-type', 'application/json')
    }
    if (init.cookie) headers.set('cookie', init.cookie)
    const response = await api.fetch(
      new Request(`${TEST_ORIGIN}${path}`, {
        ...init,
        headers,
        body: init.json !== undefined ? JSON.stringify(init.json) : init.body,
      }),
    )
    const text = await response.text()
    let body: any = text
    try {
      body = text ? JSON.parse(text) : null
    } catch {
      body = text
    }
    return { status: response.status, headers: response.headers, body }
  }

  /** Signs in as a demo user and answers the cookie header to send afterwards. */
  async function signIn(which: 0 | 1 = 0) {
    const res = await request('/v1/demo/sessions', { method: 'POST', json: { userId: demoAccounts[which].user.id } })
    const cookie = res.headers.get('set-cookie')
    if (res.status !== 201 || !cookie) throw new Error(`demo sign-in failed: ${res.status}`)
    return cookie.split(';')[0]!
  }

  return {
    api,
    db: database.db,
    config,
    storage,
    dataDir,
    request,
    signIn,
    users: [demoAccounts[0].user, demoAccounts[1].user] as const,
    setNow: (date: Date) => {
      clock = date
    },
    now: () => clock,
    close: async () => {
      await database.close()
      fs.rmSync(dataDir, { recursive: true, force: true })
    },
  }
}
