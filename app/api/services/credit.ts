/**
 * Store credit (issue 6): an append-only ledger whose sum is the balance. Every write happens inside
 * a transaction that first locks the user's row (`lockAccount`), so two writers never both see the
 * same balance; debits are sized by their callers so a balance never goes below zero, and
 * (user, reason, reference) is unique, so the same event written twice counts once.
 *
 * Checkout holds credit in three steps: reserved (a debit when the session is priced), then spent (the
 * session is fulfilled; nothing more moves) or released (a credit back when it expires, fails or is
 * cancelled). The session's `credit_status` records which, and moves only forward.
 */
import { and, desc, eq, sql } from 'drizzle-orm'
import type { CreditReason, StoreCredit } from '../../contract/referral'
import type { Database } from '../db/client'
import type { ApiDeps } from '../env'
import { checkoutSessions, creditEntries, users } from '../db/schema'

type Tx = Parameters<Parameters<Database['transaction']>[0]>[0]
export type Db = Database | Tx

/** Holds the user's row until the transaction ends; every ledger write for that user waits here. */
export async function lockAccount(tx: Db, userId: string) {
  await tx.select({ id: users.id }).from(users).where(eq(users.id, userId)).for('no key update')
}

export async function balanceOf(db: Db, userId: string): Promise<number> {
  const [row] = await db
    .select({ balance: sql<string>`coalesce(sum(${creditEntries.amountCents}), 0)` })
    .from(creditEntries)
    .where(eq(creditEntries.userId, userId))
  return Number(row?.balance ?? 0)
}

export class LedgerError extends Error {}

/**
 * Appends one entry (the caller holds `lockAccount`). A debit larger than the balance is a bug in the
 * caller and throws; the same (reason, reference) again writes nothing and answers false.
 */
export async function appendEntry(tx: Db, entry: { userId: string; amountCents: number; reason: CreditReason; reference: string; at: Date }): Promise<boolean> {
  if (!Number.isInteger(entry.amountCents) || entry.amountCents === 0) throw new LedgerError(`A ledger entry must be a non-zero whole number of cents`)
  if (entry.amountCents < 0) {
    const balance = await balanceOf(tx, entry.userId)
    if (balance + entry.amountCents < 0) throw new LedgerError(`A debit of ${-entry.amountCents} cents exceeds the balance of ${balance} cents`)
  }
  const written = await tx
    .insert(creditEntries)
    .values({ userId: entry.userId, amountCents: entry.amountCents, reason: entry.reason, reference: entry.reference, createdAt: entry.at })
    .onConflictDoNothing()
    .returning({ id: creditEntries.id })
  return written.length > 0
}

/** Debits up to `cents`, as much as the balance allows; answers what was taken. */
export async function debitUpTo(tx: Db, entry: { userId: string; cents: number; reason: CreditReason; reference: string; at: Date }) {
  const take = Math.min(entry.cents, await balanceOf(tx, entry.userId))
  if (take <= 0) return 0
  return (await appendEntry(tx, { ...entry, amountCents: -take })) ? take : 0
}

/** What happens when a user's credit grew (checkout.ts closes a checkout priced before it; services/handlers.ts registers it). */
export type CreditGrantedHandler = (deps: ApiDeps, userId: string) => Promise<void>
let creditGrantedHandler: CreditGrantedHandler | null = null

/** Start-up (services/handlers.ts); a second call replaces the first. */
export function registerCreditGranted(handler: CreditGrantedHandler) {
  creditGrantedHandler = handler
}

/**
 * Called once a transaction that added to the user's credit (a gift redeemed, a referral's credit, a
 * refund) has committed: a checkout priced before it would charge more than the cart now does.
 */
export async function creditGranted(deps: ApiDeps, userId: string) {
  if (!creditGrantedHandler) throw new Error('No handler for granted credit: createApi registers it (services/handlers.ts)')
  await creditGrantedHandler(deps, userId)
}

export async function storeCredit(db: Database, userId: string, { limit = 50 } = {}): Promise<StoreCredit> {
  const [balance, rows] = await Promise.all([
    balanceOf(db, userId),
    db.select().from(creditEntries).where(eq(creditEntries.userId, userId)).orderBy(desc(creditEntries.id)).limit(limit),
  ])
  return {
    balanceCents: balance,
    entries: rows.map((r) => ({ id: r.id, amountCents: r.amountCents, reason: r.reason, reference: r.reference, createdAt: r.createdAt.toISOString() })),
  }
}

