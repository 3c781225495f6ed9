/**
 * The one logger of every server process (decision 045): pino, one JSON object per line in production,
 * pino-pretty's readable lines in development. Every line written inside a request, or inside a job a
 * request enqueued, carries that request's id (`reqId`), read from the request context below.
 *
 * A leaf module that plain Node loads too (scripts/serve.ts): node: built-ins and packages only, and
 * the state lives on globalThis, so the server bundle's copy and the script's copy share one context
 * and one logger.
 */
import { AsyncLocalStorage } from 'node:async_hooks'
import { createRequire } from 'node:module'
import pino, { type Logger } from 'pino'

/** What a request (or a job run on its behalf) knows about itself; the request line is written from it. */
export type RequestContext = {
  /** The request id: X-Request-Id as the client or the store sent it, or one made here. */
  id: string
  /** 'store' (pages, server functions, /v1 through the store), 'api' (the album API), 'job' (a job run). */
  layer: 'store' | 'api' | 'job'
  method?: string
  /** The matched route pattern (Hono's route path, the page's route id), never a raw path with ids. */
  route?: string
  /** The signed-in shopper, once the API has found the session. */
  accountId?: string
  /** The client went away before the answer was sent. */
  aborted?: boolean
  /** The error has been logged (with its stack) already; the request line does not repeat it. */
  errorLogged?: boolean
  /** A dependency was out while this request was answered (an API answer 503 'unavailable' inside it; issue 43, item 6). */
  outage?: boolean
  parent?: RequestContext
}

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const
export const LOG_FORMATS = ['json', 'pretty'] as const

type Shared = {
  storage: AsyncLocalStorage<RequestContext>
  logger?: Logger
  listeners: Set<(line: Record<string, unknown>) => void>
  /** How many listeners asked for the lines not to be printed too. */
  silencing: number
}
const KEY = Symbol.for('keepsake.observability.log')
const shared: Shared =
  ((globalThis as Record<symbol, unknown>)[KEY] as Shared | undefined) ??
  ((globalThis as Record<symbol, unknown>)[KEY] = { storage: new AsyncLocalStorage<RequestContext>(), listeners: new Set(), silencing: 0 } as Shared)

/** The context of the request (or job) this code runs for, if any. */
export const currentRequestContext = (): RequestContext | undefined => shared.storage.getStore()
export const currentRequestId = (): string | undefined => shared.storage.getStore()?.id
export const runInRequestContext = <T>(context: RequestContext, run: () => T): T => shared.storage.run(context, run)
/** Runs `run` in no request's context: a timer started from inside a request (the job worker, on the first request) belongs to none. */
export const outsideRequestContext = <T>(run: () => T): T => shared.storage.exit(run)

/** Notes the route and the shopper on the current request and on the request it runs inside (the store's, for an in-process API call). */
export function describeRequest(facts: { route?: string; accountId?: string | null }) {
  for (let context = currentRequestContext(); context; context = context.parent) {
    if (facts.route && !context.route) context.route = facts.route
    if (facts.accountId && !context.accountId) context.accountId = facts.accountId
  }
}

/** A sane X-Request-Id: up to 128 letters, digits and - _ . : = (anything else is replaced by one of ours). */
export const REQUEST_ID_PATTERN = /^[A-Za-z0-9\-_.:=]{1,128}$/

/** The settings as LOG_LEVEL / LOG_FORMAT say (app.config.ts refuses other values at start-up). */
export function logSettings(env: Record<string, string | undefined> = process.env) {
  const level = (LOG_LEVELS as readonly string[]).includes(env.LOG_LEVEL ?? '') ? env.LOG_LEVEL! : env.NODE_ENV === 'test' ? 'warn' : 'info'
  const format = (LOG_FORMATS as readonly string[]).includes(env.LOG_FORMAT ?? '')
    ? (env.LOG_FORMAT as 'json' | 'pretty')
    : env.NODE_ENV === 'production'
      ? 'json'
      : 'pretty'
  return { level, format }
}

/** pino-pretty is a development dependency: without it (a production install), lines stay JSON. */
function prettyWriter(): ((line: string) => void) | null {
  try {
    const pretty = createRequire(import.meta.url)('pino-pretty') as { prettyFactory: (options: object) => (line: string) => string }
    const format = pretty.prettyFactory({ colorize: Boolean(process.stdout.isTTY), translateTime: 'HH:MM:ss.l', ignore: 'pid,hostname' })
    return (line) => process.stdout.write(format(line))
  } catch {
    return null
  }
}

function createLogger(): Logger {
  const { level, format } = logSettings()
  const pretty = format === 'pretty' ? prettyWriter() : null
  const destination = {
    write(line: string) {
      if (shared.listeners.size > 0) {
        const parsed = JSON.parse(line) as Record<string, unknown>
        for (const listener of shared.listeners) listener(parsed)
      }
      if (shared.silencing > 0) return
      if (pretty) pretty(line)
      else process.stdout.write(line)
    },
  }
  return pino(
    {
      level,
      base: { pid: process.pid },
      timestamp: pino.stdTimeFunctions.isoTime,
      // Every line inside a request or a job names the request.
      mixin: () => {
        const id = currentRequestId()
        return id ? { reqId: id } : {}
      },
      serializers: { err: pino.stdSerializers.err },
    },
    destination,
  )
}

/** The process's logger. `log.info({ ...fields }, 'message')`; an error goes as `{ err }` so its stack is kept. */
export function logger(): Logger {
  return (shared.logger ??= createLogger())
}

/**
 * Tests: hears every line as the object it was written as (whatever LOG_FORMAT prints); `silence` keeps
 * the lines off stdout meanwhile. Answers a function that stops it.
 */
export function onLogLine(listener: (line: Record<string, unknown>) => void, { silence = false } = {}) {
  shared.listeners.add(listener)
  if (silence) shared.silencing++
  return () => {
    if (shared.listeners.delete(listener) && silence) shared.silencing--
  }
}

/**
 * A client that went away mid-request: its request's signal aborted, or Node's `Error: aborted`
 * (ECONNRESET, from the request body's stream). An ECONNRESET from a call we made (Printify, SMTP) is a real error.
 */
export function isClientAbort(error: unknown, signal?: AbortSignal): boolean {
  if (signal?.aborted) return true
  return error instanceof Error && error.message === 'aborted' && (error as { code?: unknown }).code === 'ECONNRESET'
}
