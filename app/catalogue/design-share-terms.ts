/**
 * The terms of "Share for a look" (issue 19, part 5), without zod, so the share page's note field
 * counts and refuses exactly as the API does (contract/design-shares.ts).
 */

/** A share link's token: 128 random bits, base64url without padding. */
export const SHARE_TOKEN = /^[A-Za-z0-9_-]{22}$/

/** A family member's note on a shared design is one line of at most this many characters. */
export const SHARE_NOTE_MAX = 140

/** A saved design is sent to at most this many family links at once (revoked ones do not count). */
export const LIVE_SHARES_PER_DESIGN = 10

/** Control characters and line or paragraph separators: a note is one line of plain text. */
const NOT_ONE_LINE = /[\p{Cc}\u2028\u2029]/u

/** Characters as a person counts them: an emoji is one, not two UTF-16 code units. */
export const noteLength = (note: string) => [...note.trim()].length

/** Why a note cannot be sent (after trimming), or null when it can. */
export function noteProblem(note: string): string | null {
  const trimmed = note.trim()
  if (trimmed === '') return 'Write a note, or delete it'
  if (NOT_ONE_LINE.test(trimmed)) return 'A note is one line of text: remove line breaks and tabs'
  if (noteLength(trimmed) > SHARE_NOTE_MAX) return `A note is at most ${SHARE_NOTE_MAX} characters`
  return null
}
