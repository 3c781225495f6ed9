/**
 * The shopper-facing fields of every form, with their messages in shopper words (issue 15, bug 8):
 * the same field says the same thing on every form, an empty field is told apart from a malformed
 * one, and a drop-down says "Choose". The API answers these messages too, so a form shows what the
 * server said at the field it belongs to.
 */
import { FIELD_LIMITS, GIFT_MESSAGE_MAX_LINES } from '../catalogue/field-limits'
import { z } from './zod'

const capitalised = (words: string) => `${words[0]!.toUpperCase()}${words.slice(1)}`

/** A required line of text: "Enter <what>" when empty, "<What> can be at most N characters" when too long. */
export const requiredText = (what: string, max: number) =>
  z
    .string({ error: `Enter ${what}` })
    .trim()
    .min(1, { error: `Enter ${what}` })
    .max(max, { error: `${capitalised(what.replace(/^(your|the) /, ''))} can be at most ${max} characters` })

/** An optional line of text: empty is fine. */
export const optionalText = (what: string, max: number) =>
  z
    .string()
    .trim()
    .max(max, { error: `${capitalised(what)} can be at most ${max} characters` })
    .default('')

/** An e-mail address: an empty field and a malformed address get different messages. */
const EMAIL_TOO_LONG = `An e-mail address can be at most ${FIELD_LIMITS.email} characters`
const NOT_AN_EMAIL = 'That doesn’t look like an e-mail address: it should look like name@example.com'

export const emailAddress = (whose = 'your') =>
  z
    .string({ error: `Enter ${whose} e-mail address` })
    .trim()
    .min(1, { error: `Enter ${whose} e-mail address` })
    .max(FIELD_LIMITS.email, { error: EMAIL_TOO_LONG })
    .pipe(z.email({ error: NOT_AN_EMAIL }))

/** An e-mail address that may be left empty, with the same messages when it is given. */
export const optionalEmailAddress = () =>
  z
    .string()
    .trim()
    .max(FIELD_LIMITS.email, { error: EMAIL_TOO_LONG })
    .refine((value) => value === '' || z.email().safeParse(value).success, { error: NOT_AN_EMAIL })
    .default('')

export const personName = () => requiredText('your name', FIELD_LIMITS.personName)

/** A US state from the drop-down, by its two-letter code. */
export const usState = () =>
  z
    .string({ error: 'Choose a state' })
    .trim()
    .toUpperCase()
    .regex(/^[A-Z]{2}$/, { error: 'Choose a state' })

/** A phone number for the courier: optional, digits and the usual punctuation. */
export const phoneNumber = () =>
  z
    .string()
    .trim()
    .max(FIELD_LIMITS.phone, { error: `A phone number can be at most ${FIELD_LIMITS.phone} characters` })
    .regex(/^[\d +().-]*$/, { error: 'Enter a phone number with digits only' })
    .default('')

/** A US ZIP code: five digits, or ZIP+4. */
export const zipCode = () =>
  z
    .string({ error: 'Enter the ZIP code' })
    .trim()
    .min(1, { error: 'Enter the ZIP code' })
    .regex(/^\d{5}(-\d{4})?$/, { error: 'ZIP code must be 5 digits (or ZIP+4)' })

/**
 * A gift message for a parcel's packing slip: optional, at most FIELD_LIMITS.giftMessage characters and
 * GIFT_MESSAGE_MAX_LINES lines (the slip's message box); line breaks are kept, other control characters refused.
 */
export const giftMessage = () =>
  z
    .string()
    .trim()
    .max(FIELD_LIMITS.giftMessage, { error: `A gift message can be at most ${FIELD_LIMITS.giftMessage} characters` })
    .refine((value) => value.split('\n').length <= GIFT_MESSAGE_MAX_LINES, { error: `A gift message can be at most ${GIFT_MESSAGE_MAX_LINES} lines` })
    .refine((value) => !/[\u0000-\u0009\u000b-\u001f\u007f]/.test(value), {
      error: 'A gift message can hold letters, numbers, punctuation and line breaks only',
    })
    .default('')
