/**
 * The process's lifecycle, shared by the process entry (scripts/serve.ts, scripts/serve-api.ts) and the
 * code it runs (the album API, bundled into dist/server by the store's build): whether the process has
 * warmed up or is draining, what `/readyz` checks, and what must be closed before it exits
 * (docs/decisions/044). The state lives on `globalThis` under one symbol, so the entry's copy of this
 * module and the build's copy of it are one state. No imports: scripts/serve.ts loads it with Node's
 * type stripping.
 */

export type ShutdownHook = {
  name: string
  /**
   * 'drain' hooks run as soon as the process is told to stop, beside the requests in flight (the job
   * worker stops claiming and lets its running job finish); `deadline` aborts when the grace runs out.
   * 'close' hooks run after every request and drain hook is done: connections and files, database last.
   */
  phase: 'drain' | 'close'
  run: (deadline: AbortSignal) => Promise<void>
}

export type ReadinessCheck = { name: string; check: () => Promise<void> }

type State = {
  warm: boolean
  draining: boolean
  hooks: ShutdownHook[]
  checks: ReadinessCheck[]
  /** The last run of the checks (or the one under way), shared by every /readyz hit until it is `keepMs` old. */
  lastChecks?: { result: Promise<Record<string, 'ok' | 'failing'>>; settledAt: number | null }
}

const KEY = Symbol.for('keepsake.lifecycle')

function state(): State {
  const holder = globalThis as unknown as Record<symbol, State | undefined>
  return (holder[KEY] ??= { warm: false, draining: false, hooks: [], checks: [] })
}

/** The process has been told to stop: /readyz answers 503 from now on, and nothing new starts. */
export const isDraining = () => state().draining
export function beginDrain() {
  state().draining = true
}

/** The entry has finished warming up (database open, demo data seeded). */
export function markWarm() {
  state().warm = true
}

export class ShuttingDown extends Error {
  constructor(what: string) {
    super(`${what} stopped: the process is shutting down`)
    this.name = 'ShuttingDown'
  }
}

/** For warm-up steps: stop here when a signal came meanwhile. */
export function stopIfDraining(what: string) {
  if (state().draining) throw new ShuttingDown(what)
}

export function onShutdown(hook: ShutdownHook) {
  state().hooks.push(hook)
}

export function addReadinessCheck(check: ReadinessCheck) {
  state().checks.push(check)
}

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error))

function withTimeout<T>(work: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined
  return Promise.race([
    work,
    new Promise<T>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`${what} did not answer within ${ms} ms`)), ms)
    }),
  ]).finally(() => clearTimeout(timer))
}

export type Readiness = { ready: boolean; status: 'ready' | 'starting' | 'draining' | 'unavailable'; checks: Record<string, 'ok' | 'failing'> }

/** Why a check failed: for the log only, never for /readyz's answer (the raw errors name users and internal hosts). */
export type ReadinessProblem = (name: string, message: string) => void

async function runChecks(checks: ReadinessCheck[], timeoutMs: number, onProblem: ReadinessProblem) {
  const states: Record<string, 'ok' | 'failing'> = {}
  await Promise.all(
    checks.map(async ({ name, check }) => {
      try {
        await withTimeout(check(), timeoutMs, name)
        states[name] = 'ok'
      } catch (error) {
        states[name] = 'failing'
        onProblem(name, messageOf(error))
      }
    }),
  )
  return states
}

/**
 * What /readyz answers: not ready while warming up or draining, else every check (database, Redis, storage) must
 * answer, each named with its state only. The checks run at most once per `keepMs`: hits meanwhile, and hits while
 * a run is under way, share its result (issue 42, item 11).
 */
export async function readiness({
  timeoutMs = 2000,
  keepMs = 1000,
  onProblem = () => {},
}: { timeoutMs?: number; keepMs?: number; onProblem?: ReadinessProblem } = {}): Promise<Readiness> {
  const s = state()
  if (s.draining) return { ready: false, status: 'draining', checks: {} }
  if (!s.warm) return { ready: false, status: 'starting', checks: {} }
  const last = s.lastChecks
  if (!last || (last.settledAt !== null && performance.now() - last.settledAt >= keepMs)) {
    const run = { result: runChecks(s.checks, timeoutMs, onProblem), settledAt: null as number | null }
    void run.result.finally(() => (run.settledAt = performance.now()))
    s.lastChecks = run
  }
  const checks = await s.lastChecks!.result
  // A signal that came while the checks ran wins.
  if (s.draining) return { ready: false, status: 'draining', checks }
  const ready = Object.values(checks).every((v) => v === 'ok')
  return { ready, status: ready ? 'ready' : 'unavailable', checks }
}

/**
 * Runs the hooks of one phase, each bounded by `deadline` (drain) or by `closeTimeoutMs` (close), and
 * answers the names of those that failed. A hook that fails or overruns never stops the others.
 */
export async function runShutdownHooks(phase: ShutdownHook['phase'], deadline: AbortSignal, closeTimeoutMs = 5000): Promise<string[]> {
  const failed: string[] = []
  const hooks = state().hooks.filter((h) => h.phase === phase)
  const run = async (hook: ShutdownHook) => {
    try {
      await (phase === 'close' ? withTimeout(hook.run(deadline), closeTimeoutMs, hook.name) : hook.run(deadline))
    } catch (error) {
      failed.push(`${hook.name}: ${messageOf(error)}`)
    }
  }
  if (phase === 'drain') await Promise.all(hooks.map(run))
  // Close hooks run one by one in reverse order of registration: the database, opened first, closes last.
  else for (const hook of [...hooks].reverse()) await run(hook)
  return failed
}
