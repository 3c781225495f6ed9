/** Money shown and money typed: how amounts are formatted, and the one parser for typed dollar amounts. */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { EGIFT_MAX_DOLLARS, EGIFT_MIN_DOLLARS } from '~/catalogue/egift-terms'
import { parseWholeDollars } from '~/lib/money-input'
import { formatCents, formatPrice, formatWholeDollars } from '../../app/catalogue/currency'

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

/**
 * The one money parser: typed or pasted cents are refused, never dropped with the point. Property tests: what the shopper sees is what is charged —
 * an accepted text always means exactly the dollars it shows, and a text with cents is never accepted.
 */
const bounds = { min: EGIFT_MIN_DOLLARS, max: EGIFT_MAX_DOLLARS }
const parse = (text: string) => parseWholeDollars(text, bounds)
/** What a person reading the text takes it to mean: the number with "$", spaces and "," removed. */
const shown = (text: string) =>
  Number(
    text
      .trim()
      .replace(/^\$\s*/, '')
      .replaceAll(',', ''),
  )

describe('parseWholeDollars', () => {
  it('12.5 and 12.50 are refused in words, 25.00 is $25, never $125 or $250', () => {
    for (const text of ['12.5', '12.50']) {
      const result = parse(text)
      expect(result).toMatchObject({ ok: false, reason: 'cents' })
      expect(!result.ok && result.message).toBe('Gift amounts are whole dollars: enter $12 or $13, without cents.')
    }
    expect(parse('25.00')).toEqual({ ok: true, dollars: 25, cents: 2500 })
    expect(parse('$40')).toEqual({ ok: true, dollars: 40, cents: 4000 })
    expect(parse(' 100 ')).toEqual({ ok: true, dollars: 100, cents: 10000 })
  })

  it('says what is wrong: empty, not a number, out of range', () => {
    expect(parse('')).toMatchObject({ ok: false, reason: 'empty' })
    expect(parse('ten')).toMatchObject({ ok: false, reason: 'not-a-number' })
    expect(parse('1e3')).toMatchObject({ ok: false, reason: 'not-a-number' })
    expect(parse('-20')).toMatchObject({ ok: false, reason: 'not-a-number' })
    expect(parse('9')).toMatchObject({ ok: false, reason: 'too-low', message: 'Choose an amount from $10 to $500.' })
    expect(parse('1,000')).toMatchObject({ ok: false, reason: 'too-high' })
    expect(parse('99999999999999999999')).toMatchObject({ ok: false, reason: 'too-high' })
    expect(parse('12,34')).toMatchObject({ ok: false, reason: 'not-a-number' })
  })

  it('every whole amount in range, however it is written, is accepted as exactly that amount', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: EGIFT_MIN_DOLLARS, max: EGIFT_MAX_DOLLARS }),
        fc.constantFrom('', '$', '$ '),
        fc.constantFrom('', '.', '.0', '.00'),
        (d, prefix, suffix) => {
          expect(parse(`${prefix}${d}${suffix}`)).toEqual({ ok: true, dollars: d, cents: d * 100 })
        },
      ),
    )
  })

  it('an amount with cents is never accepted, whatever the dollars', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 100_000 }), fc.integer({ min: 1, max: 99 }), (d, c) => {
        const result = parse(`${d}.${String(c).padStart(2, '0')}`)
        expect(result).toMatchObject({ ok: false, reason: 'cents' })
      }),
    )
  })

  it('any text at all: never throws, and when accepted it is the number the shopper sees, whole and in range', () => {
    const moneyish = fc.stringMatching(/^[ $]{0,2}[0-9,.]{0,8}[ ]?$/)
    fc.assert(
      fc.property(fc.oneof(fc.string(), moneyish), (text) => {
        const result = parse(text)
        if (!result.ok) {
          expect(result.message.length).toBeGreaterThan(0)
          return
        }
        expect(shown(text)).toBe(result.dollars)
        expect(Number.isInteger(result.dollars)).toBe(true)
        expect(result.cents).toBe(result.dollars * 100)
        expect(result.dollars).toBeGreaterThanOrEqual(EGIFT_MIN_DOLLARS)
        expect(result.dollars).toBeLessThanOrEqual(EGIFT_MAX_DOLLARS)
      }),
      { numRuns: 2000 },
    )
  })
})

describe('parseWholeDollars without bounds (the e-gift form: the API says the range)', () => {
  it('reads the amount as typed, refuses cents and words, and never turns 12.50 into 1250', () => {
    expect(parseWholeDollars('5')).toEqual({ ok: true, dollars: 5, cents: 500 })
    expect(parseWholeDollars('12.50')).toMatchObject({ ok: false, reason: 'cents' })
    expect(parseWholeDollars('twelve')).toMatchObject({ ok: false, reason: 'not-a-number', message: 'Enter the amount in whole dollars, such as 40.' })
    expect(parseWholeDollars('')).toMatchObject({ ok: false, reason: 'empty', message: 'Enter an amount in whole dollars.' })
    fc.assert(
      fc.property(fc.string(), (text) => {
        const result = parseWholeDollars(text)
        if (result.ok) expect(shown(text)).toBe(result.dollars)
      }),
      { numRuns: 1000 },
    )
  })
})
