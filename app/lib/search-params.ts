/**
 * Small checks for values read from a URL's query string: what does not pass is dropped (undefined),
 * never an error, since a shopper can arrive with any query string. Written out by hand because they
 * run in every page's first load, where even zod/mini's core is ~15 KB gzip (decision 004).
 */

/** zod's UUID (RFC 9562: a version 1–8 and the variant bits), plus the nil and max UUIDs. */
const UUID = /^([0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[1-8][0-9a-fA-F]{3}-[89abAB][0-9a-fA-F]{3}-[0-9a-fA-F]{12}|00000000-0000-0000-0000-000000000000|ffffffff-ffff-ffff-ffff-ffffffffffff)$/

export function uuidOrUndefined(value: unknown): string | undefined {
  return typeof value === 'string' && UUID.test(value) ? value : undefined
}

/** A string of at most `max` characters (and at least `min`). */
export function textOrUndefined(value: unknown, max: number, min = 0): string | undefined {
  return typeof value === 'string' && value.length >= min && value.length <= max ? value : undefined
}

export function oneOfOrUndefined<T extends string>(value: unknown, allowed: readonly T[]): T | undefined {
  return typeof value === 'string' && (allowed as readonly string[]).includes(value) ? (value as T) : undefined
}
