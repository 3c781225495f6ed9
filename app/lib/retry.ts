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

/** A 4xx answer other than 408 and 429: asking again would be refused again, so it is never retried. */
export function isRefusal(error: unknown): boolean {
  const status = (error as { status?: unknown } | null)?.status ?? (error as { failure?: { status?: unknown } } | null)?.failure?.status
  return typeof status === 'number' && status >= 400 && status < 500 && status !== 408 && status !== 429
}

/** A refusal answered to the first attempt: "{operation} was refused: {cause}". */
export class RefusedError extends Error {
  constructor(
    readonly operation: string,
    override readonly cause: unknown,
  ) {
    super(`${operation} was refused: ${causeText(cause)}`)
    this.name = 'RefusedError'
  }
}

/**
 * Runs `attempt` up to 3 times; after the last failure throws "{operation} failed after 3 attempts: {cause}".
 * A refusal (`isRefusal`) ends it at once.
 */
export async function withRetry<T>(operation: string, attempt: (attemptNumber: number) => Promise<T>, sleep: Sleep = realSleep): Promise<T> {
  let lastError: unknown
  for (let n = 1; n <= RETRY_ATTEMPTS; n++) {
    try {
      return await attempt(n)
    } catch (error) {
      if (isRefusal(error)) throw new RefusedError(operation, error)
      lastError = error
      if (n < RETRY_ATTEMPTS) await sleep(backoffMs(n))
    }
  }
  throw new RetryError(operation, lastError)
}

/** The bundles variant: after the last failure, answers `fallback` instead of throwing. */
export async function withRetryOrFallback<T>(attempt: (attemptNumber: number) => Promise<T>, fallback: T, sleep: Sleep = realSleep): Promise<T> {
  try {
    return await withRetry('fallback', attempt, sleep)
  } catch {
    return fallback
  }
}

/**
 * The query client's own retry: server functions already retry the API (SPEC.md §8), so a page asks
 * again only when the store itself could not be reached (fetch's TypeError), once.
 */
export const retryUnreachableOnce = (failures: number, error: unknown) => failures < 1 && error instanceof TypeError
