import { describe, expect, it } from 'vitest'
import { formatCents } from '../../app/lib/currency'

describe('formatCents', () => {
  it('shows cart amounts with both decimals, whole dollars included', () => {
    expect(formatCents(4997)).toBe('$49.97')
    expect(formatCents(4990)).toBe('$49.90')
    expect(formatCents(1000)).toBe('$10.00')
    expect(formatCents(2)).toBe('$0.02')
    expect(formatCents(0)).toBe('$0.00')
    expect(formatCents(123456)).toBe('$1,234.56')
  })
})
