import { describe, expect, it } from 'vitest'
import { z } from '../../app/contract/zod'

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
