import type { ErrorCode } from '../contract/errors'

/** A refusal the API explains to its client; services throw it without knowing about HTTP. */
export class AppError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly issues?: { path: string; message: string }[],
    /** A refusal that lifts by itself (a rate limit): when, sent as Retry-After. */
    readonly retryAfterMs?: number,
  ) {
    super(message)
    this.name = 'AppError'
  }
}

export const notFound = (what: string) => new AppError('not_found', `${what} not found`)

/** How long a client is told to wait after a dependency outage (Retry-After): a restart or failover is seconds. */
export const OUTAGE_RETRY_AFTER_MS = 5000

/**
 * A dependency (the database, Redis, object storage, a mail server) is gone, hung or past its deadline: 503 with
 * Retry-After in the error shape, never a 500 (issue 43). `what` names it for the shopper in plain words.
 */
export const dependencyUnavailable = (what: string, retryAfterMs = OUTAGE_RETRY_AFTER_MS) =>
  new AppError('unavailable', `${what} is not answering right now; try again in a moment`, undefined, retryAfterMs)
