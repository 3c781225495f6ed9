/**
 * E-mail (issue 7). Every e-mail is first written to the outbox_emails table, in the same transaction
 * as the event it is about, with a durable `send-email` job due at its send time. The job delivers it:
 * through nodemailer to SMTP_URL when that is set, and otherwise the outbox row itself is the delivery
 * (demo mode shows it at /utils/outbox). A failed SMTP delivery is retried by the job's backoff. Once an SMTP server
 * has accepted an e-mail, the secrets it lists (a sign-in token, an e-gift code) are redacted from its outbox row.
 *
 * Each SMTP attempt is recorded (with the e-mail's fixed Message-ID) before the SMTP conversation
 * starts. A re-run that finds an attempt with no recorded outcome knows the process died mid-send,
 * possibly after the server accepted the message: it sends again under the same Message-ID, which
 * receivers use to drop the repeat (docs/decisions/018-jobs-that-survive-a-crash.md).
 */
import { randomUUID } from 'node:crypto'
import { desc, eq, inArray, or, sql } from 'drizzle-orm'
import nodemailer from 'nodemailer'
import type { OutboxEmail } from '../../contract/egifts'
import { crashPoint } from '../crash-points'
import type { Database } from '../db/client'
import { egifts, outboxEmails } from '../db/schema'
import type { ApiDeps } from '../env'
import type { Db } from './credit'
import { enqueueJob, type JobHandlers, type JobRow } from './jobs'
import { escapeHtml } from './mail-layout'
import { currentRequestId, logger } from '../../observability/log'
import { metrics } from '../../observability/metrics'

export type EmailMessage = {
  kind: string
  reference: string
  to: string
  subject: string
  text: string
  html: string
  sendAfter: Date
  /** Values the e-mail carries that must not stay in the outbox once an SMTP server has it (a token, a code). */
  secrets?: string[]
}

/** What a sent e-mail's secrets read as in the outbox. */
export const REDACTED = '[redacted once sent]'

/** The e-mail's subject, text and HTML with every secret replaced, as written raw, URL-encoded or HTML-escaped. */
export function redactSecrets(parts: { subject: string; text: string; html: string }, secrets: string[]) {
  const spellings = [...new Set(secrets.filter(Boolean).flatMap((secret) => [secret, encodeURIComponent(secret), escapeHtml(secret)]))].sort(
    (a, b) => b.length - a.length,
  )
  const redact = (value: string) => spellings.reduce((text, spelling) => text.split(spelling).join(REDACTED), value)
  return { subject: redact(parts.subject), text: redact(parts.text), html: redact(parts.html) }
}
type Executor = Pick<Database, 'insert'>

/** Told that an e-mail of its kind went out, in the transaction that marks it sent (with the e-mail's reference). */
export type EmailSentHandler = (tx: Db, reference: string, at: Date) => Promise<void>

let sentHandlers = new Map<string, EmailSentHandler>()

/**
 * Start-up (services/handlers.ts): the handler of each kind of e-mail whose sending the sender must hear
 * of (an e-gift's is marked e-mailed); kinds without one need none. A second call replaces the first.
 */
export function registerEmailSentHandlers(handlers: Record<string, EmailSentHandler>) {
  sentHandlers = new Map(Object.entries(handlers))
}

/** Schedules an e-mail; a second call for the same reference is a no-op (the event is e-mailed once). */
export async function queueEmail(db: Executor, config: { smtpUrl: string | null; mailFrom: string }, { secrets, ...message }: EmailMessage) {
  const id = randomUUID()
  const transport = config.smtpUrl ? 'smtp' : 'outbox'
  const [row] = await db
    .insert(outboxEmails)
    .values({
      id,
      ...message,
      // Without SMTP the outbox row is the delivery (the demo's mailbox): nothing is redacted from it, so nothing is listed.
      secrets: transport === 'smtp' && secrets?.length ? secrets : null,
      messageId: messageIdFor(id, config.mailFrom),
      transport,
      status: 'scheduled',
    })
    .onConflictDoNothing({ target: outboxEmails.reference })
    .returning({ id: outboxEmails.id })
  if (row) await enqueueJob(db, { kind: 'send-email', dedupeKey: `send-email:${row.id}`, payload: { emailId: row.id }, runAt: message.sendAfter })
  return row?.id ?? null
}

/** `<outbox id@the sender's domain>`: unique per e-mail, and the same on every attempt to send it. */
export function messageIdFor(emailId: string, mailFrom: string) {
  const domain = /@([A-Za-z0-9.-]+)>?\s*$/.exec(mailFrom)?.[1] ?? 'keepsake.invalid'
  return `<${emailId}@${domain}>`
}

type Transport = {
  sendMail(message: {
    from: string
    to: string
    subject: string
    text: string
    html: string
    messageId: string
    headers?: Record<string, string>
  }): Promise<{ messageId?: string }>
  close(): void
}
const transports = new Map<string, Transport>()
/** Closes the SMTP connections this process opened (a shutdown); a later e-mail opens a new one. */
export function closeMailTransports() {
  for (const transport of transports.values()) transport.close()
  transports.clear()
}

/**
 * One transport per server and deadline. Every phase of a send has the deadline (SMTP_TIMEOUT_MS): connecting, the
 * greeting, and each wait for the server's answer, so a hung server fails the send within it and the job tries again
 * later, never holding its worker for nodemailer's default ten minutes (issue 43, decision 074).
 */
function smtpTransport(url: string, timeoutMs: number): Transport {
  const key = `${timeoutMs} ${url}`
  let transport = transports.get(key)
  if (!transport) {
    transport = nodemailer.createTransport({ url, connectionTimeout: timeoutMs, greetingTimeout: timeoutMs, socketTimeout: timeoutMs })
    transports.set(key, transport)
  }
  return transport
}

