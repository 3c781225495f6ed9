/**
 * What a shopper reads when something fails (issue 15, bugs 4 and 14): our own refusals in their
 * own words, a status in plain words, and never an exception's text ("redacted", a zod issue list,
 * "Keepsake answered 503").
 */
import { ApiFailureError } from '~/lib/api-outcome'
import { ApiClientError } from './api-client-error'
import { statusOf } from './retry'
import { wordsForStatus } from './error-status'

export { SOMETHING_WENT_WRONG, wordsForStatus } from './error-status'

/** Text written for shoppers reads as a sentence; anything else (JSON, stack lines, codes, "redacted") is not shown. */
const SENTENCE = /^[A-Z\u2018\u201c][^{}[\]<>\n]{2,300}$/
const technical = (text: string) => /^[A-Za-z]*Error\b|\bat \S+:\d+|\bundefined\b|\bnull\b|answered \d{3}/.test(text)
const readable = (text: string) => SENTENCE.test(text) && !technical(text)

/** The text to show for a failure, or undefined when it has none a shopper should read. */
export function shopperErrorText(error: unknown): string | undefined {
  const failure = error instanceof ApiFailureError ? error.failure : error instanceof ApiClientError ? error : null
  if (failure) {
    if (failure.status === 0 || failure.status === 401 || failure.status >= 500) return wordsForStatus(failure.status)
    return readable(failure.message) ? failure.message : wordsForStatus(failure.status)
  }
  if (error instanceof Error && readable(error.message.trim())) return error.message.trim()
  return undefined
}

/**
 * The API's words for a dependency outage (app/api/errors.ts `dependencyUnavailable`): a server function hands the
 * browser only an error's message, so a loader's 503 is known there by them.
 */
const OUTAGE_WORDS = /is not answering right now; try again in a moment/

/** A failure because the store or a dependency of it is down for a moment (503): the page shows "we'll be right back". */
export function isOutage(error: unknown): boolean {
  const status = statusOf(error)
  if (status !== undefined) return status === 503
  return error instanceof Error && OUTAGE_WORDS.test(error.message)
}
