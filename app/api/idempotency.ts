import { createHash } from 'node:crypto'
import { and, eq, lt } from 'drizzle-orm'
import type { Database } from './db/client'
import type { MiddlewareHandler } from 'hono'
import { IDEMPOTENCY_KEY_HEADER, IDEMPOTENT_REPLAY_HEADER } from '../contract/headers'
import { currentClientAddress } from './client-address'
import { idempotencyKeys } from './db/schema'
import { MAX_JSON_BODY_BYTES, readBodyCapped } from './endpoint'
import type { ApiDeps, ApiEnv } from './env'
import { AppError } from './errors'
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
 * A write sent again under the same Idempotency-Key gets the first answer and is applied once: the
 * server functions' retries (SPEC.md §8) rely on it when an answer was lost on the way back. Only JSON
 * (or empty) bodies take part; an answer that sets a cookie or failed on our side is not kept, so a
 * repeat of it runs again. A repeat while the first is still running is refused with 409.
 */
export const idempotency: MiddlewareHandler<ApiEnv> = async (c, next) => {
  const key = c.req.header(IDEMPOTENCY_KEY_HEADER)
  if (key === undefined || !WRITES.has(c.req.method) || isWebhookPath(c.req.path)) return next()
  if (!KEY_SHAPE.test(key)) throw new AppError('validation_failed', `${IDEMPOTENCY_KEY_HEADER} must be 1 to 255 printable characters`)
  const type = c.req.header('content-type') ?? ''
  if (type !== '' && !/^application\/json\b/i.test(type)) return next()

  const { db, now } = c.get('deps')
  const body = await readBodyCapped(c.req.raw.clone(), MAX_JSON_BODY_BYTES, `The request body is larger than ${MAX_JSON_BODY_BYTES / 1024 / 1024} MB`)
  const requestHash = createHash('sha256').update(`${c.req.method} ${c.req.path}\n`).update(body).digest('hex')
  const scope = scopeOf(c.get('user')?.id)
  const expired = new Date(now().getTime() - IDEMPOTENCY_KEY_HOURS * 3600_000)
  await db.delete(idempotencyKeys).where(and(eq(idempotencyKeys.scope, scope), eq(idempotencyKeys.key, key), lt(idempotencyKeys.createdAt, expired)))
  const claimed = await db
    .insert(idempotencyKeys)
    .values({ scope, key, requestHash, createdAt: now() })
    .onConflictDoNothing()
    .returning({ key: idempotencyKeys.key })

  if (claimed.length === 0) {
    const [first] = await db
      .select()
      .from(idempotencyKeys)
      .where(and(eq(idempotencyKeys.scope, scope), eq(idempotencyKeys.key, key)))
    if (!first) throw new AppError('conflict', 'A request with this Idempotency-Key is still being processed; try again shortly')
    if (first.requestHash !== requestHash) throw new AppError('rule_broken', 'This Idempotency-Key was used for a different request')
    if (first.status === null || first.body === null)
      throw new AppError('conflict', 'A request with this Idempotency-Key is still being processed; try again shortly')
    return new Response(first.body, {
      status: first.status,
      headers: { 'content-type': 'application/json', 'cache-control': 'no-store', [IDEMPOTENT_REPLAY_HEADER]: 'true' },
    })
  }

  const release = () => db.delete(idempotencyKeys).where(and(eq(idempotencyKeys.scope, scope), eq(idempotencyKeys.key, key)))
  try {
    await next()
  } catch (error) {
    await release()
    throw error
  }
  const answer = c.res
  const keep = answer.status < 500 && answer.headers.getSetCookie().length === 0 && /^application\/json\b/i.test(answer.headers.get('content-type') ?? '')
  if (!keep) {
    await release()
    return
  }
  const text = await answer.clone().text()
  await db
    .update(idempotencyKeys)
    .set({ status: answer.status, body: text })
    .where(and(eq(idempotencyKeys.scope, scope), eq(idempotencyKeys.key, key)))
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
