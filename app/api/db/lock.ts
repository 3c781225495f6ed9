/**
 * One process per embedded database. PGlite is a single-process Postgres: a second process that
 * opens the same directory writes over the first and both are lost ("Aborted()"). The first
 * process takes `DATA_DIR/pglite.lock` (created exclusively, holding its pid); another process
 * finds it and stops with one clear line. A lock left by a process that no longer runs (killed,
 * crashed) is taken over. See docs/decisions/017.
 */
import fs from 'node:fs'
import path from 'node:path'

export class EmbeddedDatabaseInUse extends Error {
  readonly directory: string
  readonly pid: number
  constructor(directory: string, pid: number) {
    super(
      `Another Keepsake process (pid ${pid}) is using the embedded database in ${directory}; stop it first, or use PostgreSQL (DATABASE_URL) to run several.`,
    )
    this.name = 'EmbeddedDatabaseInUse'
    this.directory = directory
    this.pid = pid
  }
}

const held = new Set<string>()

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    // EPERM: it runs, as another user.
    return (error as NodeJS.ErrnoException).code === 'EPERM'
  }
}

function readOwner(lockPath: string): number | null {
  try {
    const pid = Number.parseInt(fs.readFileSync(lockPath, 'utf8').trim(), 10)
    return Number.isSafeInteger(pid) && pid > 0 ? pid : null
  } catch {
    return null
  }
}

export function lockPathFor(dataDir: string) {
  return path.join(path.resolve(dataDir), 'pglite.lock')
}

/** Takes the embedded database of `dataDir` for this process, or throws EmbeddedDatabaseInUse. Re-entrant within a process. */
export function claimEmbeddedDatabase(dataDir: string): void {
  const lockPath = lockPathFor(dataDir)
  if (held.has(lockPath)) return
  fs.mkdirSync(path.dirname(lockPath), { recursive: true })
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      const fd = fs.openSync(lockPath, 'wx')
      fs.writeSync(fd, `${process.pid}\n`)
      fs.closeSync(fd)
      held.add(lockPath)
      return
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error
    }
    const owner = readOwner(lockPath)
    if (owner === process.pid) {
      held.add(lockPath)
      return
    }
    // A pid that no longer runs left it (SIGKILL, a crash); an unreadable lock is being written right now.
    if (owner !== null && isRunning(owner)) throw new EmbeddedDatabaseInUse(path.dirname(lockPath), owner)
    if (owner === null && attempt === 0) {
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 50)
      continue
    }
    fs.rmSync(lockPath, { force: true })
  }
  const owner = readOwner(lockPath)
  throw new EmbeddedDatabaseInUse(path.dirname(lockPath), owner ?? 0)
}

export function releaseEmbeddedDatabase(dataDir: string): void {
  const lockPath = lockPathFor(dataDir)
  if (!held.delete(lockPath)) return
  if (readOwner(lockPath) === process.pid) fs.rmSync(lockPath, { force: true })
}

process.once('exit', () => {
  for (const lockPath of held) {
    try {
      if (readOwner(lockPath) === process.pid) fs.rmSync(lockPath, { force: true })
    } catch {
      // Exiting anyway; the next process sees a dead pid and takes the lock over.
    }
  }
})

/** For process entries (serve, serve-api, scripts): take the embedded database first, or stop with one line. */
export function claimEmbeddedDatabaseOrExit(config: { databaseUrl: string | null; dataDir: string | null }): void {
  if (config.databaseUrl || !config.dataDir) return
  try {
    claimEmbeddedDatabase(config.dataDir)
  } catch (error) {
    if (!(error instanceof EmbeddedDatabaseInUse)) throw error
    console.error(error.message)
    process.exit(1)
  }
}
