/**
 * The referral programme (issue 6; SPEC.md §2, §6, §7). Every user is an advocate with a stable code;
 * a friend who lands on its link remembers it (a cookie) and redeems it once signed in, getting
 * welcome credit on their ledger. Their first paid order approves the advocate's reward (checkout
 * fulfilment calls `approveReferralFor`); a job credits it after REWARD_HOLD_DAYS unless the order
 * was refunded meanwhile. Reward states: app/api/services/referral-states.ts.
 */
import { randomBytes } from 'node:crypto'
import { and, desc, eq, inArray } from 'drizzle-orm'
import {
  ADVOCATE_REWARD_CENTS,
  REDEMPTION_VALID_DAYS,
  REFERRAL_COOKIE_DAYS,
  REFERRED_CREDIT_CENTS,
  REWARD_HOLD_DAYS,
  type AdvocateRedemption,
  type AdvocateState,
  type ReferralInvite,
  type ReferredState,
  type RewardStatus,
} from '../../contract/referral'
import { canMoveReward, openRewardStatuses } from './referral-states'
import type { Database } from '../db/client'
import { checkoutSessions, orders, referralCodes, referralRedemptions, referralUserActions, users } from '../db/schema'
import type { ApiDeps, SessionUser } from '../env'
import { AppError, notFound } from '../errors'
import { enforceRateLimits, type RateLimitRule } from '../rate-limit'
import { appendEntry, balanceOf, creditGranted, debitUpTo, lockAccount, type Db } from './credit'
import { enqueueJob, type JobHandlers, type JobRow } from './jobs'
import { crashPoint } from '../crash-points'

type RedemptionRow = typeof referralRedemptions.$inferSelect

const DAY_MS = 24 * 3600_000

/** Bursts refused with 429 before anything is recorded (docs/decisions/010). */
export const referralRateLimits = {
  /** Redemption attempts from one network address (counts wrong codes too, so codes cannot be guessed). */
  redeemPerAddress: { name: 'redeem-address', limit: 10, windowMs: 3600_000, whenStoreDown: 'closed' },
  /** Redemptions of one advocate's code: a code posted on a coupon site stops paying out. */
  redeemPerAdvocate: { name: 'redeem-advocate', limit: 10, windowMs: 3600_000, whenStoreDown: 'closed' },
  /** Invite lookups (landing pages) from one address. */
  lookupPerAddress: { name: 'invite-lookup-address', limit: 120, windowMs: 3600_000, whenStoreDown: 'open' },
  /** User-action logs from one address (signed-out landing views included). */
  actionsPerAddress: { name: 'user-actions-address', limit: 300, windowMs: 3600_000, whenStoreDown: 'open' },
} satisfies Record<string, RateLimitRule>

// --- codes -------------------------------------------------------------------------------------------

/** Crockford base 32: no I, L, O or U, so a code read aloud or typed is not mistaken. */
const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ'

function randomCodePart(length: number) {
  const bytes = randomBytes(length)
  return Array.from(bytes, (b) => CROCKFORD[b & 31]).join('')
}

/** e.g. MAYA-7KQ3-XP9D: the first name (ASCII letters, at most 8) and 40 random bits. */
export function makeReferralCode(firstName: string) {
  const name =
    firstName
      .normalize('NFKD')
      .replace(/[^A-Za-z]/g, '')
      .toUpperCase()
      .slice(0, 8) || 'FRIEND'
  return `${name}-${randomCodePart(4)}-${randomCodePart(4)}`
}

/** The advocate's code, made once and then stable. */
export async function advocateCode(db: Database, user: SessionUser): Promise<string> {
  for (let attempt = 0; attempt < 5; attempt++) {
    const [existing] = await db.select({ code: referralCodes.code }).from(referralCodes).where(eq(referralCodes.userId, user.id))
    if (existing) return existing.code
    try {
      await db
        .insert(referralCodes)
        .values({ userId: user.id, code: makeReferralCode(user.firstName) })
        .onConflictDoNothing({ target: referralCodes.userId })
    } catch (error) {
      // A (one in a trillion) clash with another user's code: try another.
      if (!isUniqueViolation(error)) throw error
    }
  }
  throw new Error('could not make a referral code')
}

