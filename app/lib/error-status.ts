/** A failure's status in the shopper's words (issue 15, bug 14): never "Keepsake answered 503". Imports nothing, so the API client can use it. */
export const SOMETHING_WENT_WRONG = 'Something went wrong on our side. Please try again in a moment.'

/** A failure's status in the shopper's words; 0 is "no answer at all". */
export function wordsForStatus(status: number): string {
  if (status === 0) return 'We could not reach Keepsake. Check your connection and try again.'
  if (status === 401) return 'You are signed out. Sign in and try again.'
  if (status === 413) return 'That is too large for us to take.'
  if (status === 429) return 'That was a lot of tries in a short time. Please wait a little and try again.'
  if (status === 503) return 'Keepsake is taking a short break for maintenance or is very busy. Please try again in a few minutes.'
  return SOMETHING_WENT_WRONG
}
