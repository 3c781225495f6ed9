/**
 * E-gifts (issue 7). A purchase is an `egifts` row plus a checkout session of purpose 'egift', paid
 * through the configured payment provider like a cart. Fulfilment of that session (checkout.ts,
 * exactly once, session row locked, through `egiftCheckout`) issues the code and schedules the
 * recipient's e-mail; redeeming locks the gift's row, so of any number of simultaneous redemptions
 * exactly one writes credit. Checkout and mail reach this module only through the handlers that
 * services/handlers.ts registers (`egiftCheckout`, `markEgiftEmailed`), never by an import.
 */
import { createHash, randomBytes, randomUUID } from 'node:crypto'
import { and, desc, eq, inArray } from 'drizzle-orm'
import { EGIFT_MAX_SEND_DAYS, EGIFT_VALID_YEARS, type EgiftPurchase, type EgiftRedemption, type egiftPurchaseRequestSchema } from '../../contract/egifts'
import type { CheckoutLine } from '../../contract/cart'
import { formatCents } from '../../catalogue/currency'
import type { z } from '../../contract/zod'
import type { Database } from '../db/client'
import { checkoutSessions, egifts } from '../db/schema'
import type { ApiDeps, SessionUser } from '../env'
import { AppError, notFound } from '../errors'
import { PaymentProviderError } from '../providers/payments/provider'
import { enforceRateLimits, type RateLimitRule } from '../rate-limit'
import { dateIn } from './album'
import { CHECKOUT_SESSION_MINUTES, getCheckoutSession, type CheckoutPurposeHandler } from './checkout'
import { appendEntry, balanceOf, creditGranted, lockAccount, type Db } from './credit'
import { escapeHtml, queueEmail } from './mail'

type EgiftRow = typeof egifts.$inferSelect
type PurchaseInput = z.output<typeof egiftPurchaseRequestSchema>

export const egiftRateLimits = {
  /** Purchases started by one shopper (each makes a payment session). */
  purchasesPerUser: { name: 'egift-purchase-user', limit: 20, windowMs: 3600_000, whenStoreDown: 'open' },
  /** Redemption attempts from one network address; wrong codes count, so codes cannot be guessed. */
  redeemPerAddress: { name: 'egift-redeem-address', limit: 10, windowMs: 3600_000, whenStoreDown: 'closed' },
  /** Redemption attempts by one signed-in shopper, from any address. */
  redeemPerUser: { name: 'egift-redeem-user', limit: 10, windowMs: 3600_000, whenStoreDown: 'closed' },
} satisfies Record<string, RateLimitRule>

const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ'

/** KEEP-XXXX-XXXX-XXXX from 60 random bits. */
export function newEgiftCode(): string {
  const bytes = randomBytes(8)
  let bits = bytes.readBigUInt64BE() >> 4n
  let chars = ''
  for (let i = 0; i < 12; i++) {
    chars = CROCKFORD[Number(bits & 31n)] + chars
    bits >>= 5n
  }
  return `KEEP-${chars.slice(0, 4)}-${chars.slice(4, 8)}-${chars.slice(8)}`
}

/** Only this is stored: a leaked table does not hand out spendable codes. */
export const hashEgiftCode = (code: string) => createHash('sha256').update(`keepsake-egift:${code}`).digest('hex')

/** The UTC instant at which it is `hour`:00 on `date` (YYYY-MM-DD) in `timezone`. */
export function instantAt(date: string, hour: number, timezone: string): Date {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number]
  const wanted = Date.UTC(y, m - 1, d, hour)
  let guess = wanted
  for (let i = 0; i < 2; i++) {
    const parts = Object.fromEntries(
      new Intl.DateTimeFormat('en-US', {
        timeZone: timezone,
        hourCycle: 'h23',
        year: 'numeric',
        month: '2-digit',
        day: '2-digit',
        hour: '2-digit',
        minute: '2-digit',
      })
        .formatToParts(new Date(guess))
        .map((p) => [p.type, p.value]),
    )
    const local = Date.UTC(Number(parts.year), Number(parts.month) - 1, Number(parts.day), Number(parts.hour), Number(parts.minute))
    guess += wanted - local
  }
  return new Date(guess)
}

/** Scheduled gifts go out at 9 in the morning of the chosen day, in the buyer's time zone. */
export const EGIFT_SEND_HOUR = 9

function addDays(date: string, days: number) {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number]
  return new Date(Date.UTC(y, m - 1, d + days)).toISOString().slice(0, 10)
}

function isRealDate(date: string) {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number]
  const made = new Date(Date.UTC(y, m - 1, d))
  return made.getUTCFullYear() === y && made.getUTCMonth() === m - 1 && made.getUTCDate() === d
}