function isUniqueViolation(error: unknown): boolean {
  for (let e = error as { code?: string; cause?: unknown } | undefined; e; e = e.cause as typeof e) {
    if (e.code === '23505') return true
  }
  return false
}

type Advocate = { userId: string; code: string; firstName: string }

async function findAdvocate(db: Db, code: string): Promise<Advocate | null> {
  const [row] = await db
    .select({ userId: referralCodes.userId, code: referralCodes.code, firstName: users.firstName, disabled: referralCodes.disabled })
    .from(referralCodes)
    .innerJoin(users, eq(users.id, referralCodes.userId))
    .where(eq(referralCodes.code, code.toUpperCase()))
  return row && !row.disabled ? { userId: row.userId, code: row.code, firstName: row.firstName } : null
}

const inviteOf = (advocate: Advocate): ReferralInvite => ({
  code: advocate.code,
  advocateFirstName: advocate.firstName,
  referredCreditCents: REFERRED_CREDIT_CENTS,
  advocateRewardCents: ADVOCATE_REWARD_CENTS,
  rememberedDays: REFERRAL_COOKIE_DAYS,
})

const unknownCode = () => new AppError('not_found', 'This invite code is not valid. Ask your friend to send their link again.')

/** A landing page's invite; unknown and disabled codes are not found. `viewer`: who is signed in, if anyone. */
export async function lookupInvite(deps: ApiDeps, code: string, clientAddress: string, viewer: SessionUser | null = null): Promise<ReferralInvite> {
  await enforceRateLimits(deps.rateLimiter, [{ rule: referralRateLimits.lookupPerAddress, key: clientAddress }], deps.now())
  const advocate = await findAdvocate(deps.db, code)
  if (!advocate) throw unknownCode()
  // Her own invite: redeeming it is refused (redeemInvite), so the page must not offer it.
  return viewer?.id === advocate.userId ? { ...inviteOf(advocate), yours: true } : inviteOf(advocate)
}

// --- views -------------------------------------------------------------------------------------------

function advocateRedemptionView(row: RedemptionRow & { friendFirstName: string }): AdvocateRedemption {
  const iso = (d: Date | null) => d?.toISOString() ?? null
  return {
    id: row.id,
    status: row.status,
    friendFirstName: row.friendFirstName,
    rewardCents: row.rewardCents,
    redeemedAt: row.createdAt.toISOString(),
    expiresAt: row.expiresAt.toISOString(),
    approvedAt: iso(row.approvedAt),
    creditsAt: row.approvedAt && row.status !== 'voided' ? new Date(row.approvedAt.getTime() + REWARD_HOLD_DAYS * DAY_MS).toISOString() : null,
    creditedAt: iso(row.creditedAt),
    endedAt: iso(row.endedAt),
  }
}

async function redemptionsOfAdvocate(db: Database, advocateUserId: string, id?: string) {
  const rows = await db
    .select({ redemption: referralRedemptions, friendFirstName: users.firstName })
    .from(referralRedemptions)
    .innerJoin(users, eq(users.id, referralRedemptions.referredUserId))
    .where(and(eq(referralRedemptions.advocateUserId, advocateUserId), id ? eq(referralRedemptions.id, id) : undefined))
    .orderBy(desc(referralRedemptions.createdAt), desc(referralRedemptions.id))
  return rows.map((r) => advocateRedemptionView({ ...r.redemption, friendFirstName: r.friendFirstName }))
}

