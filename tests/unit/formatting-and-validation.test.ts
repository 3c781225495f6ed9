import { describe, expect, it } from 'vitest'
import { formatPrice, formatWholeDollars } from '../../app/lib/currency'
import { z } from '../../app/contract/zod'

describe('currency formatting (SPEC.md §9)', () => {
  it('formats whole dollars with zero decimals, en-US', () => {
    expect(formatWholeDollars(25)).toBe('$25')
    expect(formatWholeDollars(1234.5)).toBe('$1,235')
  })

  it('formats prices with up to two decimals', () => {
    expect(formatPrice(24.99)).toBe('$24.99')
    expect(formatPrice(25)).toBe('$25')
    expect(formatPrice(19.5)).toBe('$19.5')
  })
})

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