/** The send day as stored: null for "as soon as it is paid" (absent, or today). */
function sendDayOf(sendOn: string | null, timezone: string, now: Date): string | null {
  if (sendOn === null) return null
  const today = dateIn(timezone, now)
  const issue = (message: string) => new AppError('validation_failed', message, [{ path: 'body.sendOn', message }])
  if (!isRealDate(sendOn)) throw issue('Choose a real date')
  if (sendOn < today) throw issue('Choose today or a day in the future')
  if (sendOn > addDays(today, EGIFT_MAX_SEND_DAYS)) throw issue(`Choose a day within the next ${EGIFT_MAX_SEND_DAYS} days`)
  return sendOn === today ? null : sendOn
}

export function egiftView(row: EgiftRow, checkoutUrl: string | null): EgiftPurchase {
  return {
    id: row.id,
    status: row.status,
    amountCents: row.amountCents,
    recipientName: row.recipientName,
    recipientEmail: row.recipientEmail,
    senderName: row.senderName,
    message: row.message,
    sendOn: row.sendOn,
    checkoutSessionId: row.checkoutSessionId,
    checkoutUrl: row.status === 'awaiting_payment' ? checkoutUrl : null,
    emailedAt: row.emailedAt?.toISOString() ?? null,
    redeemedAt: row.redeemedAt?.toISOString() ?? null,
    expiresAt: row.expiresAt?.toISOString() ?? null,
    createdAt: row.createdAt.toISOString(),
  }
}

const providerFailed = (error: unknown): never => {
  if (error instanceof PaymentProviderError) throw new AppError('provider_failed', `The payment provider could not be reached: ${error.message}`)
  throw error
}

/** POST /v1/egifts/purchases: the gift and its payment session; the shopper goes to `checkoutUrl` to pay. */
export async function createEgiftPurchase(deps: ApiDeps, user: SessionUser, input: PurchaseInput, timezone: string): Promise<EgiftPurchase> {
  const now = deps.now()
  const sendOn = sendDayOf(input.sendOn, timezone, now)
  await enforceRateLimits(deps.rateLimiter, [{ rule: egiftRateLimits.purchasesPerUser, key: user.id }], now)
  const id = randomUUID()
  const sessionId = randomUUID()
  const expiresAt = new Date(now.getTime() + CHECKOUT_SESSION_MINUTES * 60_000)
  const base = deps.config.publicUrl
  const line: CheckoutLine = {
    cartItemId: id,
    title: `Keepsake e-gift for ${input.recipientName}`,
    variantId: 0,
    quantity: 1,
    unitAmountCents: input.amountCents,
    unitListAmountCents: input.amountCents,
    previewCdnUrl: `${base}/egifts/egift-card.svg`,
  }
  const totals = {
    currency: 'usd' as const,
    itemCount: 1,
    subtotalCents: input.amountCents,
    saleSavingsCents: 0,
    shippingCents: 0,
    creditsCents: 0,
    totalCents: input.amountCents,
    freeShippingRemainingCents: 0,
  }
  await deps.db.transaction(async (tx) => {
    await tx.insert(checkoutSessions).values({
      id: sessionId,
      purpose: 'egift',
      userId: user.id,
      cartId: null,
      provider: deps.payments.name,
      lines: [line],
      previewIds: {},
      totals: totals as typeof checkoutSessions.$inferInsert.totals,
      expiresAt,
      createdAt: now,
      updatedAt: now,
    })
    await tx.insert(egifts).values({
      id,
      purchaserId: user.id,
      checkoutSessionId: sessionId,
      amountCents: input.amountCents,
      recipientName: input.recipientName,
      recipientEmail: input.recipientEmail,
      senderName: input.senderName,
      message: input.message,
      sendOn,
      timezone,
      createdAt: now,
      updatedAt: now,
    })
  })

  let made
  try {
    made = await deps.payments.createSession({
      checkoutSessionId: sessionId,
      cartId: id,
      customerEmail: user.email,
      lines: [{ name: line.title, unitAmountCents: line.unitAmountCents, quantity: 1, imageUrl: line.previewCdnUrl }],
      shippingCents: 0,
      discountCents: 0,
      collectShipping: false,
      successUrl: `${base}/egifts/complete?gift=${id}&session_id={CHECKOUT_SESSION_ID}`,
      cancelUrl: `${base}/egifts?cancelled=${id}`,
      expiresAt,
      idempotencyKey: `checkout-session:${sessionId}`,
    })
  } catch (error) {
    await deps.db.transaction(async (tx) => {
      await tx
        .update(checkoutSessions)
        .set({ status: 'expired', updatedAt: deps.now(), lastError: error instanceof Error ? error.message : String(error) })
        .where(eq(checkoutSessions.id, sessionId))
      await cancelEgift(tx, sessionId, deps.now())
    })
    return providerFailed(error)
  }
  await deps.db.update(checkoutSessions).set({ providerSessionId: made.providerSessionId, url: made.url }).where(eq(checkoutSessions.id, sessionId))
  const [row] = await deps.db.select().from(egifts).where(eq(egifts.id, id))
  return egiftView(row!, made.url)
}