const checkoutReference = (sessionId: string) => `checkout:${sessionId}`

/**
 * The credit a checkout of this cart may use: the balance, and what the cart's open checkout holds (a new
 * checkout replaces that one and takes its credit over). The cart's totals and the checkout that replaces
 * its open one are both priced with this, so the total the cart shows is the one a checkout charges.
 */
export async function creditForCart(db: Db, userId: string, cartId: string): Promise<number> {
  const held = await db
    .select({ totals: checkoutSessions.totals })
    .from(checkoutSessions)
    .where(and(eq(checkoutSessions.cartId, cartId), eq(checkoutSessions.status, 'open'), eq(checkoutSessions.creditStatus, 'reserved')))
  return (await balanceOf(db, userId)) + held.reduce((sum, row) => sum + row.totals.creditsCents, 0)
}

/** A session's credit, as it is priced (inside its transaction, session row and account locked): held from the balance. */
export async function reserveCredit(tx: Db, session: { id: string; userId: string; creditsCents: number }, at: Date) {
  if (session.creditsCents <= 0) return
  await tx.update(checkoutSessions).set({ creditStatus: 'reserved' }).where(eq(checkoutSessions.id, session.id))
  await appendEntry(tx, {
    userId: session.userId,
    amountCents: -session.creditsCents,
    reason: 'checkout_reserved',
    reference: checkoutReference(session.id),
    at,
  })
}

type SessionRow = typeof checkoutSessions.$inferSelect

export async function lockSession(tx: Db, sessionId: string) {
  const [row] = await tx.select().from(checkoutSessions).where(eq(checkoutSessions.id, sessionId)).for('update')
  return row
}

/** The session expired, failed or was cancelled: its held credit goes back, once. */
export async function releaseCredit(db: Database, sessionId: string, at: Date) {
  await db.transaction(async (tx) => {
    const row = await lockSession(tx, sessionId)
    if (!row || row.creditStatus !== 'reserved') return
    await lockAccount(tx, row.userId)
    await tx.update(checkoutSessions).set({ creditStatus: 'released' }).where(eq(checkoutSessions.id, row.id))
    await appendEntry(tx, { userId: row.userId, amountCents: row.totals.creditsCents, reason: 'checkout_released', reference: checkoutReference(row.id), at })
  })
}

/**
 * The session was paid (inside fulfilment's transaction, session row locked): its held credit is
 * spent. A session paid after its credit was released (a provider-confirmed late payment) takes the
 * credit again, as much as the balance still holds.
 */
export async function spendCredit(tx: Db, row: SessionRow, at: Date) {
  if (row.creditStatus === 'reserved') {
    await tx
      .update(checkoutSessions)
      .set({ creditStatus: 'spent' })
      .where(and(eq(checkoutSessions.id, row.id), eq(checkoutSessions.creditStatus, 'reserved')))
  } else if (row.creditStatus === 'released') {
    await lockAccount(tx, row.userId)
    await debitUpTo(tx, { userId: row.userId, cents: row.totals.creditsCents, reason: 'checkout_settled_late', reference: checkoutReference(row.id), at })
    await tx.update(checkoutSessions).set({ creditStatus: 'spent' }).where(eq(checkoutSessions.id, row.id))
  }
}

/** A refunded order gives back the credit it spent (once per order). */
export async function restoreCreditForRefund(tx: Db, session: SessionRow, orderId: string, at: Date) {
  if (session.creditStatus !== 'spent') return
  await lockAccount(tx, session.userId)
  // What the session actually took, from the ledger: reserved, less anything released, plus a late settlement.
  const [row] = await tx
    .select({ net: sql<string>`coalesce(sum(${creditEntries.amountCents}), 0)` })
    .from(creditEntries)
    .where(and(eq(creditEntries.userId, session.userId), eq(creditEntries.reference, checkoutReference(session.id))))
  const spent = -Number(row?.net ?? 0)
  if (spent > 0) await appendEntry(tx, { userId: session.userId, amountCents: spent, reason: 'refund_restored', reference: `order:${orderId}`, at })
}