/**
 * Delivers one scheduled e-mail. Safe to repeat: a sent e-mail is never sent again, and an attempt cut
 * short by a crash is repeated under the same Message-ID (the one window where a receiver may get it twice).
 */
export async function deliverEmail(deps: ApiDeps, emailId: string) {
  const [email] = await deps.db.select().from(outboxEmails).where(eq(outboxEmails.id, emailId))
  if (!email || email.status === 'sent') return
  let providerMessageId: string | null = null
  if (email.transport === 'smtp') {
    if (!deps.config.smtpUrl) throw new Error('This e-mail is for SMTP, but SMTP_URL is no longer set')
    if (email.lastAttemptAt && email.lastError === null)
      logger().warn(
        { emailId: email.id, kind: email.kind },
        `[mail] ${email.reference}: the attempt begun at ${email.lastAttemptAt.toISOString()} never finished (a crash); sending again as ${email.messageId}`,
      )
    // The attempt is on record before the SMTP server hears of it.
    const messageId = email.messageId ?? messageIdFor(email.id, deps.config.mailFrom)
    await deps.db
      .update(outboxEmails)
      .set({ messageId, smtpAttempts: sql`${outboxEmails.smtpAttempts} + 1`, lastAttemptAt: deps.now(), lastError: null })
      .where(eq(outboxEmails.id, emailId))
    await crashPoint('send-email:before-smtp')
    try {
      const info = await smtpTransport(deps.config.smtpUrl, deps.config.smtpTimeoutMs).sendMail({
        from: deps.config.mailFrom,
        to: email.to,
        subject: email.subject,
        text: email.text,
        html: email.html,
        messageId,
        // The request that led to this e-mail (decision 045): a bounce or a complaint can be traced back to it.
        ...(currentRequestId() ? { headers: { 'X-Request-Id': currentRequestId()! } } : {}),
      })
      providerMessageId = info.messageId ?? null
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error)
      metrics().emails.inc({ kind: email.kind, outcome: 'failed' })
      logger().warn(
        { emailId: email.id, kind: email.kind, reference: email.reference, err: error },
        `[mail] ${email.kind} e-mail not sent; the job tries again`,
      )
      await deps.db
        .update(outboxEmails)
        .set({ lastError: message.slice(0, 500) })
        .where(eq(outboxEmails.id, emailId))
      throw error
    }
    await crashPoint('send-email:after-smtp')
  }
  const at = deps.now()
  await deps.db.transaction(async (tx) => {
    // The SMTP server has the e-mail: its secrets leave the outbox in the same write that marks it sent.
    const redacted = email.secrets?.length ? { ...redactSecrets(email, email.secrets), secrets: null } : {}
    await tx
      .update(outboxEmails)
      .set({ status: 'sent', sentAt: at, providerMessageId, lastError: null, ...redacted })
      .where(eq(outboxEmails.id, emailId))
    await sentHandlers.get(email.kind)?.(tx, email.reference, at)
  })
  metrics().emails.inc({ kind: email.kind, outcome: 'sent' })
  // One line per e-mail, under the id of the request that led to it (the job's request context).
  logger().info(
    { emailId: email.id, kind: email.kind, reference: email.reference, transport: email.transport, messageId: email.messageId ?? providerMessageId },
    `[mail] ${email.kind} e-mail sent`,
  )
}

const emailIdOf = (job: JobRow) => String((job.payload as { emailId: string }).emailId)

/**
 * Delivers with the jobs table's retries; after the last attempt the e-mail is marked failed (and shows so in the outbox).
 * E-mail has a lane of its own: a slow mail server holds back other e-mails only, never a paid order (decision 074).
 */
export const mailJobs: JobHandlers = {
  'send-email': {
    lane: 'mail',
    run: (deps, job) => deliverEmail(deps, emailIdOf(job)),
    onGiveUp: async (deps, job) => {
      await deps.db
        .update(outboxEmails)
        .set({ status: 'failed' })
        .where(eq(outboxEmails.id, emailIdOf(job)))
    },
  },
}

export const OUTBOX_PAGE_SIZE = 50

export function outboxView(row: typeof outboxEmails.$inferSelect): OutboxEmail {
  return {
    id: row.id,
    kind: row.kind,
    to: row.to,
    subject: row.subject,
    text: row.text,
    html: row.html,
    status: row.status,
    transport: row.transport,
    sendAfter: row.sendAfter.toISOString(),
    sentAt: row.sentAt?.toISOString() ?? null,
    lastError: row.lastError,
    createdAt: row.createdAt.toISOString(),
  }
}

/** The newest e-mails first (demo mode's /utils/outbox). */
/**
 * The demo outbox of one shopper: e-mails to their own address and e-mails about gifts they bought.
 * Never anyone else's — a gift e-mail holds a redeemable code (issue 15, bug 7). Signed out: none.
 */
export async function listOutbox(db: Database, user: { id: string; email: string } | null) {
  if (!user) return { emails: [] }
  const rows = await db
    .select()
    .from(outboxEmails)
    .where(
      or(
        sql`lower(${outboxEmails.to}) = lower(${user.email})`,
        inArray(
          outboxEmails.reference,
          db
            .select({ reference: sql<string>`'egift:' || ${egifts.id}` })
            .from(egifts)
            .where(eq(egifts.purchaserId, user.id)),
        ),
      ),
    )
    .orderBy(desc(outboxEmails.createdAt))
    .limit(OUTBOX_PAGE_SIZE)
  return { emails: rows.map(outboxView) }
}

export { escapeHtml } from './mail-layout'