export async function advocateState(deps: ApiDeps, user: SessionUser): Promise<AdvocateState> {
  const code = await advocateCode(deps.db, user)
  const [redemptions, balance] = await Promise.all([redemptionsOfAdvocate(deps.db, user.id), balanceOf(deps.db, user.id)])
  const sum = (statuses: readonly RewardStatus[]) => redemptions.filter((r) => statuses.includes(r.status)).reduce((n, r) => n + r.rewardCents, 0)
  return {
    code,
    link: `${deps.config.publicUrl}/r/${code}`,
    advocateFirstName: user.firstName,
    referredCreditCents: REFERRED_CREDIT_CENTS,
    advocateRewardCents: ADVOCATE_REWARD_CENTS,
    earnedCents: sum(['credited']),
    pendingCents: sum(openRewardStatuses),
    balanceCents: balance,
    redemptions,
  }
}

/** One of the advocate's own redemptions; anyone else's is not found. */
export async function advocateRedemption(deps: ApiDeps, user: SessionUser, id: string) {
  const [redemption] = await redemptionsOfAdvocate(deps.db, user.id, id)
  if (!redemption) throw notFound('Redemption')
  return { code: await advocateCode(deps.db, user), redemption }
}

export async function referredState(deps: ApiDeps, user: SessionUser, rememberedCode: string | null): Promise<ReferredState> {
  const [row] = await deps.db
    .select({ redemption: referralRedemptions, advocateFirstName: users.firstName })
    .from(referralRedemptions)
    .innerJoin(users, eq(users.id, referralRedemptions.advocateUserId))
    .where(eq(referralRedemptions.referredUserId, user.id))
  const advocate = !row && rememberedCode ? await findAdvocate(deps.db, rememberedCode) : null
  return {
    redemption: row
      ? {
          id: row.redemption.id,
          status: row.redemption.status,
          code: row.redemption.code,
          advocateFirstName: row.advocateFirstName,
          creditCents: row.redemption.creditCents,
          redeemedAt: row.redemption.createdAt.toISOString(),
          expiresAt: row.redemption.expiresAt.toISOString(),
          timezone: row.redemption.timezone,
        }
      : null,
    invite: advocate && advocate.userId !== user.id ? inviteOf(advocate) : null,
    balanceCents: await balanceOf(deps.db, user.id),
  }
}

// --- redeeming ---------------------------------------------------------------------------------------

/**
 * The signed-in friend redeems the invite they landed on. Refused, with nothing recorded: no
 * remembered invite, an unknown or disabled code, bursts (per address, per advocate), their own code,
 * a second redemption, and a friend who has already paid for an order.
 */
export async function redeemInvite(
  deps: ApiDeps,
  user: SessionUser,
  input: { timezone: string; rememberedCode: string | null; clientAddress: string },
): Promise<ReferredState> {
  const now = deps.now()
  await enforceRateLimits(deps.rateLimiter, [{ rule: referralRateLimits.redeemPerAddress, key: input.clientAddress }], now)
  if (!input.rememberedCode) {
    throw new AppError('rule_broken', 'There is no invite to redeem: open the invite link your friend sent you, then come back here.')
  }
  const advocate = await findAdvocate(deps.db, input.rememberedCode)
  if (!advocate) throw unknownCode()
  if (advocate.userId === user.id) throw new AppError('rule_broken', 'This is your own invite. Share it with another family; invites are for friends.')

  try {
    await deps.db.transaction(async (tx) => {
      // One friend's redemptions queue here, so of many at once exactly one is made.
      await lockAccount(tx, user.id)
      const [existing] = await tx.select({ id: referralRedemptions.id }).from(referralRedemptions).where(eq(referralRedemptions.referredUserId, user.id))
      if (existing) throw alreadyRedeemed()
      const [paid] = await tx.select({ id: orders.id }).from(orders).where(eq(orders.userId, user.id)).limit(1)
      if (paid) throw new AppError('rule_broken', 'Invites are for a family’s first order, and you have already ordered from Keepsake.')
      // Only a redemption that would be made counts against the advocate's code: refused attempts
      // (their own, repeats, families who have ordered) must not let anyone use up a code's hour.
      await enforceRateLimits(deps.rateLimiter, [{ rule: referralRateLimits.redeemPerAdvocate, key: advocate.userId }], now)
      const expiresAt = new Date(now.getTime() + REDEMPTION_VALID_DAYS * DAY_MS)
      const [row] = await tx
        .insert(referralRedemptions)
        .values({
          advocateUserId: advocate.userId,
          referredUserId: user.id,
          code: advocate.code,
          creditCents: REFERRED_CREDIT_CENTS,
          rewardCents: ADVOCATE_REWARD_CENTS,
          timezone: input.timezone,
          expiresAt,
          createdAt: now,
          updatedAt: now,
        })
        .returning()
      await appendEntry(tx, { userId: user.id, amountCents: REFERRED_CREDIT_CENTS, reason: 'referral_welcome', reference: `redemption:${row!.id}`, at: now })
      await enqueueJob(tx, { kind: 'expire-referral', dedupeKey: `expire-referral:${row!.id}`, payload: { redemptionId: row!.id }, runAt: expiresAt })
    })
  } catch (error) {
    if (isUniqueViolation(error)) throw alreadyRedeemed()
    throw error
  }
  await creditGranted(deps, user.id)
  return referredState(deps, user, null)
}

