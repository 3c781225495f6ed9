import { describe, expect, it } from 'vitest'
import { z } from '../../app/contract/zod'
import { giftMessage } from '../../app/contract/field-messages'
import { FIELD_LIMITS, GIFT_MESSAGE_MAX_LINES } from '../../app/catalogue/field-limits'

describe('validation messages (SPEC.md §8)', () => {
  const schema = z.object({ quantity: z.number(), note: z.string() })

  it('says Required for a missing value', () => {
    const result = schema.safeParse({ note: 'x' })
    expect(result.success).toBe(false)
    expect(result.error!.issues[0]!.message).toBe('Required')
  })

  it('says "Expected number, received string" for a wrong type', () => {
    const result = schema.safeParse({ quantity: '2', note: 'x' })
    expect(result.error!.issues[0]!.message).toBe('Expected number, received string')
  })

  it('names null, arrays and NaN for what they are', () => {
    expect(schema.safeParse({ quantity: null, note: 'x' }).error!.issues[0]!.message).toBe('Expected number, received null')
    expect(schema.safeParse({ quantity: [], note: 'x' }).error!.issues[0]!.message).toBe('Expected number, received array')
    expect(schema.safeParse({ quantity: Number.NaN, note: 'x' }).error!.issues[0]!.message).toBe('Expected number, received nan')
  })
})

describe('a gift message (issue 33, item 3)', () => {
  const schema = giftMessage()
  it('is optional, keeps its line breaks, and is refused above its limits with a message that says which', () => {
    expect(schema.parse(undefined)).toBe('')
    expect(schema.parse('  Merry Christmas!\nLove, Ava  ')).toBe('Merry Christmas!\nLove, Ava')
    expect(schema.parse('x'.repeat(FIELD_LIMITS.giftMessage))).toHaveLength(FIELD_LIMITS.giftMessage)
    const refused = (value: string) => schema.safeParse(value).error?.issues[0]?.message
    expect(refused('x'.repeat(FIELD_LIMITS.giftMessage + 1))).toBe(`A gift message can be at most ${FIELD_LIMITS.giftMessage} characters`)
    expect(refused(Array.from({ length: GIFT_MESSAGE_MAX_LINES + 1 }, () => 'hi').join('\n'))).toBe(
      `A gift message can be at most ${GIFT_MESSAGE_MAX_LINES} lines`,
    )
    for (const control of ['\u0000', '\t', '\u001b', '\u007f', '\r'])
      expect(refused(`a${control}b`)).toBe('A gift message can hold letters, numbers, punctuation and line breaks only')
  })
})
