/**
 * What a shopper reads when something fails (issue 15, bugs 4 and 14): our own refusals in their
 * own words, a status in plain words, and never an exception's text ("redacted", a zod issue list,
 * "Keepsake answered 503").
 */
import { ApiFailureError } from '~/lib/api-outcome'
import { ApiClientError } from './api-client-error'
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
