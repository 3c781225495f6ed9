import fc from 'fast-check'

/** The origin a browser resolves a `Location` (or `location.replace`) against: the property's oracle. */
export const STORE_ORIGIN = 'https://store.example'

/**
 * Whether `target` is a path on this site wherever the browser resolves it from: a relative reference
 * that starts with one slash, keeps the store's origin from any page, and carries nothing a header or
 * a browser would read differently (control characters, backslashes).
 */
export function isSameSitePath(target: string): boolean {
  if (!target.startsWith('/') || /[\\\u0000-\u001f\u007f]/.test(target)) return false
  return ['/', '/auth/continue?code=x', '/auth/link', '/a/b/c/'].every((page) => {
    try {
      return new URL(target, new URL(page, STORE_ORIGIN)).origin === STORE_ORIGIN
    } catch {
      return false // "//" with no host: the browser would not follow it at all
    }
  })
}

/** Pieces an attacker strings together: dot segments (plain and encoded), slashes, backslashes, whitespace, schemes and hosts. */
const pieces = fc.constantFrom(
  '/',
  '//',
  '///',
  '.',
  '..',
  './',
  '../',
  '/./',
  '/../',
  '%2e',
  '%2E',
  '%2e%2e',
  '.%2e',
  '%2f',
  '%2F',
  '%5c',
  '%5C',
  '\\',
  '/\\',
  '\\/',
  '\t',
  '\n',
  '\r',
  '%09',
  '%0a',
  ' ',
  '\u3000',
  '\uff0f',
  '\u2215',
  '@',
  ':',
  '?',
  '#',
  '&',
  '=',
  '%',
  '%00',
  'evil.example',
  'evil.example:443',
  'user@evil.example',
  'http:',
  'https:',
  'HTTPS://',
  'javascript:',
  'data:text/html,',
  'photo-products',
  'cart',
  'é',
)

/** Strings that mostly start with a slash (as a return path does) and then go anywhere. */
export const hostileRedirect = fc.oneof(
  { weight: 4, arbitrary: fc.array(pieces, { minLength: 1, maxLength: 10 }).map((parts) => `/${parts.join('')}`) },
  { weight: 2, arbitrary: fc.array(pieces, { minLength: 1, maxLength: 10 }).map((parts) => parts.join('')) },
  { weight: 1, arbitrary: fc.webUrl({ withQueryParameters: true, withFragments: true }) },
  { weight: 1, arbitrary: fc.string({ maxLength: 40 }).map((s) => `/${s}`) },
)

/** Ordinary return paths of the store: kept as they are. */
export const plainRedirect = fc
  .tuple(
    fc.array(fc.stringMatching(/^[a-z0-9-]{1,12}$/), { minLength: 1, maxLength: 4 }),
    fc.option(fc.stringMatching(/^[a-z]{1,6}=[a-z0-9]{0,8}$/), { nil: undefined }),
  )
  .map(([segments, query]) => `/${segments.join('/')}${query ? `?${query}` : ''}`)
