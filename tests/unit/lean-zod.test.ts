import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import * as z from 'zod/mini'
import { boolean, int, isoDateTimeWithOffset, refine, uuid } from '../../app/lib/lean-zod'

/** Values of every JSON type and then some: what a hand-edited draft or a wrong API answer could hold. */
const anything = fc.oneof(
  fc.anything(),
  fc.double(),
  fc.integer(),
  fc.constantFrom(0, -0, 2 ** 53 - 1, 2 ** 53, -(2 ** 53 - 1), -(2 ** 53), 1.5, NaN, Infinity, -Infinity, true, false, null, undefined, '1', ''),
)
const accepts = (schema: z.core.$ZodType, value: unknown) => z.safeParse(schema, value).success

function sameAnswers(lean: z.core.$ZodType, namesake: z.core.$ZodType, values: fc.Arbitrary<unknown>) {
  fc.assert(
    fc.property(values, (value) => {
      expect(accepts(lean, value), fc.stringify(value)).toBe(accepts(namesake, value))
      if (accepts(lean, value)) expect(z.parse(lean, value)).toEqual(z.parse(namesake, value))
    }),
    { numRuns: 2000 },
  )
}

describe('the lean zod/mini schemas answer as their namesakes do', () => {
  it('int()', () => {
    sameAnswers(int(), z.int(), anything)
    sameAnswers(int().check(z.gte(1), z.lte(100_000)), z.int().check(z.gte(1), z.lte(100_000)), fc.oneof(anything, fc.integer({ min: -5, max: 100_005 })))
  })

  it('uuid()', () => {
    sameAnswers(uuid(), z.uuid(), fc.oneof(anything, fc.uuid(), fc.uuid({ version: [1, 2, 3, 4, 5, 6, 7, 8] }), fc.stringMatching(/^[0-9a-fA-F-]{36}$/)))
  })

  it('boolean()', () => {
    sameAnswers(boolean(), z.boolean(), anything)
  })

  it('isoDateTimeWithOffset()', () => {
    const dates = fc.date({ min: new Date('0001-01-01T00:00:00Z'), max: new Date('9999-12-31T23:59:59Z'), noInvalidDate: true }).map((d) => d.toISOString())
    const withOffsets = fc
      .tuple(dates, fc.constantFrom('Z', '+02:00', '-11:30', '+24:00', '+0200', '', '.5Z'))
      .map(([iso, offset]) => iso.replace(/(\.\d+)?Z$/, '') + offset)
    sameAnswers(
      isoDateTimeWithOffset(),
      z.iso.datetime({ offset: true }),
      fc.oneof(anything, dates, withOffsets, fc.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d(:\d\d(\.\d{1,4})?)?([+-]\d\d:\d\d|Z)?$/)),
    )
    // The very pattern zod builds for it.
    const check = isoDateTimeWithOffset()._zod.def.checks?.[0] as z.core.$ZodCheckRegex
    expect(check._zod.def.pattern.source).toBe(z.iso.datetime({ offset: true })._zod.def.pattern?.source)
    const cases = ['2024-02-29T10:00:00Z', '2023-02-29T10:00:00Z', '2026-11-28T16:45:00.123+01:00', '2026-11-28T16:45Z', '2026-11-28 16:45:00Z']
    for (const value of [...cases, '2026-11-28T16:45:00.Z', '2026-11-28T24:00:00Z', '2026-11-31T10:00:00Z', '2026-11-28T16:45:00+01']) {
      expect(accepts(isoDateTimeWithOffset(), value), value).toBe(accepts(z.iso.datetime({ offset: true }), value))
    }
  })

  it('refine()', () => {
    const short = (value: string) => value.length <= 3
    sameAnswers(z.string().check(refine(short, 'Too long')), z.string().check(z.refine(short, 'Too long')), fc.oneof(anything, fc.string({ maxLength: 6 })))
    expect(z.safeParse(z.string().check(refine(short, 'Too long')), 'four').error?.issues[0]?.message).toBe('Too long')
  })
})
