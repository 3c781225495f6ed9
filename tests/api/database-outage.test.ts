/**
 * PostgreSQL outages (issue 43, items 1, 2, 4 and 6; decision 073): a real API process (scripts/serve-api.ts) on a
 * PostgreSQL database reached through a fault proxy, which stops (refuse) and freezes (hang) it. The process never
 * exits, answers 503 'unavailable' in the error shape (request id, Retry-After) while the database is gone, says not
 * ready on /readyz, never waits past its query deadline, and serves again when the database returns, with no
 * restart — also when it was started while the database was down.
 */
import { sql } from 'drizzle-orm'
import pg from 'pg'
import { afterAll, afterEach, describe, expect, it, onTestFailed } from 'vitest'
import { buildOpenApiDocument } from '../../app/api/openapi'
import { startFaultProxy, type FaultProxy } from '../support/fault-proxy'
import { answerOf, openApiCheck, type OpenApiDocument } from '../support/openapi-check'
import { freshStore, killServers, startServer, type ServerProcess, type Store } from '../support/server-process'
import { onLogLine } from '../../app/observability/log'
import { createTestApi, TEST_ORIGIN } from '../support/test-api'

const engine = process.env.TEST_DB_ENGINE === 'postgres' ? 'postgres' : 'pglite'

/** Short deadlines: a frozen database is a 503 after a second, not after the default 15 s. */
const deadlines = { DATABASE_CONNECT_TIMEOUT_MS: '1000', DATABASE_QUERY_TIMEOUT_MS: '1000' }
/** Far past every deadline: a request still unanswered then is a hang, and fails the test. */
const HANG_GUARD_MS = 20_000

const check = openApiCheck(buildOpenApiDocument(TEST_ORIGIN) as OpenApiDocument)

/** A GET to the process, its answer held to the OpenAPI document (decision 041). */
async function get(server: ServerProcess, path: string) {
  const response = await fetch(`${server.url}${path}`, { signal: AbortSignal.timeout(HANG_GUARD_MS) })
  if (path.startsWith('/v1/')) check('GET', `${TEST_ORIGIN}${path}`, await answerOf(response))
  const text = await response.text()
  return { status: response.status, headers: response.headers, body: text ? (JSON.parse(text) as any) : null }
}

/** A database outage as the shopper's client sees it: 503, code 'unavailable', a request id and Retry-After. */
function expectOutageAnswer(answer: Awaited<ReturnType<typeof get>>) {
  expect(answer.status).toBe(503)
  expect(answer.body.error.code).toBe('unavailable')
  expect(answer.body.error.message).toMatch(/^The store database is not answering/)
  expect(answer.body.error.requestId).toEqual(expect.any(String))
  expect(answer.headers.get('x-request-id')).toBe(answer.body.error.requestId)
  expect(Number(answer.headers.get('retry-after'))).toBeGreaterThan(0)
}

const stillRunning = (server: ServerProcess) => Promise.race([server.exit.then((how) => `exited ${JSON.stringify(how)}`), Promise.resolve('running')])

const stores: Store[] = []
const proxies: FaultProxy[] = []
afterEach(() => killServers())
afterAll(async () => {
  killServers()
  for (const proxy of proxies) await proxy.close()
  for (const store of stores) await store.drop()
})

/** A fresh database, reached through a fault proxy in front of the PostgreSQL server. */
async function proxiedStore() {
  const store = await freshStore('postgres')
  stores.push(store)
  const direct = new URL(store.databaseUrl!)
  const proxy = await startFaultProxy({ host: direct.hostname, port: Number(direct.port || 5432) })
  proxies.push(proxy)
  const viaProxy = new URL(direct)
  viaProxy.hostname = '127.0.0.1'
  viaProxy.port = String(proxy.port)
  return { proxy, env: { ...store.env, DATABASE_URL: viaProxy.toString(), DEMO_MODE: 'false', PUBLIC_URL: TEST_ORIGIN, ...deadlines } }
}

