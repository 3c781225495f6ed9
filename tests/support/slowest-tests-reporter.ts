import path from 'node:path'
import type { FullConfig, FullResult, Reporter, TestCase, TestResult } from '@playwright/test/reporter'

/**
 * Lists the slowest browser tests when a run ends, beside the run's own reporter ('line' in CI): the
 * place to look first when the browser stage grows (issue 29). A test's time is all of its attempts,
 * so a test that passed on its retry counts what the retry cost; the same line marks it flaky.
 */

/** One test as the run left it: where it is, every attempt's time, and how it came out. */
export type TestTiming = {
  title: string
  location: string
  durations: number[]
  outcome: ReturnType<TestCase['outcome']>
}

/** The `count` slowest tests, slowest first (ties by place in the suite, so the list is stable). */
export function slowestTests(timings: TestTiming[], count: number): TestTiming[] {
  const total = (t: TestTiming) => t.durations.reduce((sum, ms) => sum + ms, 0)
  return [...timings].sort((a, b) => total(b) - total(a) || a.location.localeCompare(b.location) || a.title.localeCompare(b.title)).slice(0, count)
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`

/** The report's lines: a heading, one line per slow test, and how many tests were flaky. */
export function slowestTestsReport(timings: TestTiming[], count: number): string[] {
  if (timings.length === 0) return []
  const slowest = slowestTests(timings, count)
  const flaky = timings.filter((t) => t.outcome === 'flaky').length
  const lines = [`Slowest ${slowest.length} of ${timings.length} tests (all attempts):`]
  slowest.forEach((t, i) => {
    const total = t.durations.reduce((sum, ms) => sum + ms, 0)
    const attempts = t.durations.length > 1 ? ` in ${t.durations.length} attempts (${t.durations.map(seconds).join(' + ')})` : ''
    const mark = t.outcome === 'expected' ? '' : ` [${t.outcome}]`
    lines.push(`${String(i + 1).padStart(3)}. ${seconds(total).padStart(8)}  ${t.location}  ${t.title}${attempts}${mark}`)
  })
  lines.push(`${flaky} flaky test${flaky === 1 ? '' : 's'} (failed, then passed on a retry)`)
  return lines
}

export default class SlowestTestsReporter implements Reporter {
  readonly #count: number
  readonly #timings = new Map<TestCase, number[]>()
  #rootDir = process.cwd()

  constructor(options: { count?: number } = {}) {
    this.#count = options.count ?? 15
  }

  onBegin(config: FullConfig) {
    // Places relative to the project (the config's folder), as the 'line' reporter prints them.
    this.#rootDir = config.configFile ? path.dirname(config.configFile) : process.cwd()
  }

  onTestEnd(test: TestCase, result: TestResult) {
    if (result.status === 'skipped') return
    this.#timings.set(test, [...(this.#timings.get(test) ?? []), result.duration])
  }

  onEnd(_result: FullResult) {
    const timings = [...this.#timings].map(([test, durations]) => ({
      title: test.titlePath().slice(3).join(' › '),
      location: `${path.relative(this.#rootDir, test.location.file)}:${test.location.line}`,
      durations,
      outcome: test.outcome(),
    }))
    const lines = slowestTestsReport(timings, this.#count)
    if (lines.length > 0) process.stdout.write(`\n${lines.join('\n')}\n`)
  }

  printsToStdio() {
    return true
  }
}
