import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { onLogLine } from '../../app/observability/log'
import { jobs } from '../../app/api/db/schema'
import { drainJobs, enqueueJob, type JobHandlers } from '../../app/api/services/jobs'
import { createTestApi, type TestApi } from '../support/test-api'

/** A job that fails for good is visible to the people who run the store: one log line, a count, and (demo mode) a list. */
let t: TestApi
let start: Date
beforeAll(async () => {
  t = await createTestApi()
  start = t.now()
})
afterAll(() => t.close())
beforeEach(async () => {
  t.setNow(start)
  await t.db.delete(jobs)
})

/** The log lines (decision 045) at error and at warn level, by message. */
let errors: string[]
let warnings: string[]
let stop: () => void
beforeEach(() => {
  errors = []
  warnings = []
  stop = onLogLine(
    (line) => {
      if (line.level === 50) errors.push(String(line.msg))
      if (line.level === 40) warnings.push(String(line.msg))
    },
    { silence: true },
  )
})
afterEach(() => stop())

const later = (ms: number) => t.setNow(new Date(t.now().getTime() + ms))
const enqueue = (kind: string, dedupeKey: string, maxAttempts = 2) => enqueueJob(t.db, { kind, dedupeKey, payload: {}, runAt: t.now(), maxAttempts })

const failing: JobHandlers = {
  'test-print': {
    run: async () => {
      throw new Error('Printify answered 503:\n  service unavailable')
    },
  },
}

/** Runs the handlers until nothing is due within the next hour of the test clock. */
async function drainUntilSettled(handlers: JobHandlers) {
  const outcomes = []
  for (let i = 0; i < 10; i++) {
    outcomes.push(...(await drainJobs(t.api.deps, handlers)))
    later(15 * 60_000)
  }
  return outcomes
}

describe('a job that runs out of attempts', () => {
  it('logs one line at give-up with its kind, dedupe key, attempts and last error', async () => {
    await enqueue('test-print', 'test-print:order-42')
    const outcomes = await drainUntilSettled(failing)
    expect(outcomes.map((o) => o.outcome)).toEqual(['retry', 'failed'])
    const lines = errors.filter((line) => line.includes('gave up'))
    expect(lines).toEqual(['[jobs] gave up: kind=test-print key=test-print:order-42 attempts=2/2 last error: Printify answered 503: service unavailable'])
    // The attempt before it is a warning, not a give-up.
    expect(warnings).toEqual([expect.stringContaining('test-print:order-42 attempt 1')])
  })

  it('a give-up step that throws is logged and does not stop the drain', async () => {
    await enqueue('test-print', 'test-print:a', 1)
    await enqueue('test-ok', 'test-ok:b', 1)
    let ran = false
    const handlers: JobHandlers = {
      'test-print': {
        ...failing['test-print']!,
        onGiveUp: async () => {
          throw new Error('order not found')
        },
      },
      'test-ok': {
        run: async () => {
          ran = true
        },
      },
    }
    expect((await drainJobs(t.api.deps, handlers)).map((o) => [o.kind, o.outcome])).toEqual([
      ['test-print', 'failed'],
      ['test-ok', 'done'],
    ])
    expect(ran).toBe(true)
    expect(errors.some((line) => line.includes('test-print:a: the give-up step failed'))).toBe(true)
  })
})

describe('GET /v1/status/jobs', () => {
  it('counts the failed jobs, and only them', async () => {
    expect((await t.request('/v1/status/jobs')).body).toEqual({ failedJobs: 0 })
    await enqueue('test-print', 'test-print:1', 1)
    await enqueue('test-print', 'test-print:2', 1)
    await drainJobs(t.api.deps, failing)
    await enqueue('test-print', 'test-print:queued', 1)
    const res = await t.request('/v1/status/jobs')
    expect(res.status).toBe(200)
    expect(res.body).toEqual({ failedJobs: 2 })
  })
})

describe('GET /v1/demo/failed-jobs', () => {
  it('lists the failed jobs, most recently failed first, with kind, key, attempts, last error and when', async () => {
    await enqueue('test-print', 'test-print:older', 1)
    await drainJobs(t.api.deps, failing)
    const olderAt = t.now()
    later(60_000)
    await enqueue('test-print', 'test-print:newer', 2)
    await drainUntilSettled(failing)
    await enqueue('test-ok', 'test-ok:fine', 1)
    await drainJobs(t.api.deps, { 'test-ok': { run: async () => undefined } })

    const res = await t.request('/v1/demo/failed-jobs')
    expect(res.status).toBe(200)
    expect(res.body.total).toBe(2)
    expect(res.body.jobs.map((j: { dedupeKey: string }) => j.dedupeKey)).toEqual(['test-print:newer', 'test-print:older'])
    expect(res.body.jobs[1]).toEqual({
      id: expect.any(Number),
      kind: 'test-print',
      dedupeKey: 'test-print:older',
      attempts: 1,
      maxAttempts: 1,
      lastError: 'Printify answered 503:\n  service unavailable',
      failedAt: olderAt.toISOString(),
      createdAt: expect.any(String),
    })
    expect(res.body.jobs[0]).toMatchObject({ attempts: 2, maxAttempts: 2 })
  })

  it('is absent when demo mode is off, while the count stays', async () => {
    const live = await createTestApi({ DEMO_MODE: 'false' })
    try {
      expect((await live.request('/v1/demo/failed-jobs')).status).toBe(404)
      expect((await live.request('/v1/status/jobs')).body).toEqual({ failedJobs: 0 })
    } finally {
      await live.close()
    }
  })
})
