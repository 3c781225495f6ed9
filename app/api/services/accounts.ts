import { createHash, randomBytes } from 'node:crypto'
import { and, eq, gt, isNull } from 'drizzle-orm'
import type { Database } from '../db/client'
import { sessions, signInLinks, transitionTokens, users } from '../db/schema'
import type { SessionUser } from '../env'
import { SESSION_TTL_DAYS } from '../../catalogue/retention-terms'

export const SESSION_TTL_MS = SESSION_TTL_DAYS * 24 * 60 * 60 * 1000
export const TRANSITION_TOKEN_TTL_MS = 5 * 60 * 1000

const newSecret = () => randomBytes(32).toString('base64url')
export const hashSecret = (secret: string) => createHash('sha256').update(secret).digest('hex')

export async function createSession(db: Database, userId: string, now: Date) {
  const token = newSecret()
  const expiresAt = new Date(now.getTime() + SESSION_TTL_MS)
  await db.insert(sessions).values({ id: hashSecret(token), userId, createdAt: now, expiresAt })
  return { token, expiresAt }
}

export async function findSessionUser(db: Database, token: string, now: Date): Promise<SessionUser | null> {
  const [row] = await db
    .select({ id: users.id, email: users.email, firstName: users.firstName, lastName: users.lastName })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(and(eq(sessions.id, hashSecret(token)), gt(sessions.expiresAt, now)))
    .limit(1)
  return row ?? null
}

export async function findUser(db: Database, userId: string): Promise<SessionUser | null> {
  const [row] = await db
    .select({ id: users.id, email: users.email, firstName: users.firstName, lastName: users.lastName })
    .from(users)
    .where(eq(users.id, userId))
    .limit(1)
  return row ?? null
}

export async function endSession(db: Database, token: string) {
  await db.delete(sessions).where(eq(sessions.id, hashSecret(token)))
}

/** A one-time code for the signed-in user; only its hash is stored. */
export async function issueTransitionToken(db: Database, userId: string, now: Date) {
  const code = newSecret()
  const expiresAt = new Date(now.getTime() + TRANSITION_TOKEN_TTL_MS)
  await db.insert(transitionTokens).values({ codeHash: hashSecret(code), userId, createdAt: now, expiresAt })
  return { code, expiresAt }
}

/** Spends a code exactly once, even under concurrent redemption; null when unknown, used or expired. */
export async function redeemTransitionToken(db: Database, code: string, now: Date): Promise<string | null> {
  const [row] = await db
    .update(transitionTokens)
    .set({ usedAt: now })
    .where(and(eq(transitionTokens.codeHash, hashSecret(code)), isNull(transitionTokens.usedAt), gt(transitionTokens.expiresAt, now)))
    .returning({ userId: transitionTokens.userId })
  return row?.userId ?? null
}

/**
 * Sign out everywhere: every session of the user ends, on every browser and device, and so does every
 * way in issued before it and not yet spent — e-mailed sign-in links and the app's transition codes
 * (issue 29, bug 3). A link asked for afterwards works as usual. Answers how many sessions ended.
 */
export async function endAllSessions(db: Database, userId: string) {
  return db.transaction(async (tx) => {
    await tx.delete(signInLinks).where(and(eq(signInLinks.userId, userId), isNull(signInLinks.usedAt)))
    await tx.delete(transitionTokens).where(and(eq(transitionTokens.userId, userId), isNull(transitionTokens.usedAt)))
    const ended = await tx.delete(sessions).where(eq(sessions.userId, userId)).returning({ id: sessions.id })
    return ended.length
  })
}
