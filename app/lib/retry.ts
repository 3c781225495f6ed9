/** SPEC.md §8, §9: uploads, upload-link creation and bundle fetching make 3 attempts, waiting 2^attempt s between them. */
export const RETRY_ATTEMPTS = 3
export const backoffMs = (attempt: number) => 2 ** attempt * 1000

export type Sleep = (ms: number) => Promise<void>
const realSleep: Sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms))

export class RetryError extends Error {
  constructor(
    readonly operation: string,
    override readonly cause: unknown,
  ) {
    super(`${operation} failed after ${RETRY_ATTEMPTS} attempts: ${causeText(cause)}`)
    this.name = 'RetryError'
  }
}

function causeText(cause: unknown): string {
  if (cause instanceof Error) return cause.message
  return typeof cause === 'string' ? cause : JSON.stringify(cause)
}

/** Runs `attempt` up to 3 times; after the last failure throws "{operation} failed after 3 attempts: {cause}". */
export async function withRetry<T>(
  operation: string,
  attempt: (attemptNumber: number) => Promise<T>,
  sleep: Sleep = realSleep,
): Promise<T> {
  let lastError: unknown
  for (let n = 1; n <= RETRY_ATTEMPTS; n++) {
    try {
      return await attempt(n)
    } catch (error) {
      lastError = error
      if (n < RETRY_ATTEMPTS) await sleep(backoffMs(n))
    }
  }
  throw new RetryError(operation, lastError)
}

/** The bundles variant: after the last failure, answers `fallback` instead of throwing. */
export async function withRetryOrFallback<T>(
  attempt: (attemptNumber: number) => Promise<T>,
  fallback: T,
  sleep: Sleep = realSleep,
): Promise<T> {
  try {
    return await withRetry('fallback', attempt, sleep)
  } catch {
    return fallback
  }
}
