/**
 * Signing in on a computer (issue 16): a one-time link e-mailed to the address of an album account.
 * The answer to "send me a link" is the same, and comes after the same work, whether or not the
 * address has an account (a job looks the address up after the answer); only the
 * SHA-256 of a link's token is stored; a link works once, for 15 minutes.
 */
import { randomBytes, randomUUID } from 'node:crypto'
import { and, eq, gt, isNull, sql } from 'drizzle-orm'
import { SIGN_IN_LINK_TTL_MINUTES, SIGN_IN_LINKS_PER_ADDRESS_PER_HOUR, SIGN_IN_LINKS_PER_HOUR } from '../../contract/growth'
import { DEFAULT_LANDING, safeRedirectPath } from '../../contract/redirect-path'
import { signInLinks, users } from '../db/schema'
import type { ApiDeps } from '../env'
import { AppError } from '../errors'
import { enforceRateLimits, type RateLimitRule } from '../rate-limit'
import { hashSecret } from './accounts'
import { enqueueJob, forgetJobPayload, type JobHandlers, type JobRow } from './jobs'
import { queueEmail } from './mail'
import { button, e, mailLayout, soft } from './mail-layout'

/**
 * One client asks for at most 5 links an hour, whatever the addresses; one address is sent at most 20 an hour,
 * from all clients together. The address's cap is four clients' worth, so a stranger asking from one client
 * spends a quarter of it and the owner, from their own, still gets a link (issue 42, item 14; decision 068).
 */
export const signInLinkRateLimits = {
  perAddress: { name: 'sign-in-link-email', limit: SIGN_IN_LINKS_PER_ADDRESS_PER_HOUR, windowMs: 3600_000, whenStoreDown: 'open' },
  perClient: { name: 'sign-in-link-client', limit: SIGN_IN_LINKS_PER_HOUR, windowMs: 3600_000, whenStoreDown: 'open' },
} satisfies Record<string, RateLimitRule>

export const SIGN_IN_LINK_JOB = 'send-sign-in-link'

type SignInLinkPayload = { email?: string; redirect?: string; clientAddress?: string }

/**
 * Counts the request against the client and then the address first, so both answers (account or not) are
 * limited alike. Then only a job is enqueued, the same insert for any address: the account lookup, the
 * link and the e-mail are the job's, after the answer, so neither the answer's words nor its time tell
 * an address with an account from one without (issue 29, bug 4).
 */
export async function requestSignInLink(deps: ApiDeps, input: { email: string; redirect?: string | undefined }, clientAddress: string) {
  const email = input.email.trim().toLowerCase()
  const now = deps.now()
  try {
    // The client's limit first: a request it refuses never reaches the address's count, so however often one
    // client asks, it spends at most its five of the address's allowance.
    await enforceRateLimits(deps.rateLimiter, [{ rule: signInLinkRateLimits.perClient, key: clientAddress }], now)
    await enforceRateLimits(deps.rateLimiter, [{ rule: signInLinkRateLimits.perAddress, key: email }], now)
  } catch (error) {
    if (error instanceof AppError)
      throw new AppError('rate_limited', error.message.replace(/^Too many attempts/, 'Too many sign-in links were asked for'), undefined, error.retryAfterMs)
    throw error
  }
  const payload: SignInLinkPayload = { email, redirect: input.redirect ?? DEFAULT_LANDING, clientAddress }
  await enqueueJob(deps.db, { kind: SIGN_IN_LINK_JOB, dedupeKey: `${SIGN_IN_LINK_JOB}:${randomUUID()}`, payload, runAt: now })
}

/**
 * The job: looks the address up and, when it has an account, stores the link and queues its e-mail. The
 * address leaves the job's row in the same transaction, so a finished job keeps no address (nor does one
 * for an address without an account), and a run repeated after a crash finds nothing left to send.
 */