/** The session ended unpaid (expired, failed, cancelled): the gift will not be issued. */
export async function cancelEgift(db: Db, checkoutSessionId: string, at: Date) {
  await db
    .update(egifts)
    .set({ status: 'cancelled', updatedAt: at })
    .where(and(eq(egifts.checkoutSessionId, checkoutSessionId), eq(egifts.status, 'awaiting_payment')))
}

/**
 * The gift's session was paid (inside fulfilment's transaction, session row locked): issue the code
 * and schedule the e-mail that carries it. A gift whose session was cancelled and then paid after all
 * (a late payment) is issued too: the money arrived.
 */
export async function issueEgift(tx: Db, deps: ApiDeps, checkoutSessionId: string, now: Date) {
  const [gift] = await tx.select().from(egifts).where(eq(egifts.checkoutSessionId, checkoutSessionId)).for('update')
  if (!gift || (gift.status !== 'awaiting_payment' && gift.status !== 'cancelled')) return
  const code = newEgiftCode()
  const expiresAt = new Date(now)
  expiresAt.setUTCFullYear(expiresAt.getUTCFullYear() + EGIFT_VALID_YEARS)
  await tx
    .update(egifts)
    .set({ status: 'issued', codeHash: hashEgiftCode(code), issuedAt: now, expiresAt, updatedAt: now })
    .where(eq(egifts.id, gift.id))
  const sendAfter = gift.sendOn ? instantAt(gift.sendOn, EGIFT_SEND_HOUR, gift.timezone) : now
  await queueEmail(tx, deps.config, {
    kind: 'egift',
    reference: `egift:${gift.id}`,
    to: gift.recipientEmail,
    sendAfter: sendAfter > now ? sendAfter : now,
    secrets: [code],
    ...egiftEmail({ ...gift, expiresAt }, code, deps.config.publicUrl),
  })
}

/** The 'egift' purpose of checkout sessions: paid, the gift is issued (no order); ended unpaid, it is cancelled. */
export const egiftCheckout: CheckoutPurposeHandler = {
  fulfil: async (tx, deps, session, now) => {
    await issueEgift(tx, deps, session.id, now)
    return null
  },
  ended: (db, session, at) => cancelEgift(db, session.id, at),
}