const alreadyRedeemed = () => new AppError('conflict', 'You have already redeemed an invite; your credit is waiting for your first order.')

// --- the reward's life -------------------------------------------------------------------------------

async function moveReward(tx: Db, row: RedemptionRow, to: RewardStatus, set: Partial<typeof referralRedemptions.$inferInsert>, now: Date) {
  if (!canMoveReward(row.status, to)) return null
  const [moved] = await tx
    .update(referralRedemptions)
    .set({ ...set, status: to, updatedAt: now })
    .where(and(eq(referralRedemptions.id, row.id), eq(referralRedemptions.status, row.status)))
    .returning()
  return moved ?? null
}

/**
 * From checkout fulfilment (same transaction, the friend's account locked): the friend's first paid
 * order approves the reward. What counts is when the checkout began: the expiry waits for a checkout
 * that holds the welcome credit, so one begun in time and paid after the expiry still approves.
 */
export async function approveReferralFor(tx: Db, referredUserId: string, order: { id: string; checkoutStartedAt: Date }, now: Date) {
  const [row] = await tx.select().from(referralRedemptions).where(eq(referralRedemptions.referredUserId, referredUserId)).for('update')
  if (!row || row.status !== 'pending' || row.expiresAt <= order.checkoutStartedAt) return
  const orderId = order.id
  const moved = await moveReward(tx, row, 'approved', { orderId, approvedAt: now }, now)
  if (!moved) return
  await enqueueJob(tx, {
    kind: 'credit-referral-reward',
    dedupeKey: `credit-referral-reward:${row.id}`,
    payload: { redemptionId: row.id },
    runAt: new Date(now.getTime() + REWARD_HOLD_DAYS * DAY_MS),
  })
}

/** From a refund (same transaction): a reward the order approved, not yet credited, is voided. */
export async function voidRewardForOrder(tx: Db, orderId: string, now: Date) {
  const [row] = await tx.select().from(referralRedemptions).where(eq(referralRedemptions.orderId, orderId)).for('update')
  if (row) await moveReward(tx, row, 'voided', { endedAt: now }, now)
}

async function lockRedemption(tx: Db, job: JobRow) {
  const id = String(job.payload.redemptionId ?? '')
  const [row] = /^[0-9a-f-]{36}$/.test(id) ? await tx.select().from(referralRedemptions).where(eq(referralRedemptions.id, id)).for('update') : []
  return row ?? null
}

