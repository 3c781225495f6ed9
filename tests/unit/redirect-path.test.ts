import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { transitionCodeOf } from '../../app/auth-continue.server'
import { signInLinkRequestSchema } from '../../app/contract/growth'
import { DEFAULT_LANDING, safeRedirectPath } from '../../app/contract/redirect-path'
import { resolveLegacyRedirect } from '../../app/lib/redirects'
import { continueSearch, redirectSearch } from '../../app/lib/search-params'
import { hostileRedirect, isSameSitePath, plainRedirect } from '../support/redirect-arbitraries'

/** Runs a property and prints how many cases it tried (issue 29: the count is part of the evidence). */
function check<T>(name: string, arbitrary: fc.Arbitrary<T>, predicate: (value: T) => void, numRuns = 5000) {
  fc.assert(fc.property(arbitrary, predicate), { numRuns })
  console.log(`[redirect-path] ${name}: ${numRuns} generated cases`)
}

describe('safeRedirectPath, the one normaliser of every return path', () => {
  it('answers a path on this site or nothing, whatever it is given, and its answer is its own answer', () => {
    check('any input', hostileRedirect, (input) => {
      const path = safeRedirectPath(input)
      if (path === undefined) return
      expect(isSameSitePath(path), `${JSON.stringify(input)} → ${JSON.stringify(path)}`).toBe(true)
      expect(path.length).toBeLessThanOrEqual(512)
      expect(safeRedirectPath(path)).toBe(path)
    })
  })

  it.each(['/..//evil.example/', '/a/../..//', '/%2e%2e//', '/.//', '/./%2e//evil.example', '/%2E%2E//evil.example', '//evil.example', '/\\evil.example'])(
    'refuses %j, which a browser would resolve to another site',
    (input) => {
      expect(safeRedirectPath(input)).toBeUndefined()
    },
  )

  it('keeps an ordinary path and query as they are', () => {
    check(
      'plain paths',
      plainRedirect,
      (input) => {
        expect(safeRedirectPath(input)).toBe(input)
      },
      1000,
    )
  })

  it('resolves dot segments that stay on the site', () => {
    expect(safeRedirectPath('/photo-products/../referral/redeem?code=A')).toBe('/referral/redeem?code=A')
    expect(safeRedirectPath('/a/./b/%2e%2e/c')).toBe('/a/c')
  })
})

describe('every way into the store takes its return path from safeRedirectPath', () => {
  it('the sign-in, continue and demo sign-in pages keep it or drop it, never fail', () => {
    check('page query strings', hostileRedirect, (input) => {
      const expected = safeRedirectPath(input)
      expect(redirectSearch.parse({ redirect: input }).redirect).toBe(expected)
      expect(continueSearch.parse({ redirect: input }).redirect).toBe(expected)
    })
  })

  it('the transition code lands on it, or on the default page', () => {
    check('transition code landing', hostileRedirect, (input) => {
      const found = transitionCodeOf(new URL(`/auth/continue?${new URLSearchParams({ code: 'abc', redirect: input })}`, 'http://localhost:3000'))
      expect(found?.landing).toBe(safeRedirectPath(input) ?? DEFAULT_LANDING)
      expect(isSameSitePath(found!.landing)).toBe(true)
    })
  })

  it('a sign-in link request keeps a same-site path and refuses anything else with its message', () => {
    check('sign-in link request', hostileRedirect, (input) => {
      const parsed = signInLinkRequestSchema.safeParse({ email: 'ava@example.com', redirect: input })
      const expected = safeRedirectPath(input)
      if (expected === undefined) {
        expect(parsed.success).toBe(false)
        expect(parsed.error!.issues.map((i) => i.path.join('.'))).toEqual(['redirect'])
      } else {
        expect(parsed.success && parsed.data.redirect).toBe(expected)
      }
    })
  })

  it('a legacy path redirects on this site, whatever its segments and query', () => {
    const legacyPrefix = fc.constantFrom('/refer/', '/r/', '/r0/', '/advocate/', '/loop-store/', '/redeem', '/photo-gifts')
    check(
      'legacy redirects',
      fc.tuple(legacyPrefix, hostileRedirect, fc.string({ maxLength: 20 })),
      ([prefix, rest, search]) => {
        let pathname: string
        try {
          pathname = new URL(`${prefix}${rest}`, 'http://localhost:3000').pathname
        } catch {
          return
        }
        const target = resolveLegacyRedirect(pathname, search)
        if (target !== null) expect(isSameSitePath(target), `${pathname} → ${target}`).toBe(true)
      },
      2000,
    )
  })
})
