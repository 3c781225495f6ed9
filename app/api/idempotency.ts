import { createHash } from 'node:crypto'
import { and, eq, isNull, lt } from 'drizzle-orm'
import type { Database } from './db/client'
import type { MiddlewareHandler } from 'hono'
import { IDEMPOTENCY_KEY_HEADER, IDEMPOTENT_REPLAY_HEADER } from '../contract/headers'
import { currentClientAddress } from './client-address'
import { idempotencyKeys } from './db/schema'
import { MAX_JSON_BODY_BYTES, readBodyCapped } from './endpoint'
import type { ApiDeps, ApiEnv } from './env'
import { AppError, dependencyUnavailable } from './errors'
import { enqueueJob, type JobHandlers } from './services/jobs'

/** How long a key's first answer is kept for repeats. */
export const IDEMPOTENCY_KEY_HOURS = 24
const KEY_SHAPE = /^[\x21-\x7e]{1,255}$/
const WRITES = new Set(['POST', 'PUT', 'PATCH', 'DELETE'])

/** Webhooks take no part: a delivery carries its provider's own event id, which the handler dedupes on. */
export const isWebhookPath = (path: string) => /^(\/v1)?\/webhooks\//.test(path)

/**
 * Whose a key is: the signed-in user's, or signed out the client's network address (the one rate limits key on),
 * so two signed-out clients sending the same key never get each other's answers (issue 42, item 10).
 */
const scopeOf = (userId: string | undefined) => userId ?? `client:${currentClientAddress()}`

/**
 * How a released or stored key is retried while the database is briefly gone: after 0.5 s, 1 s, 2 s, then every 5 s,
 * for about 10 minutes. Seconds apart, not a minute: until it is released, another instance answers the client's
 * retry 409 "still being processed" (the fault suite's PostgreSQL stop, issue 43).
 */
const KEY_RETRY_FIRST_MS = 500
const KEY_RETRY_MAX_MS = 5000
const KEY_RETRY_ATTEMPTS = 125

/**
 * The keys this process gave up whose release has not reached the database yet (it was gone when the attempt ended),
 * by scope and key: the client's retry reaching this process takes the key over at once instead of waiting for the
 * background release (issue 43, item 4).
 */
const releasing = new Set<string>()

/**
 * Runs `task` until it succeeds: now, then again in the background with a growing pause if the database did not
 * answer. Resolves when the first try is over either way (the request is not held up by an outage), with whether it
 * succeeded; `settled` resolves once it finally has, or has given up.
 */
function untilDone(what: string, task: () => Promise<unknown>): { first: Promise<boolean>; settled: Promise<void> } {
  let firstDone: (ok: boolean) => void = () => undefined
  const first = new Promise<boolean>((resolve) => (firstDone = resolve))
  const settled = (async () => {
    for (let attempt = 0, pause = KEY_RETRY_FIRST_MS; attempt < KEY_RETRY_ATTEMPTS; attempt++, pause = Math.min(pause * 2, KEY_RETRY_MAX_MS)) {
      try {
        await task()
        firstDone(attempt === 0)
        return
      } catch (error) {
        firstDone(false)
        if (attempt === 0)
          console.warn(`[idempotency] ${what} failed; trying again in the background: ${error instanceof Error ? error.message : String(error)}`)
        await new Promise((resolve) => setTimeout(resolve, pause).unref())
      }
    }
    console.error(`[idempotency] ${what} still failing after ${KEY_RETRY_ATTEMPTS} tries; the key stays held until it expires`)
  })()
  return { first, settled }
}

