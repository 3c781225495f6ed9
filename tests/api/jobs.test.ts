import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { jobs } from '../../app/api/db/schema'
import { claimJob, drainJobs, enqueueJob, type JobHandlers } from '../../app/api/services/jobs'
import { createTestApi, type TestApi } from '../support/test-api'

/** The lease of a running job: renewed while its worker lives, and only the run that holds it may finish it. */
let t: TestApi
beforeAll(async () => {
  t = await createTestApi({ JOB_LEASE_SECONDS: '1' })
})
afterAll(() => t.close())
beforeEach(async () => {
  await t.db.delete(jobs)
})

const leaseMs = 1000
const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))
const advance = (ms: number) => t.setNow(new Date(t.now().getTime() + ms))
const enqueue = () => enqueueJob(t.db, { kind: 'test-slow', dedupeKey: `test-slow:${t.now().getTime()}`, payload: {}, runAt: t.now() })
const takeOver = () => claimJob(t.db, t.now(), ['test-slow'], { id: 'another-worker', leaseMs })

describe('job leases', () => {
  it('a running job’s lease is renewed while its worker lives, so no other worker takes it', async () => {
    await enqueue()
    let taken: unknown = 'not tried'
    const handlers: JobHandlers = {
      'test-slow': {
        run: async () => {
          // Longer than the lease in all, in steps shorter than it, each followed by a heartbeat.
          for (let i = 0; i < 3; i++) {
            advance(leaseMs * 0.6)
            await wait(leaseMs / 2)
          }
          taken = await takeOver()
        },
      },
    }
    expect(await drainJobs(t.api.deps, handlers)).toEqual([expect.objectContaining({ outcome: 'done' })])
    expect(taken).toBeNull()
    expect((await t.db.select().from(jobs))[0]).toMatchObject({ status: 'done', attempts: 1, lockedBy: null, lockedUntil: null })
  })

  it('a run whose lease ran out (its worker stalled) and was taken over cannot finish the job', async () => {
    await enqueue()
    const handlers: JobHandlers = {
      'test-slow': {
        run: async () => {
          advance(leaseMs + 1)
          expect(await takeOver()).toMatchObject({ status: 'running', attempts: 2, lockedBy: 'another-worker' })
        },
      },
    }
    expect(await drainJobs(t.api.deps, handlers)).toEqual([expect.objectContaining({ outcome: 'lost' })])
    const [row] = await t.db.select().from(jobs).where(eq(jobs.kind, 'test-slow'))
    expect(row).toMatchObject({ status: 'running', attempts: 2, lockedBy: 'another-worker' })
  })
})
