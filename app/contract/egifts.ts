/**
 * E-gifts (issue 7; SPEC.md §2 /egifts, §7): a shopper buys a Keepsake e-gift for someone, pays
 * through the same checkout providers as the cart, and the recipient gets a single-use gift code by
 * e-mail that /egifts/redeem turns into store credit. Amounts are whole cents.
 */
import { z } from './zod'

export {
  EGIFT_CODE_PATTERN,
  EGIFT_MAX_DOLLARS,
  EGIFT_MAX_SEND_DAYS,
  EGIFT_MESSAGE_MAX,
  EGIFT_MIN_DOLLARS,
  EGIFT_NAME_MAX,
  EGIFT_PRESET_DOLLARS,
  EGIFT_VALID_YEARS,
  normaliseEgiftCode,
} from '../catalogue/egift-terms'
import { EGIFT_MAX_DOLLARS, EGIFT_MESSAGE_MAX, EGIFT_MIN_DOLLARS, EGIFT_NAME_MAX, normaliseEgiftCode } from '../catalogue/egift-terms'
import { emailAddress, requiredText } from './field-messages'

const name = (label: string) => requiredText(label, EGIFT_NAME_MAX)

export const egiftPurchaseRequestSchema = z.object({
  amountCents: z
    .number()
    .int({ error: 'amountCents must be whole cents' })
    .refine((c) => c % 100 === 0, { error: 'Choose a whole-dollar amount' })
    .refine((c) => c >= EGIFT_MIN_DOLLARS * 100 && c <= EGIFT_MAX_DOLLARS * 100, {
      error: `Choose an amount from $${EGIFT_MIN_DOLLARS} to $${EGIFT_MAX_DOLLARS}`,
    }),
  recipientName: name('the recipient’s name'),
  recipientEmail: emailAddress('the recipient’s'),
  senderName: name('your name'),
  message: z
    .string()
    .trim()
    .max(EGIFT_MESSAGE_MAX, { error: `The message must be at most ${EGIFT_MESSAGE_MAX} characters` })
    .default(''),
  /** The day to e-mail the gift, in the buyer's time zone; absent or today = as soon as it is paid. */
  sendOn: z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}$/, { error: 'sendOn must be a date such as 2026-12-24' })
    .nullish()
    .transform((v) => v ?? null),
})

export const egiftStatuses = ['awaiting_payment', 'issued', 'redeemed', 'cancelled'] as const

/** An e-gift as its buyer sees it: never the code (only the recipient gets that). */
export const egiftPurchaseSchema = z.object({
  id: z.uuid(),
  status: z.enum(egiftStatuses),
  amountCents: z.number().int(),
  recipientName: z.string(),
  recipientEmail: z.string(),
  senderName: z.string(),
  message: z.string(),
  sendOn: z.string().nullable(),
  checkoutSessionId: z.uuid(),
  /** Where to pay while awaiting payment. */
  checkoutUrl: z.string().nullable(),
  /** When the e-mail with the code went out; null until then. */
  emailedAt: z.string().nullable(),
  redeemedAt: z.string().nullable(),
  expiresAt: z.string().nullable(),
  createdAt: z.string(),
})
export type EgiftPurchase = z.infer<typeof egiftPurchaseSchema>
export const egiftPurchasesResponseSchema = z.object({ purchases: z.array(egiftPurchaseSchema) })
export const egiftParamsSchema = z.object({ id: z.uuid({ error: 'E-gift id must be a UUID' }) })

export const egiftRedeemRequestSchema = z.object({
  code: z
    .string({ error: 'Enter the gift code' })
    .max(40, { error: 'A gift code is 19 characters, such as KEEP-7KQ3-XP9D-2M4R' })
    .transform((raw, ctx) => {
      const code = normaliseEgiftCode(raw)
      if (!code) {
        ctx.addIssue({ code: 'custom', message: 'A gift code looks like KEEP-7KQ3-XP9D-2M4R' })
        return z.NEVER
      }
      return code
    }),
})

export const egiftRedemptionSchema = z.object({
  amountCents: z.number().int(),
  /** The redeemer's store-credit balance after the gift. */
  balanceCents: z.number().int(),
  senderName: z.string(),
  message: z.string(),
  redeemedAt: z.string(),
})
export type EgiftRedemption = z.infer<typeof egiftRedemptionSchema>

/** One e-mail of the outbox (demo mode's /utils/outbox; every e-mail is recorded there). */
export const outboxEmailSchema = z.object({
  id: z.uuid(),
  kind: z.string(),
  to: z.string(),
  subject: z.string(),
  text: z.string(),
  html: z.string(),
  status: z.enum(['scheduled', 'sent', 'failed']),
  transport: z.enum(['outbox', 'smtp']),
  sendAfter: z.string(),
  sentAt: z.string().nullable(),
  lastError: z.string().nullable(),
  createdAt: z.string(),
})
export type OutboxEmail = z.infer<typeof outboxEmailSchema>
export const outboxResponseSchema = z.object({ emails: z.array(outboxEmailSchema) })
