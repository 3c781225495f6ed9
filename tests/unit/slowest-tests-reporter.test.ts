import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { slowestTests, slowestTestsReport, type TestTiming } from '../support/slowest-tests-reporter'

const timing: fc.Arbitrary<TestTiming> = fc.record({
  title: fc.string({ minLength: 1, maxLength: 20 }),
  location: fc.tuple(fc.constantFrom('a.spec.ts', 'b.spec.ts'), fc.integer({ min: 1, max: 500 })).map(([file, line]) => `tests/e2e/${file}:${line}`),
  durations: fc.array(fc.integer({ min: 0, max: 120_000 }), { minLength: 1, maxLength: 2 }),
  outcome: fc.constantFrom('expected', 'unexpected', 'flaky', 'skipped') as fc.Arbitrary<TestTiming['outcome']>,
})
const total = (t: TestTiming) => t.durations.reduce((sum, ms) => sum + ms, 0)

describe('slowestTests', () => {
  it('answers the slowest tests by all their attempts, slowest first, and no test left out is slower', () => {
    fc.assert(
      fc.property(fc.array(timing, { maxLength: 40 }), fc.integer({ min: 1, max: 20 }), (timings, count) => {
        const slowest = slowestTests(timings, count)
        expect(slowest).toHaveLength(Math.min(count, timings.length))
        for (let i = 1; i < slowest.length; i++) expect(total(slowest[i - 1]!)).toBeGreaterThanOrEqual(total(slowest[i]!))
        const fastestListed = slowest.length > 0 ? total(slowest.at(-1)!) : Infinity
        for (const t of timings.filter((t) => !slowest.includes(t))) expect(total(t)).toBeLessThanOrEqual(fastestListed)
      }),
    )
  })
})

describe('slowestTestsReport', () => {
  it('lists each slow test with its place, marks the ones that did not simply pass, and counts the flaky', () => {
    fc.assert(
      fc.property(fc.array(timing, { minLength: 1, maxLength: 30 }), (timings) => {
        const lines = slowestTestsReport(timings, 15)
        const listed = slowestTests(timings, 15)
        expect(lines[0]).toBe(`Slowest ${listed.length} of ${timings.length} tests (all attempts):`)
        listed.forEach((t, i) => {
          const line = lines[i + 1]!
          expect(line).toContain(`${t.location}  ${t.title}`)
          expect(line.endsWith(` [${t.outcome}]`)).toBe(t.outcome !== 'expected')
          expect(line.includes(` in ${t.durations.length} attempts`)).toBe(t.durations.length > 1)
        })
        const flaky = timings.filter((t) => t.outcome === 'flaky').length
        expect(lines.at(-1)).toMatch(new RegExp(`^${flaky} flaky tests?`))
        expect(lines).toHaveLength(listed.length + 2)
      }),
    )
  })

  it('says the seconds each attempt took', () => {
    const lines = slowestTestsReport([{ title: 'draws', location: 'tests/e2e/render.spec.ts:12', durations: [31_000, 9_400], outcome: 'flaky' }], 15)
    expect(lines).toEqual([
      'Slowest 1 of 1 tests (all attempts):',
      '  1.   40.4 s  tests/e2e/render.spec.ts:12  draws in 2 attempts (31.0 s + 9.4 s) [flaky]',
      '1 flaky test (failed, then passed on a retry)',
    ])
  })

  it('prints nothing for a run with no tests', () => {
    expect(slowestTestsReport([], 15)).toEqual([])
  })
})
