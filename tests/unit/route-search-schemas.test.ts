/**
 * Every route's `validateSearch`, found by walking the route tree (so a new route is covered without
 * listing it here): a zod schema, fed garbage — wrong types, over-long strings, arrays, objects, NUL —
 * falls back and never throws, so a bad URL never shows an error page.
 */
import fc from 'fast-check'
import { beforeAll, describe, expect, it } from 'vitest'
import { idParam, offerIdParam, photosSearch, variantIdParam } from '../../app/lib/search-params'

type AnyRoute = { id?: string; options: { id?: string; validateSearch?: unknown }; children?: Record<string, AnyRoute> | AnyRoute[] }
/** The slice of Standard Schema the router calls. */
type Result = { value?: Record<string, unknown>; issues?: readonly unknown[] }
type StandardSchema = { '~standard': { validate: (input: unknown) => Result | Promise<Result> } }
type RouteSchema = { id: string; schema: StandardSchema; keys: string[] }

const routes: RouteSchema[] = []
const withoutSchema: string[] = []

beforeAll(async () => {
  const { routeTree } = await import('../../app/routeTree.gen')
  const walk = (route: AnyRoute) => {
    // A file route's id is set when a router is made; until then it is in its options.
    const id = route.id ?? route.options.id ?? '?'
    const validate = route.options.validateSearch
    if (validate !== undefined) {
      if (typeof validate !== 'object' || validate === null || !('~standard' in validate)) withoutSchema.push(id)
      else {
        // The field names, read from the zod object inside the fallback.
        const def = (validate as unknown as { _zod: { def: { innerType?: { _zod: { def: { shape?: Record<string, unknown> } } } } } })._zod.def
        routes.push({ id, schema: validate as RouteSchema['schema'], keys: Object.keys(def.innerType?._zod.def.shape ?? {}) })
      }
    }
    for (const child of Object.values(route.children ?? {})) walk(child)
  }
  walk(routeTree as unknown as AnyRoute)
}, 120_000)

/** What the router hands over after parsing a query string: strings, JSON-ish values, anything. */
const garbage = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.string({ minLength: 513, maxLength: 3000 }),
  fc.constantFrom('', '\u0000', '%00', 'a\u0000b', 'x'.repeat(100_000), '__proto__', 'constructor', '//evil.example', 'javascript:alert(1)', '[]', '{}', 'NaN'),
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.constant(null),
  fc.array(fc.anything(), { maxLength: 4 }),
  fc.dictionary(fc.string({ maxLength: 8 }), fc.anything(), { maxKeys: 4 }),
  fc.anything(),
)

function validate(schema: RouteSchema['schema'], input: unknown) {
  const result = schema['~standard'].validate(input)
  expect(result).not.toBeInstanceOf(Promise)
  return result as Result
}

describe('every route’s search schema', () => {
  it('is a zod schema (Standard Schema), on every route that validates its search', () => {
    expect(withoutSchema).toEqual([])
    expect(routes.map((r) => r.id)).toEqual(expect.arrayContaining(['/photo-products/photos', '/photo-products/buy-now', '/auth/sign-in']))
    for (const route of routes) expect(route.keys.length, route.id).toBeGreaterThan(0)
  })

  it('falls back on garbage in any field, never throws, and names every field it was given', () => {
    for (const route of routes) {
      fc.assert(
        fc.property(fc.dictionary(fc.constantFrom(...route.keys, 'other'), garbage, { maxKeys: route.keys.length + 1 }), (input) => {
          const result = validate(route.schema, input)
          expect(result.issues, route.id).toBeUndefined()
          const output = result.value!
          for (const key of route.keys) {
            // A given field is in the answer (as undefined when dropped), or the router would keep the raw value.
            if (key in input) expect(Object.hasOwn(output, key), `${route.id} ${key}`).toBe(true)
            const value = output[key]
            if (value === undefined) continue
            expect(typeof value, `${route.id} ${key}`).toBe('string')
            expect(value as string, `${route.id} ${key}`).not.toContain('\u0000')
            expect((value as string).length, `${route.id} ${key}`).toBeLessThanOrEqual(512)
            // Only a string can pass: anything else the router parsed from the URL falls back.
            expect(typeof input[key], `${route.id} ${key}`).toBe('string')
          }
        }),
        { numRuns: 300 },
      )
    }
  })

  it('answers an empty search for something that is not an object at all', () => {
    for (const route of routes) {
      for (const input of [null, undefined, 'filter=favorites', 42, ['a']]) {
        const result = validate(route.schema, input)
        expect(result.issues, route.id).toBeUndefined()
      }
    }
  })
})

describe('/photo-products/photos', () => {
  const parse = (input: Record<string, unknown>) => photosSearch.parse(input)
  const cursor = 'WyJmYW1pbHkiLCJmYXZvcml0ZSIsMTcwMDAwMDAwMDAwMCwiaWQiXQ.c2lnbmF0dXJlLXNpZ25hdHVyZS1zaWduYXR1cmU'

  it('keeps a tab and a cursor', () => {
    expect(parse({ filter: 'favorites', cursor })).toEqual({ filter: 'favorites', cursor })
    expect(parse({ filter: 'recommended' })).toEqual({ filter: 'recommended' })
    expect(parse({})).toEqual({})
  })

  it('falls back to All and the first page on a bad value', () => {
    expect(parse({ filter: 'nonsense', cursor: '\u0000' })).toEqual({ filter: undefined, cursor: undefined })
    expect(parse({ filter: 'Favorites', cursor: 'no-dot' })).toEqual({ filter: undefined, cursor: undefined })
    expect(parse({ filter: ['favorites'], cursor: 123 })).toEqual({ filter: undefined, cursor: undefined })
    expect(parse({ cursor: `${'a'.repeat(600)}.b` })).toEqual({ cursor: undefined })
  })
})

describe('path params', () => {
  it('never throw, and pass only their own shape', () => {
    fc.assert(
      fc.property(garbage, (value) => {
        for (const schema of [idParam, offerIdParam, variantIdParam]) expect(() => schema.safeParse(value)).not.toThrow()
      }),
    )
    expect(variantIdParam.safeParse('72965').success).toBe(true)
    for (const bad of ['072965', '-1', '1e5', '', '99999999999']) expect(variantIdParam.safeParse(bad).success, bad).toBe(false)
    expect(offerIdParam.safeParse('garden-club').success).toBe(true)
    expect(offerIdParam.safeParse('Garden Club').success).toBe(false)
    expect(idParam.safeParse('6f1c2a3b-4d5e-4f60-8a7b-9c0d1e2f3a4b').success).toBe(true)
    expect(idParam.safeParse('6f1c2a3b-4d5e-4f60-8a7b-9c0d1e2f3a4').success).toBe(false)
  })
})
