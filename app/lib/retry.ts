/**
 * SPEC.md §8, §9's retry rule, written once: which failures are worth another attempt, how long to wait
 * before it, how many attempts, and what the shopper reads after the last. Each call has one layer of
 * retry (issue 29): the server's API client for calls through server functions, the browser only for
 * what it sends itself (the signed upload PUT, the bundles GET).
 */
export const RETRY_ATTEMPTS = 3
/** 2^attempt seconds after the attempt-th failure: 2 s, then 4 s. */
export const backoffMs = (attempt: number) => 2 ** attempt * 1000
/** A 429 asking to wait longer than this is answered to the shopper rather than waited out. */
export const MAX_RETRY_AFTER_MS = 8_000

export type Sleep = (ms: number) => Promise<void>
export const realSleep: Sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms))

type Described = { status?: unknown; retryAfterMs?: unknown; failure?: { status?: unknown } } | null | undefined

/** The HTTP status a failure carries (an ApiClientError, a refused PUT, a failed outcome in the browser), if any. */
export function statusOf(error: unknown): number | undefined {
  const status = (error as Described)?.status ?? (error as Described)?.failure?.status
  return typeof status === 'number' ? status : undefined
}

const retryAfterOf = (error: unknown): number | undefined => {
  const wait = (error as Described)?.retryAfterMs
  return typeof wait === 'number' ? wait : undefined
}

/**
 * A refusal: asking again would be refused again, so it is never retried — a 4xx other than 408 and
 * 429, or a 429 asking for a longer wait than we keep the shopper waiting. Everything else (no answer,
 * a timeout, a 5xx, a 408, a short 429, a failure with no status) is worth another attempt.
 */
export function isRefusal(error: unknown): boolean {
  const status = statusOf(error)
  if (status === undefined) return false
  if (status === 429) return (retryAfterOf(error) ?? 0) > MAX_RETRY_AFTER_MS
  return status >= 400 && status < 500 && status !== 408
}

/** How long to wait after the attempt-th failure: the backoff, or the failure's Retry-After when longer. */
export const delayAfter = (attempt: number, error: unknown) => Math.max(backoffMs(attempt), retryAfterOf(error) ?? 0)

function causeText(cause: unknown): string {
  if (cause instanceof Error) return cause.message
  return typeof cause === 'string' ? cause : JSON.stringify(cause)
}

/**
 * What the shopper reads when a named operation ends in failure: "{operation} was refused: {cause}" for a
 * refusal (asked once), else SPEC.md §8's "{operation} failed after 3 attempts: {cause}".
 */
export function operationFailedMessage(operation: string, cause: unknown): string {
  return isRefusal(cause) ? `${operation} was refused: ${causeText(cause)}` : `${operation} failed after ${RETRY_ATTEMPTS} attempts: ${causeText(cause)}`
}

/** A named operation's last failure, or its refusal, keeping the cause's status for whoever catches it. */
export class OperationError extends Error {
  readonly status: number | undefined
  constructor(
    readonly operation: string,
    override readonly cause: unknown,
  ) {
    super(operationFailedMessage(operation, cause))
    this.name = 'OperationError'
    this.status = statusOf(cause)
  }
}

export type RetryOptions = {
  /** Named, the last failure or the refusal is thrown as an OperationError; unnamed, as it is. */
  operation?: string
  sleep?: Sleep
}

/** Runs `attempt` up to 3 times, waiting `delayAfter` between; a refusal ends it at once. */
export async function withRetry<T>(attempt: (attemptNumber: number) => Promise<T>, { operation, sleep = realSleep }: RetryOptions = {}): Promise<T> {
  for (let n = 1; ; n++) {
    try {
      return await attempt(n)
    } catch (error) {
      if (n >= RETRY_ATTEMPTS || isRefusal(error)) throw operation === undefined ? error : new OperationError(operation, error)
      await sleep(delayAfter(n, error))
    }
  }
}

/** The bundles variant: after the last failure (or a refusal), answers `fallback` instead of throwing. */
export async function withRetryOrFallback<T>(attempt: (attemptNumber: number) => Promise<T>, fallback: T, sleep?: Sleep): Promise<T> {
  try {
    return await withRetry(attempt, { sleep })
  } catch {
    return fallback
  }
}

/** The store itself could not be reached: fetch's TypeError (no connection, or the request cut off on the way). */
export const isUnreachable = (error: unknown) => error instanceof TypeError

/**
 * The query client's own retry: server functions already retry the API (SPEC.md §8), so a page asks
 * again only when the store itself could not be reached (fetch's TypeError), once.
 */
export const retryUnreachableOnce = (failures: number, error: unknown) => failures < 1 && isUnreachable(error)