/**
 * A write sent again under the same Idempotency-Key gets the first answer and is applied once: the
 * server functions' retries (SPEC.md §8) rely on it when an answer was lost on the way back. Only JSON
 * (or empty) bodies take part; an answer that sets a cookie or failed on our side is not kept, so a
 * repeat of it runs again. A repeat while the first is still running is refused with 409.
 *
 * A write still running after IDEMPOTENT_WRITE_DEADLINE_SECONDS (a hung database or provider, issue 43) is answered
 * 503 and its key is released, so the client's retry is processed rather than refused 409 for as long as the hang
 * lasts. Should the first attempt still finish, its answer is kept under the key if no retry has claimed it by then,
 * so a retry after that is its replay, not a second write. A key whose release or answer cannot be written (the
 * database briefly gone) is retried in the background, never left held for a day.
 */
export const idempotency: MiddlewareHandler<ApiEnv> = async (c, next) => {
  const key = c.req.header(IDEMPOTENCY_KEY_HEADER)
  if (key === undefined || !WRITES.has(c.req.method) || isWebhookPath(c.req.path)) return next()
  if (!KEY_SHAPE.test(key)) throw new AppError('validation_failed', `${IDEMPOTENCY_KEY_HEADER} must be 1 to 255 printable characters`)
  const type = c.req.header('content-type') ?? ''
  if (type !== '' && !/^application\/json\b/i.test(type)) return next()

  const { db, now, config } = c.get('deps')
  const body = await readBodyCapped(c.req.raw.clone(), MAX_JSON_BODY_BYTES, `The request body is larger than ${MAX_JSON_BODY_BYTES / 1024 / 1024} MB`)
  const requestHash = createHash('sha256').update(`${c.req.method} ${c.req.path}\n`).update(body).digest('hex')
  const scope = scopeOf(c.get('user')?.id)
  const thisKey = and(eq(idempotencyKeys.scope, scope), eq(idempotencyKeys.key, key))
  const held = `${scope}\n${key}`
  /** When this attempt claimed the key: a release deletes that claim only, never a retry's newer one. */
  let claimedAt: Date | null = null
  const release = () => {
    const claim = claimedAt ? and(thisKey, eq(idempotencyKeys.createdAt, claimedAt), isNull(idempotencyKeys.status)) : thisKey
    releasing.add(held)
    const releasing_ = untilDone(`releasing Idempotency-Key ${key}`, () => db.delete(idempotencyKeys).where(claim))
    void releasing_.settled.finally(() => releasing.delete(held))
    return releasing_
  }

  /** Set when the deadline has passed: the client has its 503, and this attempt must not hold the key. */
  let late: { released: Promise<void> } | null = null
  /** Read through a call: the deadline sets it while `write` awaits, which TypeScript's narrowing cannot see. */
  const pastDeadline = () => late
  /** Where the attempt is: only a write still running gives its key up at the deadline (one being stored is done). */
  let phase = 'claiming' as 'claiming' | 'writing' | 'storing'

  const write = async (): Promise<Response | undefined> => {
    const expired = new Date(now().getTime() - IDEMPOTENCY_KEY_HOURS * 3600_000)
    await db.delete(idempotencyKeys).where(and(thisKey, lt(idempotencyKeys.createdAt, expired)))
    const claim = async () => {
      const at = now()
      const rows = await db
        .insert(idempotencyKeys)
        .values({ scope, key, requestHash, createdAt: at })
        .onConflictDoNothing()
        .returning({ key: idempotencyKeys.key })
      if (rows.length > 0) claimedAt = at
      return rows
    }
    let claimed = await claim()
    if (claimed.length === 0 && releasing.has(held)) {
      // An earlier attempt here gave the key up and its release is still waiting for the database: take it over.
      await db.delete(idempotencyKeys).where(and(thisKey, isNull(idempotencyKeys.status)))
      claimed = await claim()
    }

    if (claimed.length === 0) {
      const [first] = await db.select().from(idempotencyKeys).where(thisKey)
      if (!first) throw new AppError('conflict', 'A request with this Idempotency-Key is still being processed; try again shortly')
      if (first.requestHash !== requestHash) throw new AppError('rule_broken', 'This Idempotency-Key was used for a different request')
      if (first.status === null || first.body === null)
        throw new AppError('conflict', 'A request with this Idempotency-Key is still being processed; try again shortly')
      return new Response(first.body, {
        status: first.status,
        headers: { 'content-type': 'application/json', 'cache-control': 'no-store', [IDEMPOTENT_REPLAY_HEADER]: 'true' },
      })
    }
    // The claim came back after the deadline: the write is not started, and the key goes again.
    if (pastDeadline()) {
      await release().first
      return undefined
    }
    phase = 'writing'

    try {
      await next()
    } catch (error) {
      if (!pastDeadline()) await release().first
      throw error
    }
    // Past the deadline the context holds our 503; the handler's own answer is the one endpoint() left (ApiEnv).
    const answer = pastDeadline() ? c.get('answer') : c.res
    const keep =
      answer !== undefined &&
      answer.status < 500 &&
      answer.headers.getSetCookie().length === 0 &&
      /^application\/json\b/i.test(answer.headers.get('content-type') ?? '')
    const lateBy = pastDeadline()
    if (lateBy) {
      await lateBy.released
      // Kept only if no retry has claimed the key since: a retry from now on is this answer's replay.
      if (keep) {
        const text = await answer.clone().text()
        untilDone(`keeping the late answer of Idempotency-Key ${key}`, () =>
          db.insert(idempotencyKeys).values({ scope, key, requestHash, status: answer.status, body: text, createdAt: now() }).onConflictDoNothing(),
        )
      }
      return undefined
    }
    if (!keep) {
      await release().first
      return undefined
    }
    phase = 'storing'
    const text = await answer.clone().text()
    // The write is done: its answer is stored, in the background if the database has just gone.
    await untilDone(`keeping the answer of Idempotency-Key ${key}`, () => db.update(idempotencyKeys).set({ status: answer.status, body: text }).where(thisKey))
      .first
    return undefined
  }

  const work = write()
  let timer: NodeJS.Timeout | undefined
  const deadline = new Promise<'late'>((resolve) => {
    timer = setTimeout(() => resolve('late'), config.idempotentWriteDeadlineSeconds * 1000)
  })
  try {
    const outcome = await Promise.race([work, deadline])
    if (outcome !== 'late') return outcome
  } finally {
    clearTimeout(timer)
  }
  late = { released: phase === 'writing' ? release().settled : Promise.resolve() }
  // The attempt goes on without a client; whatever it ends in is settled above, and is no one's error now.
  work.catch(() => undefined)
  throw dependencyUnavailable('The store')
}

