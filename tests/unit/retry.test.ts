import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { RETRY_ATTEMPTS, backoffMs, withRetry, withRetryOrFallback } from '../../app/lib/retry'

beforeEach(() => {
  vi.useFakeTimers()
})
afterEach(() => {
  vi.useRealTimers()
})

describe('the retry rule (SPEC.md §8, §9)', () => {
  it('makes 3 attempts in all', () => {
    expect(RETRY_ATTEMPTS).toBe(3)
  })

  it('waits 2 s after the first failure and 4 s after the second', async () => {
    const calls: number[] = []
    const attempt = vi.fn(async () => {
      calls.push(Date.now())
      throw new Error('offline')
    })
    const start = Date.now()
    const result = withRetry('Upload', attempt).catch((e: Error) => e)
    await vi.advanceTimersByTimeAsync(1999)
    expect(attempt).toHaveBeenCalledTimes(1)
    await vi.advanceTimersByTimeAsync(1)
    expect(attempt).toHaveBeenCalledTimes(2)
    await vi.advanceTimersByTimeAsync(3999)
    expect(attempt).toHaveBeenCalledTimes(2)
    await vi.advanceTimersByTimeAsync(1)
    expect(attempt).toHaveBeenCalledTimes(3)
    expect(calls.map((t) => t - start)).toEqual([0, 2000, 6000])
    const error = await result
    expect(error).toBeInstanceOf(Error)
    expect((error as Error).message).toBe('Upload failed after 3 attempts: offline')
  })

  it('uses 2^attempt seconds as the backoff', () => {
    expect([1, 2].map(backoffMs)).toEqual([2000, 4000])
  })

  it('answers as soon as an attempt succeeds', async () => {
    let n = 0
    const result = withRetry('Create upload link', async () => {
      n++
      if (n < 2) throw new Error('busy')
      return 'https://signed.example/put'
    })
    await vi.advanceTimersByTimeAsync(2000)
    await expect(result).resolves.toBe('https://signed.example/put')
    expect(n).toBe(2)
  })

  it('names a non-Error cause in the final message', async () => {
    const result = withRetry('Upload', () => Promise.reject('timeout')).catch((e: Error) => e.message)
    await vi.advanceTimersByTimeAsync(6000)
    await expect(result).resolves.toBe('Upload failed after 3 attempts: timeout')
  })

  it('bundles fall back to an empty list after the last failure', async () => {
    const attempt = vi.fn(() => Promise.reject(new Error('503')))
    const result = withRetryOrFallback(attempt, [] as string[])
    await vi.advanceTimersByTimeAsync(6000)
    await expect(result).resolves.toEqual([])
    expect(attempt).toHaveBeenCalledTimes(3)
  })
})

describe('refusals', () => {
  it('a 4xx other than 408 and 429 ends the attempts at once, with the refusal as the cause', async () => {
    const { withRetry, isRefusal } = await import('../../app/lib/retry')
    for (const status of [400, 401, 403, 404, 409, 413, 415, 422]) {
      let asked = 0
      const waits: number[] = []
      const refused = Object.assign(new Error('No such photo'), { status })
      await expect(
        withRetry(
          'Upload',
          async () => {
            asked++
            throw refused
          },
          async (ms) => void waits.push(ms),
        ),
      ).rejects.toThrow('Upload was refused: No such photo')
      expect(asked, String(status)).toBe(1)
      expect(waits).toEqual([])
      expect(isRefusal(refused)).toBe(true)
    }
    for (const status of [408, 429, 500, 502, 503, 0]) expect(isRefusal({ status }), String(status)).toBe(false)
    expect(isRefusal({ failure: { status: 404 } })).toBe(true)
    expect(isRefusal(new TypeError('Failed to fetch'))).toBe(false)
  })

  it('the query client asks again only when the store could not be reached, and once', async () => {
    const { retryUnreachableOnce } = await import('../../app/lib/retry')
    expect(retryUnreachableOnce(0, new TypeError('Failed to fetch'))).toBe(true)
    expect(retryUnreachableOnce(1, new TypeError('Failed to fetch'))).toBe(false)
    expect(retryUnreachableOnce(0, new Error('We could not reach Keepsake'))).toBe(false)
  })
})