/** The recipient's e-mail: plain text and a simple, inline-styled HTML version. */
export function egiftEmail(
  gift: Pick<EgiftRow, 'recipientName' | 'senderName' | 'message' | 'amountCents' | 'timezone'> & { expiresAt: Date },
  code: string,
  publicUrl: string,
) {
  const amount = formatCents(gift.amountCents)
  const redeemUrl = `${publicUrl}/egifts/redeem?code=${encodeURIComponent(code)}`
  const until = new Intl.DateTimeFormat('en-US', { dateStyle: 'long', timeZone: gift.timezone }).format(gift.expiresAt)
  const subject = `${gift.senderName} sent you a ${amount} Keepsake e-gift`
  const text = [
    `Hi ${gift.recipientName},`,
    '',
    `${gift.senderName} sent you a ${amount} Keepsake e-gift to turn your family photos into something to hold.`,
    ...(gift.message ? ['', `“${gift.message}”`, `— ${gift.senderName}`] : []),
    '',
    `Your gift code: ${code}`,
    `Redeem it here: ${redeemUrl}`,
    '',
    `The code can be used once, until ${until}. It becomes Keepsake store credit for photo ornaments.`,
  ].join('\n')
  const e = escapeHtml
  const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${e(subject)}</title></head><body style="margin:0;background:#fbf7f0;font-family:Helvetica,Arial,sans-serif;color:#2b2622">
<div style="max-width:520px;margin:0 auto;padding:32px 24px">
<p style="font-size:14px;letter-spacing:.08em;text-transform:uppercase;color:#1f5a45;font-weight:bold">Keepsake e-gift</p>
<h1 style="font-size:26px;line-height:1.25;margin:8px 0 16px">${e(gift.senderName)} sent you ${e(amount)}</h1>
<p style="font-size:16px;line-height:1.5">Hi ${e(gift.recipientName)}, here is a Keepsake e-gift to turn your family photos into something to hold.</p>
${gift.message ? `<blockquote style="margin:20px 0;padding:12px 16px;border-left:4px solid #a3263b;background:#fff;font-size:16px;line-height:1.5">${e(gift.message)}<br><span style="color:#6b625b">— ${e(gift.senderName)}</span></blockquote>` : ''}
<p style="font-size:14px;color:#6b625b;margin:24px 0 4px">Your gift code</p>
<p style="font-size:24px;font-weight:bold;letter-spacing:.08em;margin:0 0 24px;font-family:Menlo,Consolas,monospace">${e(code)}</p>
<p><a href="${e(redeemUrl)}" style="display:inline-block;background:#a3263b;color:#fff;text-decoration:none;font-weight:bold;padding:12px 22px;border-radius:999px">Redeem your gift</a></p>
<p style="font-size:13px;color:#6b625b;line-height:1.5;margin-top:24px">The code can be used once, until ${e(until)}. It becomes Keepsake store credit for photo ornaments.</p>
</div></body></html>`
  return { subject, text, html }
}

/** The e-mail with the code went out (mail.ts's 'egift' sent handler, in the delivery's transaction). */
export async function markEgiftEmailed(tx: Db, reference: string, at: Date) {
  const id = reference.replace(/^egift:/, '')
  if (!/^[0-9a-f-]{36}$/.test(id)) return
  await tx.update(egifts).set({ emailedAt: at, updatedAt: at }).where(eq(egifts.id, id))
}

/** GET /v1/egifts/purchases: the shopper's gifts, newest first. */
export async function listEgiftPurchases(db: Database, user: SessionUser) {
  const rows = await db.select().from(egifts).where(eq(egifts.purchaserId, user.id)).orderBy(desc(egifts.createdAt)).limit(50)
  const sessionIds = rows.filter((r) => r.status === 'awaiting_payment').map((r) => r.checkoutSessionId)
  const urls = sessionIds.length
    ? new Map(
        (await db.select({ id: checkoutSessions.id, url: checkoutSessions.url }).from(checkoutSessions).where(inArray(checkoutSessions.id, sessionIds))).map(
          (s) => [s.id, s.url],
        ),
      )
    : new Map<string, string>()
  return { purchases: rows.map((r) => egiftView(r, urls.get(r.checkoutSessionId) || null)) }
}

/** GET /v1/egifts/purchases/{id}: one gift, asking the payment provider while it awaits payment (as the cart's return page does). */
export async function getEgiftPurchase(deps: ApiDeps, user: SessionUser, id: string): Promise<EgiftPurchase> {
  const [gift] = await deps.db
    .select()
    .from(egifts)
    .where(and(eq(egifts.id, id), eq(egifts.purchaserId, user.id)))
  if (!gift) throw notFound('E-gift')
  const session = gift.status === 'awaiting_payment' ? await getCheckoutSession(deps, user, gift.checkoutSessionId) : null
  const [current] = await deps.db.select().from(egifts).where(eq(egifts.id, id))
  return egiftView(current!, session?.url || null)
}

/**
 * POST /v1/egifts/redeem: the code becomes store credit on the redeemer's ledger, once. The gift's row
 * is locked first, so simultaneous redemptions queue and all but the first find it redeemed.
 */
export async function redeemEgift(deps: ApiDeps, user: SessionUser, code: string, clientAddress: string): Promise<EgiftRedemption> {
  const now = deps.now()
  await enforceRateLimits(
    deps.rateLimiter,
    [
      { rule: egiftRateLimits.redeemPerAddress, key: clientAddress },
      { rule: egiftRateLimits.redeemPerUser, key: user.id },
    ],
    now,
  )
  const redeemed = await deps.db.transaction(async (tx) => {
    const [gift] = await tx
      .select()
      .from(egifts)
      .where(eq(egifts.codeHash, hashEgiftCode(code)))
      .for('update')
    if (!gift || gift.status === 'awaiting_payment' || gift.status === 'cancelled') {
      throw new AppError('not_found', 'We don’t recognise this gift code. Check it against the e-mail, letter by letter.')
    }
    if (gift.status === 'redeemed') {
      throw new AppError(
        'conflict',
        gift.redeemedBy === user.id ? 'You have already redeemed this gift; its credit is in your balance' : 'This gift code has already been redeemed',
      )
    }
    if (gift.expiresAt && gift.expiresAt <= now) {
      const on = new Intl.DateTimeFormat('en-US', { dateStyle: 'long', timeZone: gift.timezone }).format(gift.expiresAt)
      throw new AppError('rule_broken', `This gift code expired on ${on}`)
    }
    await lockAccount(tx, user.id)
    await appendEntry(tx, { userId: user.id, amountCents: gift.amountCents, reason: 'egift_redeemed', reference: `egift:${gift.id}`, at: now })
    await tx.update(egifts).set({ status: 'redeemed', redeemedBy: user.id, redeemedAt: now, updatedAt: now }).where(eq(egifts.id, gift.id))
    return {
      amountCents: gift.amountCents,
      balanceCents: await balanceOf(tx, user.id),
      senderName: gift.senderName,
      message: gift.message,
      redeemedAt: now.toISOString(),
    }
  })
  await creditGranted(deps, user.id)
  return redeemed
}