describe.runIf(engine === 'postgres')('the API when PostgreSQL goes away', () => {
  it('lives through a stop and a freeze: 503s in the error shape, not ready, then serves again by itself', async () => {
    const { proxy, env } = await proxiedStore()
    const server = await startServer(env)
    // What the process logged, to see why when this fails.
    onTestFailed(() => console.log(server.output()))
    await server.until('the API to serve', async () => (await get(server, '/v1/status/jobs')).status === 200)
    await server.until('/readyz to say ready', async () => (await get(server, '/readyz')).status === 200)

    // Stopped: the pool's idle connections end under it (once, this killed the process: issue 43, item 1).
    proxy.set('refuse')
    await server.until('the API to answer 503', async () => (await get(server, '/v1/status/jobs')).status === 503)
    expectOutageAnswer(await get(server, '/v1/status/jobs'))
    await server.until('/readyz to say not ready', async () => (await get(server, '/readyz')).status === 503)
    expect((await get(server, '/readyz')).body).toEqual({ status: 'unavailable', checks: { database: 'failing' } })
    expect(server.output()).toContain('A PostgreSQL connection failed')
    expect(await stillRunning(server)).toBe('running')

    proxy.set('forward')
    await server.until('the API to serve again', async () => (await get(server, '/v1/status/jobs')).status === 200)
    await server.until('/readyz to say ready again', async () => (await get(server, '/readyz')).status === 200)

    // Frozen: connections open but nothing moves. The query deadline answers, the request never hangs (item 4).
    proxy.set('hang')
    expectOutageAnswer(await get(server, '/v1/status/jobs'))
    // A second one meets a fresh connection that never completes its start-up: the connection deadline answers.
    expectOutageAnswer(await get(server, '/v1/status/jobs'))
    await server.until('/readyz to say not ready', async () => (await get(server, '/readyz')).status === 503)

    proxy.set('forward')
    await server.until('the API to serve after the freeze', async () => (await get(server, '/v1/status/jobs')).status === 200)
    await server.until('/readyz to say ready after the freeze', async () => (await get(server, '/readyz')).status === 200)
    expect(await stillRunning(server)).toBe('running')
  })

  it('started while the database is down: not ready, 503s in the error shape, then ready and serving without a restart', async () => {
    const { proxy, env } = await proxiedStore()
    proxy.set('refuse')
    const server = await startServer(env)
    // What the process logged, to see why when this fails.
    onTestFailed(() => console.log(server.output()))
    expectOutageAnswer(await get(server, '/v1/status/jobs'))
    const readyz = await get(server, '/readyz')
    expect(readyz.status).toBe(503)
    expect(readyz.body).toEqual({ status: 'unavailable', checks: { database: 'failing' } })
    // Asked again and again while it is down: 503 each time, never the framework's bare 500.
    for (let i = 0; i < 3; i++) expectOutageAnswer(await get(server, '/v1/status/jobs'))

    proxy.set('forward')
    await server.until('/readyz to say ready', async () => (await get(server, '/readyz')).status === 200)
    expect((await get(server, '/readyz')).body).toEqual({ status: 'ready', checks: { database: 'ok' } })
    expect((await get(server, '/v1/status/jobs')).status).toBe(200)
    expect(await stillRunning(server)).toBe('running')
  })

  it('an administrator ending every connection (pg_terminate_backend, 57P01) is a warning, not the end of the process', async () => {
    const t = await createTestApi()
    const lines: Record<string, unknown>[] = []
    const stop = onLogLine((line) => lines.push(line), { silence: true })
    try {
      expect((await t.request('/v1/status/jobs')).status).toBe(200)
      const { rows } = (await t.db.execute(sql`select current_database() as name`)) as unknown as { rows: { name: string }[] }
      const name = rows[0]!.name
      const admin = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL })
      await admin.connect()
      // The pool's idle connections hear FATAL 57P01 "terminating connection due to administrator command".
      await admin.query('select pg_terminate_backend(pid) from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()', [name])
      await admin.end()
      await expect.poll(() => lines.some((line) => line.msg === 'A PostgreSQL connection failed; the pool opens a new one when it is needed')).toBe(true)
      // The pool opens new connections: the next request is served.
      expect((await t.request('/v1/status/jobs')).status).toBe(200)
    } finally {
      stop()
      await t.close()
    }
  })
})
