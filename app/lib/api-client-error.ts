import type { ErrorCode } from '../contract/errors'
import { operationFailedMessage } from './retry'

/**
 * The album API client's failure, on its own so browser code (app/lib/error-text.ts, which every page's
 * router loads) can recognise one without loading the client and, through it, the contract's classic zod
 * schemas (decision 046). Only a type comes from the contract here.
 *
 * A refusal or failure from the album API, carrying its status and error code.
 */
export class ApiClientError extends Error {
  constructor(
    readonly status: number,
    readonly code: ErrorCode | 'network',
    message: string,
    /** Field-level refusals of a 400, e.g. `{ path: 'body.shippingAddress.postalCode', message }`. */
    readonly issues: { path: string; message: string }[] = [],
    /** What went wrong underneath (a network error), for logs; never shown. */
    cause?: unknown,
    /** A 429's or 503's Retry-After, in milliseconds. */
    readonly retryAfterMs?: number,
  ) {
    super(message, cause === undefined ? undefined : { cause })
    this.name = 'ApiClientError'
  }

  /** The same failure told as `operation`'s (app/lib/retry.ts `operationFailedMessage`), its status and code kept for the page. */
  named(operation: string): ApiClientError {
    return new ApiClientError(this.status, this.code, operationFailedMessage(operation, this), this.issues, this, this.retryAfterMs)
  }
}
