/**
 * One process per embedded database: two processes on one would destroy it. The first process holds
 * DATA_DIR/pglite.lock; a second stops with one clear line and changes nothing; a lock left by a
 * killed process is taken over. Real child processes (scripts/serve-api.ts and a script).
 */
import { spawn } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { claimEmbeddedDatabase, EmbeddedDatabaseInUse, lockPathFor, releaseEmbeddedDatabase } from '~/api/db/lock'
import { freshStore, killServers, startServer, type Store } from '../support/server-process'

const root = path.resolve(import.meta.dirname, '../..')
const engine = process.env.TEST_DB_ENGINE === 'postgres' ? 'postgres' : 'pglite'
let store: Store | undefined

afterEach(async () => {
  killServers()
  await store?.drop()
  store = undefined
})

/** Runs `node --import tsx scripts/serve-api.ts` until it exits (or 60 s), with its output. */
function runToExit(env: Record<string, string>) {
  return new Promise<{ code: number | null; output: string }>((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/serve-api.ts'], {
      cwd: root,
      env: { ...process.env, ...env, PORT: '39999', HOST: '127.0.0.1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    let output = ''
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()))
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()))
    const timer = setTimeout(() => child.kill('SIGKILL'), 60_000)
    child.once('exit', (code) => {
      clearTimeout(timer)
      resolve({ code, output })
    })
  })
}

describe.runIf(engine === 'pglite')('one process per embedded database', () => {
  it('a second server on the same DATA_DIR stops with one clear line, and the first keeps its data', { timeout: 120_000 }, async () => {
    store = await freshStore('pglite')
    const first = await startServer(store.env)
    const lock = lockPathFor(store.dataDir)
    expect(fs.readFileSync(lock, 'utf8').trim()).not.toBe('')

    const second = await runToExit(store.env)
    expect(second.code).toBe(1)
    const lines = second.output.split('\n').filter((line) => line.trim() && !line.includes('ExperimentalWarning'))
    expect(lines).toEqual([
      expect.stringMatching(
        /^Another Keepsake process \(pid \d+\) is using the embedded database in .+; stop it first, or use PostgreSQL \(DATABASE_URL\) to run several\.$/,
      ),
    ])

    // The first process still answers from its database (it was not overwritten).
    const demo = await first.request('/v1/openapi.json')
    expect(demo.status).toBe(200)
    const users = await first.request('/v1/demo/users')
    expect(users.status).toBe(200)
    await first.kill()
  })

  it('a lock left by a killed process is taken over by the next start', { timeout: 120_000 }, async () => {
    store = await freshStore('pglite')
    const first = await startServer(store.env)
    await first.kill() // SIGKILL: the lock file stays, naming a pid that no longer runs
    expect(fs.existsSync(lockPathFor(store.dataDir))).toBe(true)
    const next = await startServer(store.env)
    expect((await next.request('/v1/openapi.json')).status).toBe(200)
    await next.kill()
  })

  it('in one process the claim is re-entrant, refuses a live other owner, and a release frees it', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'keepsake-lock-'))
    try {
      claimEmbeddedDatabase(dir)
      claimEmbeddedDatabase(dir)
      releaseEmbeddedDatabase(dir)
      expect(fs.existsSync(lockPathFor(dir))).toBe(false)
      // pid 1 always runs: another live owner.
      fs.writeFileSync(lockPathFor(dir), '1\n')
      expect(() => claimEmbeddedDatabase(dir)).toThrow(EmbeddedDatabaseInUse)
      expect(fs.readFileSync(lockPathFor(dir), 'utf8')).toBe('1\n')
    } finally {
      fs.rmSync(dir, { recursive: true, force: true })
    }
  })
})
