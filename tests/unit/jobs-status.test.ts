import { describe, expect, it } from 'vitest'
import { jobsStatusOf } from '../../app/features/utils/jobs-status'

describe('failed jobs on /utils/status', () => {
  it('none failed is good news', () => {
    expect(jobsStatusOf(0)).toMatchObject({ failed: 0, tone: 'ok', label: 'None failed' })
  })

  it('a failed job asks for a person and says where the log line is', () => {
    expect(jobsStatusOf(1)).toMatchObject({ failed: 1, tone: 'attention', label: '1 failed' })
    expect(jobsStatusOf(1).explanation).toMatch(/^1 job ran out of attempts and waits for a person/)
    expect(jobsStatusOf(3).explanation).toMatch(/^3 jobs ran out of attempts and wait for a person/)
    expect(jobsStatusOf(3).explanation).toContain('[jobs] gave up')
  })

  it('a count that could not be read says so instead of claiming none', () => {
    expect(jobsStatusOf(null)).toMatchObject({ failed: null, tone: 'unknown', label: 'Unknown' })
  })
})