/** After the hold: the approved reward lands on the advocate's ledger, once. */
async function creditReward(deps: ApiDeps, job: JobRow) {
  const credited = await deps.db.transaction(async (tx) => {
    const row = await lockRedemption(tx, job)
    if (!row || row.status !== 'approved') return
    const now = deps.now()
    const [order] = row.orderId ? await tx.select({ status: orders.status }).from(orders).where(eq(orders.id, row.orderId)) : []
    if (order?.status === 'refunded') {
      await moveReward(tx, row, 'voided', { endedAt: now }, now)
      return
    }
    if (order?.status === 'submission_failed' || order?.status === 'canceled') {
      // Not printed yet (or canceled by the printer): support either sends it again or refunds it. Ask again tomorrow.
      const tomorrow = new Date(now.getTime() + DAY_MS)
      await enqueueJob(tx, {
        kind: 'credit-referral-reward',
        dedupeKey: `credit-referral-reward:${row.id}:${tomorrow.toISOString().slice(0, 10)}`,
        payload: { redemptionId: row.id },
        runAt: tomorrow,
      })
      return
    }
    const moved = await moveReward(tx, row, 'credited', { creditedAt: now }, now)
    if (!moved) return
    await lockAccount(tx, row.advocateUserId)
    await appendEntry(tx, { userId: row.advocateUserId, amountCents: row.rewardCents, reason: 'referral_reward', reference: `redemption:${row.id}`, at: now })
    await crashPoint('credit-referral-reward:before-commit')
    return row.advocateUserId
  })
  if (credited) await creditGranted(deps, credited)
}

/**
 * At the redemption's expiry: a friend who never paid for an order loses the welcome credit (what is
 * left of it). While a checkout holds their credit the expiry waits for that checkout to end.
 */
async function expireRedemption(deps: ApiDeps, job: JobRow) {
  await deps.db.transaction(async (tx) => {
    const row = await lockRedemption(tx, job)
    if (!row || row.status !== 'pending') return
    const now = deps.now()
    if (row.expiresAt > now) return
    const [holding] = await tx
      .select({ id: checkoutSessions.id, expiresAt: checkoutSessions.expiresAt })
      .from(checkoutSessions)
      .where(
        and(
          eq(checkoutSessions.userId, row.referredUserId),
          eq(checkoutSessions.creditStatus, 'reserved'),
          inArray(checkoutSessions.status, ['open', 'processing']),
        ),
      )
      .limit(1)
    if (holding) {
      const later = new Date(Math.max(holding.expiresAt.getTime(), now.getTime()) + 60_000)
      await enqueueJob(tx, { kind: 'expire-referral', dedupeKey: `expire-referral:${row.id}:${holding.id}`, payload: { redemptionId: row.id }, runAt: later })
      return
    }
    const moved = await moveReward(tx, row, 'expired', { endedAt: now }, now)
    if (!moved) return
    await lockAccount(tx, row.referredUserId)
    await debitUpTo(tx, { userId: row.referredUserId, cents: row.creditCents, reason: 'referral_welcome_lapsed', reference: `redemption:${row.id}`, at: now })
  })
}

export const referralJobs: JobHandlers = {
  'credit-referral-reward': { run: creditReward },
  'expire-referral': { run: expireRedemption },
}

// --- user-action logs --------------------------------------------------------------------------------

export async function recordUserAction(
  deps: ApiDeps,
  entry: {
    role: 'advocate' | 'referred' | 'general'
    action: string
    metadata: Record<string, string | number | boolean | null>
    user: SessionUser | null
    code: string | null
    clientAddress: string
  },
) {
  await enforceRateLimits(deps.rateLimiter, [{ rule: referralRateLimits.actionsPerAddress, key: entry.clientAddress }], deps.now())
  const [row] = await deps.db
    .insert(referralUserActions)
    .values({ role: entry.role, action: entry.action, metadata: entry.metadata, userId: entry.user?.id ?? null, code: entry.code, createdAt: deps.now() })
    .returning({ id: referralUserActions.id })
  return { recorded: true as const, id: row!.id }
}

/** Admin and tests: codes can be switched off (abuse); their existing rewards stand. */
export async function setCodeDisabled(db: Database, code: string, disabled: boolean) {
  const updated = await db.update(referralCodes).set({ disabled }).where(eq(referralCodes.code, code.toUpperCase())).returning()
  return updated.length > 0
}
