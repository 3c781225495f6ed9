import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { shippingAddressSchema } from '../../app/contract/cart'
import { EGIFT_NAME_MAX, egiftPurchaseRequestSchema } from '../../app/contract/egifts'
import { FIELD_LIMITS } from '../../app/catalogue/field-limits'
import { deliveryRequestSchema, waitlistRequestSchema } from '../../app/contract/smokescreens'

/**
 * Every shopper-facing form field says what is wrong in shopper words, the same way
 * on every form; an empty field is told apart from a malformed one; a drop-down says "Choose".
 */
const address = {
  name: 'Maya Rivera',
  email: 'maya@example.com',
  phone: '',
  line1: '1 Main St',
  line2: '',
  city: 'Albany',
  state: 'NY',
  postalCode: '12207',
  country: 'US',
}
const waitlist = { product: 'photo-mug', sourcePage: '/loop/store/', name: 'Maya', email: 'maya@example.com', note: '' }
const gift = { amountCents: 2500, recipientName: 'Gran', recipientEmail: 'gran@example.com', senderName: 'Maya', message: '' }

/** Each form's schema, a valid body, and its free-text fields with the limit the form's input sets. */
const forms = [
  {
    form: 'checkout address',
    schema: shippingAddressSchema,
    valid: address,
    fields: {
      name: FIELD_LIMITS.personName,
      line1: FIELD_LIMITS.addressLine,
      line2: FIELD_LIMITS.addressLine,
      city: FIELD_LIMITS.city,
      phone: FIELD_LIMITS.phone,
    },
  },
  {
    form: 'smokescreen delivery',
    schema: deliveryRequestSchema,
    valid: { ...address, product: 'canvas-print' },
    fields: { name: FIELD_LIMITS.personName, line1: FIELD_LIMITS.addressLine, city: FIELD_LIMITS.city },
  },
  { form: 'smokescreen waitlist', schema: waitlistRequestSchema, valid: waitlist, fields: { name: FIELD_LIMITS.personName, note: FIELD_LIMITS.note } },
  { form: 'e-gift purchase', schema: egiftPurchaseRequestSchema, valid: gift, fields: { recipientName: EGIFT_NAME_MAX, senderName: EGIFT_NAME_MAX } },
] as const

const messagesFor = (
  schema: { safeParse: (v: unknown) => { success: boolean; error?: { issues: { path: PropertyKey[]; message: string }[] } } },
  body: unknown,
  field: string,
) => {
  const result = schema.safeParse(body)
  return result.success ? [] : result.error!.issues.filter((i) => i.path[0] === field).map((i) => i.message)
}

/** A raw field name, a dotted path or a programmer's phrase is not shopper words. */
const programmerWords = /^[a-z][A-Za-z0-9.]* (is required|must be)|\b(line1|line2|postalCode|recipientEmail|senderName|recipientName)\b|two-letter/

describe('form messages in shopper words', () => {
  it.each(forms)('$form: each valid body passes', ({ schema, valid }) => {
    expect(schema.safeParse(valid).success).toBe(true)
  })

  for (const { form, schema, valid, fields } of forms) {
    for (const [field, limit] of Object.entries(fields)) {
      it(`${form}: ${field} over its ${limit}-character input limit names the limit in words`, () => {
        const filler = field === 'phone' ? '5' : 'x'
        const [message] = messagesFor(schema, { ...valid, [field]: filler.repeat(limit + 1) }, field)
        expect(message).toMatch(new RegExp(`can be at most ${limit} characters$`))
        expect(message).not.toMatch(programmerWords)
        expect(messagesFor(schema, { ...valid, [field]: filler.repeat(limit) }, field)).toEqual([])
      })
    }
  }

  it('required text fields say "Enter …" when empty, never "is required"', () => {
    for (const { schema, valid, fields } of forms) {
      for (const field of Object.keys(fields)) {
        for (const message of messagesFor(schema, { ...valid, [field]: '   ' }, field)) {
          expect(message).toMatch(/^Enter /)
          expect(message).not.toMatch(programmerWords)
        }
      }
    }
  })

  it('the same field says the same thing on every form', () => {
    const emptyName = forms.filter((f) => 'name' in f.valid).map((f) => messagesFor(f.schema, { ...f.valid, name: '' }, 'name')[0])
    expect(new Set(emptyName)).toEqual(new Set(['Enter your name']))
    const badEmail = [shippingAddressSchema, deliveryRequestSchema, waitlistRequestSchema].map(
      (s) => messagesFor(s, { ...(s === waitlistRequestSchema ? waitlist : { ...address, product: 'canvas-print' }), email: 'maya@' }, 'email')[0],
    )
    expect(new Set(badEmail).size).toBe(1)
  })

  it('an empty e-mail and a malformed one get different messages, on every form', () => {
    const cases = [
      { schema: shippingAddressSchema, valid: address, field: 'email' },
      { schema: waitlistRequestSchema, valid: waitlist, field: 'email' },
      { schema: egiftPurchaseRequestSchema, valid: gift, field: 'recipientEmail' },
    ]
    for (const { schema, valid, field } of cases) {
      const [empty] = messagesFor(schema, { ...valid, [field]: '' }, field)
      const [malformed] = messagesFor(schema, { ...valid, [field]: 'maya@' }, field)
      expect(empty).toMatch(/^Enter /)
      expect(malformed).toMatch(/doesn’t look like an e-mail address/)
      expect(empty).not.toBe(malformed)
    }
  })

  it('the state drop-down says "Choose a state" for anything that is not a state code', () => {
    fc.assert(
      fc.property(
        fc.string().filter((s) => !/^\s*[A-Za-z]{2}\s*$/.test(s)),
        (state) => {
          expect(messagesFor(shippingAddressSchema, { ...address, state }, 'state')).toEqual(['Choose a state'])
        },
      ),
      { seed: 15, numRuns: 200 },
    )
  })
})
