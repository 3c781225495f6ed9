/**
 * The one rule for text anyone sends us (issue 15, bug 12): PostgreSQL's `text` and `jsonb` cannot
 * hold a NUL character (U+0000) or half of a surrogate pair (what is left of an emoji cut in two),
 * so a string holding one never reaches a query. The API applies it to every request's path
 * parameters, query and JSON body — values and keys, at any depth — before its schema
 * (app/api/endpoint.ts), so no schema can forget it.
 */
export const UNSTORABLE_TEXT_MESSAGE = 'This text holds a character we cannot store (a NUL character or half of an emoji); remove it and try again'

/** NUL, a high surrogate not followed by a low one, or a low surrogate not preceded by a high one (code units: no `u` flag). */
const UNSTORABLE = /\u0000|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/

export function isStorableText(text: string): boolean {
  return !UNSTORABLE.test(text)
}

/** The path of the first string (or key) in `value` that is not storable, or null when all are. */
export function unstorableTextPath(value: unknown, path: string[] = [], depth = 0): string[] | null {
  if (typeof value === 'string') return isStorableText(value) ? null : path
  if (value === null || typeof value !== 'object' || depth > 64) return null
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = unstorableTextPath(value[i], [...path, String(i)], depth + 1)
      if (found) return found
    }
    return null
  }
  for (const [key, inner] of Object.entries(value)) {
    if (!isStorableText(key)) return [...path, JSON.stringify(key).slice(1, -1)]
    const found = unstorableTextPath(inner, [...path, key], depth + 1)
    if (found) return found
  }
  return null
}
