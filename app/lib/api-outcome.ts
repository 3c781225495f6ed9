import type { ErrorCode } from '~/contract/errors'

/**
 * A refusal from the album API as a server function hands it to the page. Start sends only an
 * error's message across the wire, so calls whose page needs the code (a declined card, a checkout
 * that ended) answer an outcome instead of throwing.
 */
export type ApiFailure = {
  status: number
  code: ErrorCode | 'network'
  message: string
  issues: { path: string; message: string }[]
}

export type ApiOutcome<T> = { ok: true; data: T } | { ok: false; error: ApiFailure }

/** A failed outcome raised in the browser, keeping its code for whoever catches it. */
export class ApiFailureError extends Error {
  constructor(readonly failure: ApiFailure) {
    super(failure.message)
    this.name = 'ApiFailureError'
  }
}

export function unwrap<T>(outcome: ApiOutcome<T>): T {
  if (outcome.ok) return outcome.data
  throw new ApiFailureError(outcome.error)
}

/** A call that never reached the API (the network, the server function itself): a failure like any other, code 'network'. */
export const unreachable = (error: unknown): ApiOutcome<never> => ({
  ok: false,
  error: { status: 0, code: 'network', message: error instanceof Error ? error.message : 'Keepsake could not be reached', issues: [] },
})