async function sendSignInLink(deps: ApiDeps, job: JobRow) {
  const { email, redirect, clientAddress } = job.payload as SignInLinkPayload
  if (!email) return
  const now = deps.now()
  await deps.db.transaction(async (tx) => {
    await forgetJobPayload(tx, job)
    const [user] = await tx
      .select({ id: users.id, email: users.email, firstName: users.firstName })
      .from(users)
      .where(sql`lower(${users.email}) = ${email}`)
      .limit(1)
    if (!user) {
      console.info(`[sign-in] link asked for an address with no account (client ${clientAddress ?? 'unknown'})`)
      return
    }
    const token = randomBytes(32).toString('base64url')
    const tokenHash = hashSecret(token)
    const expiresAt = new Date(now.getTime() + SIGN_IN_LINK_TTL_MINUTES * 60_000)
    await tx.insert(signInLinks).values({ tokenHash, userId: user.id, redirect: redirect ?? DEFAULT_LANDING, createdAt: now, expiresAt })
    await queueEmail(tx, deps.config, {
      kind: 'sign-in-link',
      // The hash names the e-mail; the token itself lives only in the e-mail (and in the outbox until SMTP has it).
      reference: `sign-in-link:${tokenHash}`,
      to: user.email,
      sendAfter: now,
      secrets: [token],
      ...signInLinkEmail(user.firstName, `${deps.config.publicUrl}/auth/link?token=${encodeURIComponent(token)}`),
    })
  })
}

export const signInLinkJobs: JobHandlers = { [SIGN_IN_LINK_JOB]: { run: sendSignInLink } }

/** Why a link could not be used, in the shopper's words. */
const refusals = {
  unknown: 'This sign-in link is not valid. Ask for a new one below.',
  used: 'This sign-in link was already used. Each link works once: ask for a new one below.',
  expired: `This sign-in link has expired: links work for ${SIGN_IN_LINK_TTL_MINUTES} minutes. Ask for a new one below.`,
} as const

/** Spends a link exactly once, even under concurrent redemption; refused with 401 when unknown, used or expired. */
export async function redeemSignInLink(deps: ApiDeps, token: string, clientAddress: string) {
  const now = deps.now()
  const tokenHash = hashSecret(token)
  const [row] = await deps.db
    .update(signInLinks)
    .set({ usedAt: now })
    .where(and(eq(signInLinks.tokenHash, tokenHash), isNull(signInLinks.usedAt), gt(signInLinks.expiresAt, now)))
    .returning({ userId: signInLinks.userId, redirect: signInLinks.redirect })
  // Normalised again on the way out: a row stored before the normaliser was fixed may name another site.
  if (row) return { userId: row.userId, redirect: safeRedirectPath(row.redirect) ?? DEFAULT_LANDING }
  const [seen] = await deps.db.select({ usedAt: signInLinks.usedAt }).from(signInLinks).where(eq(signInLinks.tokenHash, tokenHash))
  const reason = !seen ? 'unknown' : seen.usedAt ? 'used' : 'expired'
  console.warn(`[sign-in] ${reason} sign-in link refused (client ${clientAddress})`)
  throw new AppError('unauthenticated', refusals[reason])
}

export function signInLinkEmail(firstName: string, link: string) {
  const subject = 'Your Keepsake sign-in link'
  const text = [
    `Hi ${firstName},`,
    '',
    'Open this link to sign in to the Keepsake store:',
    link,
    '',
    `It works once, for ${SIGN_IN_LINK_TTL_MINUTES} minutes, and signs you in on the browser that opens it.`,
    'If you did not ask to sign in, you can ignore this e-mail: nobody can sign in without the link.',
  ].join('\n')
  const html = mailLayout({
    title: subject,
    preheader: `Your sign-in link works once, for ${SIGN_IN_LINK_TTL_MINUTES} minutes.`,
    body: `<h1 style="margin:0 0 12px;font-size:24px;line-height:1.3">Sign in to Keepsake</h1>
<p style="margin:0;font-size:16px;line-height:1.5">Hi ${e(firstName)}, tap the button to sign in to the Keepsake store.</p>
${button(link, 'Sign in to Keepsake')}
<p style="margin:16px 0 0;font-size:13px;line-height:1.5;color:${soft}">The link works once, for ${SIGN_IN_LINK_TTL_MINUTES} minutes, and signs you in on the browser that opens it. If you did not ask to sign in, ignore this e-mail: nobody can sign in without the link.</p>
<p style="margin:12px 0 0;font-size:12px;line-height:1.5;color:${soft};word-break:break-all">Button not working? Paste this into your browser: ${e(link)}</p>`,
    footer: 'You get this e-mail because someone asked to sign in to Keepsake with this address.',
  })
  return { subject, text, html }
}
