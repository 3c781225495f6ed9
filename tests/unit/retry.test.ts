import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { isRefusal, OperationError, retryUnreachableOnce, withRetry, withRetryOrFallback } from '../../app/lib/retry'

/** A sleep that only records how long it was asked to wait: no clock runs. */
function recordingSleep() {
  const waits: number[] = []
  return { waits, sleep: async (ms: number) => void waits.push(ms) }
}

/** A failure as the callers raise them: with a status (0 for no answer) and perhaps a Retry-After, or none (a TypeError, a timeout). */
type Failure = { status?: number; retryAfterMs?: number }
const failed = (f: Failure) => Object.assign(new Error(`failed ${f.status ?? 'without a status'}`), f)

const worthAnother: fc.Arbitrary<Failure> = fc.oneof(
  fc.constant<Failure>({}),
  fc.constantFrom<Failure>({ status: 0 }, { status: 408 }, { status: 429 }),
  fc.integer({ min: 500, max: 599 }).map((status) => ({ status })),
  fc.integer({ min: 0, max: 8_000 }).map((retryAfterMs) => ({ status: 429, retryAfterMs })),
)
const refusal: fc.Arbitrary<Failure> = fc.oneof(
  fc
    .integer({ min: 400, max: 499 })
    .filter((s) => s !== 408 && s !== 429)
    .map((status) => ({ status })),
  fc.integer({ min: 8_001, max: 600_000 }).map((retryAfterMs) => ({ status: 429, retryAfterMs })),
)

describe('the retry rule (SPEC.md §8, §9)', () => {
  it('asks until an attempt succeeds, at most 3 times, waiting 2 s then 4 s (or a longer Retry-After)', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(worthAnother, { maxLength: 4 }), async (failures) => {
        const { waits, sleep } = recordingSleep()
        let asked = 0
        const result = await withRetry(
          async () => {
            const failure = failures[asked++]
            if (failure) throw failed(failure)
            return 'answer'
          },
          { sleep },
        ).catch((e: unknown) => e)
        const attempts = Math.min(failures.length + 1, 3)
        expect(asked).toBe(attempts)
        if (failures.length < 3) expect(result).toBe('answer')
        else expect(result).toMatchObject({ message: `failed ${failures[2]!.status ?? 'without a status'}` })
        expect(waits).toEqual([2000, 4000].slice(0, attempts - 1).map((backoff, i) => Math.max(backoff, failures[i]!.retryAfterMs ?? 0)))
      }),
    )
  })

  it('never repeats a refusal: asked once, no wait, thrown as it came', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(worthAnother, { maxLength: 1 }), refusal, async (before, refused) => {
        const { waits, sleep } = recordingSleep()
        const script = [...before, refused]
        let asked = 0
        const error = await withRetry(
          async () => {
            throw failed(script[asked++]!)
          },
          { sleep },
        ).catch((e: unknown) => e)
        expect(asked).toBe(script.length)
        expect(waits).toHaveLength(before.length)
        expect(error).toMatchObject({ status: refused.status })
        expect(isRefusal(error)).toBe(true)
      }),
    )
  })

  it('classifies a failure once: a refusal is a 4xx other than 408, or a 429 asking more than 8 s', () => {
    fc.assert(fc.property(refusal, (f) => isRefusal(failed(f))))
    fc.assert(fc.property(worthAnother, (f) => !isRefusal(failed(f))))
    // A failed outcome raised in the browser (ApiFailureError) carries its status under `failure`.
    expect(isRefusal({ failure: { status: 404 } })).toBe(true)
    expect(isRefusal({ failure: { status: 503 } })).toBe(false)
    expect(isRefusal(new TypeError('Failed to fetch'))).toBe(false)
    expect(isRefusal(null)).toBe(false)
  })

  it('names an operation’s last failure "{operation} failed after 3 attempts: {cause}", keeping its status', async () => {
    const { sleep } = recordingSleep()
    const error = await withRetry(() => Promise.reject(failed({ status: 503 })), { operation: 'Upload', sleep }).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(OperationError)
    expect(error).toMatchObject({ message: 'Upload failed after 3 attempts: failed 503', status: 503 })
    const text = await withRetry(() => Promise.reject('timeout'), { operation: 'Upload', sleep }).catch((e: Error) => e.message)
    expect(text).toBe('Upload failed after 3 attempts: timeout')
  })

  it('names an operation’s refusal "{operation} was refused: {cause}", asked once, its status kept for the page', async () => {
    const { waits, sleep } = recordingSleep()
    let asked = 0
    const error = await withRetry(
      async () => {
        asked++
        throw Object.assign(new Error('No such photo'), { status: 404 })
      },
      { operation: 'Upload', sleep },
    ).catch((e: unknown) => e)
    expect(error).toMatchObject({ message: 'Upload was refused: No such photo', status: 404 })
    expect([asked, waits]).toEqual([1, []])
  })

  it('bundles fall back after the last failure, and at once after a refusal', async () => {
    const { waits, sleep } = recordingSleep()
    let asked = 0
    const attempt = async () => {
      asked++
      throw failed({ status: 503 })
    }
    await expect(withRetryOrFallback(attempt, [] as string[], sleep)).resolves.toEqual([])
    expect([asked, waits]).toEqual([3, [2000, 4000]])
    asked = 0
    await expect(withRetryOrFallback(() => (asked++, Promise.reject(failed({ status: 404 }))), null, sleep)).resolves.toBeNull()
    expect(asked).toBe(1)
  })

  it('the query client asks again only when the store could not be reached, and once', () => {
    expect(retryUnreachableOnce(0, new TypeError('Failed to fetch'))).toBe(true)
    expect(retryUnreachableOnce(1, new TypeError('Failed to fetch'))).toBe(false)
    expect(retryUnreachableOnce(0, new Error('We could not reach Keepsake'))).toBe(false)
  })
})
