import { createHash } from 'node:crypto'
import { and, eq, lt } from 'drizzle-orm'
import type { MiddlewareHandler } from 'hono'
import { IDEMPOTENCY_KEY_HEADER, IDEMPOTENT_REPLAY_HEADER } from '../contract/headers'
import { idempotencyKeys } from './db/schema'
import { MAX_JSON_BODY_BYTES, readBodyCapped } from './endpoint'
import type { ApiEnv } from './env'
import { AppError } from './errors'

/** How long a key's first answer is kept for repeats. */
export const IDEMPOTENCY_KEY_HOURS = 24
const KEY_SHAPE = /^[\x21-\x7e]{1,255}$/
const WRITES = new Set(['POST', 'PUT', 'PATCH', 'DELETE'])

/**
 * A write sent again under the same Idempotency-Key gets the first answer and is applied once: the
 * server functions' retries (SPEC.md §8) rely on it when an answer was lost on the way back. Only JSON
 * (or empty) bodies take part; an answer that sets a cookie or failed on our side is not kept, so a
 * repeat of it runs again. A repeat while the first is still running is refused with 409.
 */
export const idempotency: MiddlewareHandler<ApiEnv> = async (c, next) => {
  const key = c.req.header(IDEMPOTENCY_KEY_HEADER)
  if (key === undefined || !WRITES.has(c.req.method)) return next()
  if (!KEY_SHAPE.test(key)) throw new AppError('validation_failed', `${IDEMPOTENCY_KEY_HEADER} must be 1 to 255 printable characters`)
  const type = c.req.header('content-type') ?? ''
  if (type !== '' && !/^application\/json\b/i.test(type)) return next()

  const { db, now } = c.get('deps')
  const body = await readBodyCapped(c.req.raw.clone(), MAX_JSON_BODY_BYTES, `The request body is larger than ${MAX_JSON_BODY_BYTES / 1024 / 1024} MB`)
  const requestHash = createHash('sha256').update(`${c.req.method} ${c.req.path}\n`).update(body).digest('hex')
  const scope = c.get('user')?.id ?? 'anonymous'
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
