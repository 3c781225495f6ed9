import { createHash, randomUUID } from 'node:crypto'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { PGlite } from '@electric-sql/pglite'
import type { Logger } from 'drizzle-orm/logger'
import { drizzle } from 'drizzle-orm/pglite'
import { migrate } from 'drizzle-orm/pglite/migrator'
import pg from 'pg'
import { loadConfig } from '../../app.config'
import { createApi } from '../../app/api/app'
import { migrationsFolder, openDatabase, type DatabaseHandle, type DatabaseTimeouts } from '../../app/api/db/client'
import { storageFor } from '../../app/api/storage'
import type { PaymentProvider } from '../../app/api/providers/payments/provider'
import type { PrintProvider } from '../../app/api/providers/print/provider'
import { seedDemoAccounts, demoAccounts } from '../../app/api/demo/accounts'
import { withClientAddress } from '../../app/api/client-address'
import type { RateLimiter } from '../../app/api/rate-limit'
import { buildOpenApiDocument } from '../../app/api/openapi'
import { answerOf, openApiCheck, type OpenApiDocument } from './openapi-check'

export const TEST_ORIGIN = 'http://localhost:3000'

/**
 * An empty, migrated PGlite, dumped once for this PGlite build and these migrations and kept in the temp directory for
 * every test file after (each file runs in a process of its own): a database started from it skips initdb and the
 * migrations, about 2 s of CPU a test file on this machine, several under load (decision 079). A stale image cannot be
 * picked up: its name is the hash of the migrations and of PGlite's version.
 */
let image: Promise<Blob> | null = null
function migratedPgliteImage(): Promise<Blob> {
  image ??= (async () => {
    const hash = createHash('sha256')
    hash.update(fs.readFileSync(path.resolve('node_modules/@electric-sql/pglite/package.json')))
    for (const file of fs.readdirSync(migrationsFolder, { recursive: true, withFileTypes: true }).filter((f) => f.isFile())) {
      const full = path.join(file.parentPath, file.name)
      hash.update(path.relative(migrationsFolder, full)).update(fs.readFileSync(full))
    }
    const file = path.join(os.tmpdir(), `keepsake-pglite-image-${hash.digest('hex').slice(0, 20)}.tar`)
    if (fs.existsSync(file)) return new Blob([fs.readFileSync(file)])
    const client = new PGlite()
    await migrate(drizzle({ client }), { migrationsFolder })
    const dumped = await client.dumpDataDir('none')
    await client.close()
    // Written aside and renamed: two files making it at once each write a whole one, and no reader sees half.
    const temp = `${file}.${process.pid}.${randomUUID()}`
    fs.writeFileSync(temp, Buffer.from(await dumped.arrayBuffer()))
    fs.renameSync(temp, file)
    return dumped
  })()
  return image
}

/** A fresh database for one test file: in-memory PGlite, or a new database on TEST_DATABASE_URL's server. */
async function freshDatabase(logger?: Logger, timeouts?: DatabaseTimeouts): Promise<DatabaseHandle> {
  const serverUrl = process.env.TEST_DATABASE_URL
  if (process.env.TEST_DB_ENGINE !== 'postgres' || !serverUrl) {
    return openDatabase({ databaseUrl: null, dataDir: null, logger, embeddedImage: await migratedPgliteImage() })
  }
  const name = `keepsake_test_${randomUUID().replaceAll('-', '')}`
  const admin = new pg.Client({ connectionString: serverUrl })
  await admin.connect()
  await admin.query(`CREATE DATABASE ${name}`)
  await admin.end()
  const url = new URL(serverUrl)
  url.pathname = `/${name}`
  const handle = await openDatabase({ databaseUrl: url.toString(), dataDir: null, logger, timeouts })
  return {
    ...handle,
    close: async () => {
      await handle.close()
      const dropper = new pg.Client({ connectionString: serverUrl })
      await dropper.connect()
      // A plain DROP first: FORCE terminates connections still closing, and the FATAL it sends them
      // surfaces as an unhandled error in whichever test file is running. FORCE only as a last resort.
      let dropped = false
      for (let attempt = 0; attempt < 30 && !dropped; attempt++) {
        try {
          await dropper.query(`DROP DATABASE IF EXISTS ${name}`)
          dropped = true
        } catch {
          await new Promise((resolve) => setTimeout(resolve, 100))
        }
      }
      if (!dropped) await dropper.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)
      await dropper.end()
    },
  }
}

export type TestApi = Awaited<ReturnType<typeof createTestApi>>

export async function createTestApi(
  env: Record<string, string> = {},
  /**
   * `database`: open this one (kept on close) instead of a fresh one, e.g. to hand it to a server process afterwards.
   * `logger`: hears every query of the fresh database (drizzle's Logger).
   */
  {
    database: existing,
    logger,
    ...overrides
  }: {
    print?: PrintProvider
    payments?: PaymentProvider
    rateLimiter?: RateLimiter
    database?: { databaseUrl: string | null; dataDir: string | null }
    logger?: Logger
  } = {},
) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'keepsake-api-test-'))
  const config = loadConfig({ PUBLIC_URL: TEST_ORIGIN, DEMO_MODE: 'true', DATA_DIR: dataDir, ...env })
  const timeouts = config.databaseTimeouts
  const database = existing ? await openDatabase({ ...existing, logger, timeouts }) : await freshDatabase(logger, timeouts)
  let clock = new Date('2026-11-22T12:00:00Z')
  const storage = storageFor(config)
  const api = createApi({ db: database.db, config, storage, now: () => clock, ...overrides })
  // Every answer any test receives, through `request` or `api.fetch`, is held to the OpenAPI document (decision 041).
  const check = openApiCheck(buildOpenApiDocument(config.publicUrl) as OpenApiDocument)
  const dispatch = api.fetch
  api.fetch = async (request: Request, ...rest) => {
    const response = await dispatch(request, ...rest)
    check(request.method, request.url, await answerOf(response))
    return response
  }
  await seedDemoAccounts(database.db)

  /** `clientAddress` is the network address the request comes from (rate limits key on it). */
  async function request(path: string, init: RequestInit & { json?: unknown; cookie?: string; clientAddress?: string } = {}) {
    const headers = new Headers(init.headers)
    if (init.json !== undefined) {
      headers.set('content-type', 'application/json')
    }
    if (init.cookie) headers.set('cookie', init.cookie)
    const { json, cookie: _cookie, clientAddress, ...rest } = init
    const response = await withClientAddress(clientAddress ?? '203.0.113.1', () =>
      api.fetch(new Request(`${TEST_ORIGIN}${path}`, { ...rest, headers, body: json !== undefined ? JSON.stringify(json) : init.body })),
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

  /** Signs in as a brand-new demo shopper (POST /v1/demo/guests): answers the cookie and the user. */
  async function signInGuest(clientAddress = '203.0.113.1') {
    const res = await request('/v1/demo/guests', { method: 'POST', clientAddress })
    const cookie = res.headers.get('set-cookie')
    if (res.status !== 201 || !cookie) throw new Error(`demo guest sign-in failed: ${res.status} ${JSON.stringify(res.body)}`)
    return { cookie: cookie.split(';')[0]!, user: res.body.user as { id: string; firstName: string; lastName: string; email: string } }
  }

  return {
    api,
    db: database.db,
    config,
    storage,
    dataDir,
    request,
    signIn,
    signInGuest,
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
