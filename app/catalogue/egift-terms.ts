/**
 * The e-gift terms (issue 7), without zod, so the e-gift pages can show them without loading the
 * contract's schemas (decision 004).
 */
/** The amounts offered as one-tap choices, in whole dollars. */
export const EGIFT_PRESET_DOLLARS = [25, 50, 75, 100] as const
/** A custom amount is whole dollars in this range. */
export const EGIFT_MIN_DOLLARS = 10
export const EGIFT_MAX_DOLLARS = 500
export const EGIFT_MESSAGE_MAX = 300
/** The sender's and the recipient's names, as the form's fields limit them. */
export const EGIFT_NAME_MAX = 60
/** A gift can be scheduled up to this many days ahead. */
export const EGIFT_MAX_SEND_DAYS = 365
/** A gift code can be redeemed for this long after it is issued (the US CARD Act's minimum for gift cards). */
export const EGIFT_VALID_YEARS = 5

/** KEEP-XXXX-XXXX-XXXX: 60 random bits in Crockford base 32 (no I, L, O, U), grouped for reading aloud. */
export const EGIFT_CODE_PATTERN = /^KEEP-[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{4}$/

/**
 * What a shopper types: case, spaces and dashes do not matter, and the letters people confuse with
 * digits (O, I, L) read as the digits, as Crockford's alphabet intends.
 */
export function normaliseEgiftCode(raw: string): string | null {
  const compact = raw.toUpperCase().replace(/[\s-]/g, '').replace(/^KEEP/, '').replace(/O/g, '0').replace(/[IL]/g, '1')
  if (!/^[0-9A-HJKMNP-TV-Z]{12}$/.test(compact)) return null
  return `KEEP-${compact.slice(0, 4)}-${compact.slice(4, 8)}-${compact.slice(8)}`
}