/** Deletes every key older than IDEMPOTENCY_KEY_HOURS (its answer is no longer replayed); answers how many went. */
export async function pruneIdempotencyKeys(db: Database, now: Date): Promise<number> {
  const expired = new Date(now.getTime() - IDEMPOTENCY_KEY_HOURS * 3600_000)
  const deleted = await db.delete(idempotencyKeys).where(lt(idempotencyKeys.createdAt, expired)).returning({ key: idempotencyKeys.key })
  return deleted.length
}

const PRUNE_JOB = 'prune-idempotency-keys'
/** One run an hour (its key is the UTC hour), however many processes drain: the table holds at most a day and an hour of keys. */
export const idempotencyPruneKey = (now: Date) => `${PRUNE_JOB}:${now.toISOString().slice(0, 13)}`

/** Enqueues this hour's prune (services/handlers.ts calls it before every drain; a second enqueue is a no-op). */
export async function scheduleIdempotencyPrune(deps: Pick<ApiDeps, 'db' | 'now'>) {
  await enqueueJob(deps.db, { kind: PRUNE_JOB, dedupeKey: idempotencyPruneKey(deps.now()), payload: {}, runAt: deps.now(), maxAttempts: 3 })
}

export const idempotencyJobs: JobHandlers = {
  [PRUNE_JOB]: {
    run: async (deps) => {
      await pruneIdempotencyKeys(deps.db, deps.now())
    },
  },
}
