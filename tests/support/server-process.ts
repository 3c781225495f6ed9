/**
 * A real API server process (scripts/serve-api.ts) for crash tests: started on a store (a PGlite data
 * directory or a PostgreSQL database) that outlives it, optionally told to stop at a crash point
 * (app/api/crash-points.ts), and killed with SIGKILL there.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { randomUUID } from 'node:crypto'
import fs from 'node:fs'
import net from 'node:net'
import os from 'node:os'
import path from 'node:path'
import pg from 'pg'
import { answerOf, openApiCheck, type OpenApiDocument } from './openapi-check'

const root = path.resolve(import.meta.dirname, '../..')

/** A store that outlives server processes: what `createTestApi(env, { database })` and `startServer(env)` both open. */
export type Store = { dataDir: string; databaseUrl: string | null; env: Record<string, string>; drop: () => Promise<void> }

export async function freshStore(engine: 'pglite' | 'postgres'): Promise<Store> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'keepsake-crash-'))
  let databaseUrl: string | null = null
  let dropDatabase = async () => {}
  if (engine === 'postgres') {
    const serverUrl = process.env.TEST_DATABASE_URL
    if (!serverUrl) throw new Error('TEST_DATABASE_URL is needed for the postgres crash tests')
    const name = `keepsake_crash_${randomUUID().replaceAll('-', '')}`
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
    databaseUrl = url.toString()
    dropDatabase = () => admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)
  }
  return {
    dataDir,
    databaseUrl,
    env: { DATA_DIR: dataDir, ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}) },
    drop: async () => {
      await dropDatabase()
      fs.rmSync(dataDir, { recursive: true, force: true })
    },
  }
}

/** A port nobody listens on right now. */
export async function freePort() {
  const server = net.createServer()
  server.listen(0, '127.0.0.1')
  await new Promise((resolve) => server.once('listening', resolve))
  const { port } = server.address() as net.AddressInfo
  await new Promise((resolve) => server.close(resolve))
  return port
}

export type ServerProcess = Awaited<ReturnType<typeof startServer>>

const running = new Set<ChildProcess>()
/** For afterEach: kills whatever a failed test left running. */
export function killServers() {
  for (const child of running) child.kill('SIGKILL')
  running.clear()
}

/**
 * Starts `node --import tsx scripts/serve-api.ts` (one process, so SIGKILL kills the server itself) and
 * waits until it listens. With `pauseAt`, the process stops for good at that crash point.
 */
export async function startServer(
  env: Record<string, string>,
  {
    pauseAt,
    holdAt,
    holdMs,
    script = 'scripts/serve-api.ts',
    npmScript,
    listening = 'Keepsake album API on port',
  }: {
    pauseAt?: string
    /** Crash points (comma-separated) where work holds for `holdMs` and then goes on (app/api/crash-points.ts). */
    holdAt?: string
    holdMs?: number
    /** scripts/serve.ts for the store (it needs `npm run build`). */
    script?: string
    /** Run `npm run <npmScript>` instead (the process signalled is npm's, as a supervisor would have it). */
    npmScript?: string
    /** The line that says the process listens; null: do not wait for it. */
    listening?: string | null
  } = {},
) {
  const port = await freePort()
  const marker = path.join(os.tmpdir(), `keepsake-pause-${randomUUID()}`)
  const [command, args] = npmScript ? ['npm', ['run', '--silent', npmScript]] : [process.execPath, ['--import', 'tsx', script]]
  const child: ChildProcess = spawn(command, args, {
    cwd: root,
    env: {
      ...process.env,
      // Short-lived test stores skip the preview warm-up (about 4 s of CPU each); a test that wants it passes its own value.
      PREVIEW_WARM_UP: 'false',
      // `npm run` puts node_modules/.bin (Node 22) first on PATH itself.
      ...env,
      PORT: String(port),
      HOST: '127.0.0.1',
      KEEPSAKE_TEST_PAUSE_FILE: marker,
      ...(pauseAt ? { KEEPSAKE_TEST_PAUSE_AT: pauseAt } : {}),
      ...(holdAt ? { KEEPSAKE_TEST_HOLD_AT: holdAt, KEEPSAKE_TEST_HOLD_MS: String(holdMs ?? 5000) } : {}),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  running.add(child)
  let output = ''
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()))
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()))
  const exit = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => {
      running.delete(child)
      resolve({ code, signal })
    }),
  )
  const exited = exit.then(() => {})

  const until = async (what: string, done: () => boolean | Promise<boolean>, timeoutMs = 30_000) => {
    const deadline = Date.now() + timeoutMs
    while (!(await done())) {
      if (child.exitCode !== null || child.signalCode !== null) {
        throw new Error(`the server exited (${child.exitCode ?? child.signalCode}) waiting for ${what}:\n${output}`)
      }
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}:\n${output}`)
      await new Promise((resolve) => setTimeout(resolve, 50))
    }
  }
  if (listening !== null) await until('the server to listen', () => output.includes(listening), 120_000)

  const url = `http://127.0.0.1:${port}`
  let check: ReturnType<typeof openApiCheck> | undefined
  return {
    url,
    output: () => output,
    /** An HTTP call to the process; the body parsed as JSON when it is JSON. */
    async request(pathname: string, init: RequestInit & { json?: unknown; cookie?: string } = {}) {
      const headers = new Headers(init.headers)
      if (init.json !== undefined) headers.set('content-type', 'application/json')
      if (init.cookie) headers.set('cookie', init.cookie)
      const { json, cookie: _cookie, ...rest } = init
      const response = await fetch(`${url}${pathname}`, { ...rest, headers, body: json !== undefined ? JSON.stringify(json) : init.body })
      // Held to the process's own OpenAPI document, as every API test's answers are (decision 041).
      check ??= openApiCheck((await (await fetch(`${url}/v1/openapi.json`)).json()) as OpenApiDocument)
      check(init.method ?? 'GET', response.url, await answerOf(response))
      const text = await response.text()
      let body: any = text
      try {
        body = text ? JSON.parse(text) : null
      } catch {
        // Not JSON: the text as it came.
      }
      return { status: response.status, body }
    },
    /** Resolves once the process has stopped at its crash point. */
    pausedAt: (point: string, timeoutMs = 60_000) =>
      until(`the crash point ${point}`, () => fs.existsSync(marker) && fs.readFileSync(marker, 'utf8') === point, timeoutMs),
    /** Waits (polling) until `check` answers true. */
    until,
    port,
    /** Sends a signal (SIGTERM, SIGINT) to the process. */
    signal: (signal: NodeJS.Signals) => child.kill(signal),
    /** How the process ended: its exit code, or the signal that killed it. */
    exit,
    async kill() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL')
      await exited
      fs.rmSync(marker, { force: true })
    },
  }
}
