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
