import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestApi, type TestApi } from '../support/test-api'

/**
 * Every /v1 operation of the OpenAPI document under generated hostile input — path
 * parameters, query values and JSON bodies — signed in and signed out, on whichever engine this
 * project runs (PGlite, and PostgreSQL in the 'api (postgres)' project). Nothing may answer 5xx, and
 * every refusal is the API's JSON error without a stack, a raw zod issue list or "redacted".
 */
type JsonSchema = {
  type?: string | string[]
  properties?: Record<string, JsonSchema>
  required?: string[]
  items?: JsonSchema
  enum?: unknown[]
  anyOf?: JsonSchema[]
  oneOf?: JsonSchema[]
  format?: string
  minimum?: number
  maximum?: number
  minLength?: number
  maxLength?: number
  default?: unknown
  nullable?: boolean
}
type Parameter = { name: string; in: 'path' | 'query' | 'header'; required?: boolean; schema: JsonSchema }
type Operation = { method: string; path: string; parameters: Parameter[]; body: JsonSchema | null; auth: boolean }

const CASES_PER_OPERATION = 48
const SEED = 0x15_2026

/** mulberry32: a small seeded generator, so every run sends the same cases. */
function prng(seed: number) {
  let a = seed >>> 0
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
  return { next, int: (n: number) => Math.floor(next() * n), pick: <T>(xs: readonly T[]) => xs[Math.floor(next() * xs.length)]! }
}

const hostileStrings = [
  '',
  ' ',
  'x'.repeat(5_000),
  'x'.repeat(70_000),
  '..',
  '../../etc/passwd',
  '\u0000',
  'a\u0000b',
  '\ud800',
  'x\udc00',
  '\u202e\u0041\u0301',
  '🎄'.repeat(300),
  '<script>alert(1)</script>',
  "'; DROP TABLE users; --",
  '%00',
  '%E0%A4%A',
  '\r\nSet-Cookie: x=1',
  '00000000-0000-0000-0000-000000000000',
  'ffffffff-ffff-ffff-ffff-ffffffffffff',
  '-1',
  '1e309',
  'NaN',
  'null',
  '[]',
  '{}',
  'true',
  'javascript:alert(1)',
  'http://169.254.169.254/latest/meta-data/',
  '//evil.example/x.jpg',
]
const hostileValues: unknown[] = [
  ...hostileStrings,
  null,
  true,
  false,
  0,
  -0,
  -1,
  12.5,
  1e308,
  Number.MAX_SAFE_INTEGER + 2,
  2 ** 31,
  [],
  [null],
  {},
  { nested: { deeper: 'x'.repeat(10_000) } },
  Array.from({ length: 1_000 }, (_, i) => i),
]
/** Path segments a client can send that JSON cannot: percent-encoding errors and encoded separators. */
const hostileSegments = [
  '%',
  '%zz',
  '%E0%A4%A',
  '..%2F..%2Fetc%2Fpasswd',
  '%2e%2e',
  '%00',
  encodeURIComponent('x'.repeat(5_000)),
  encodeURIComponent('🎄\u0000'),
  '%C0%AE',
  'a%2Fb',
  '%ED%A0%80',
  '%ED%B0%80x',
]

/** encodeURIComponent, except that a lone surrogate (which it refuses) goes out as its raw UTF-8-style bytes. */
const encode = (text: string) => {
  try {
    return encodeURIComponent(text)
  } catch {
    return '%ED%A0%80'
  }
}

/** A plausible value for a schema: the start a mutation departs from, so the fuzzer reaches past the first check. */
function plausible(schema: JsonSchema | undefined, r: ReturnType<typeof prng>, depth = 0): unknown {
  if (!schema || depth > 4) return null
  if (schema.default !== undefined && r.next() < 0.3) return schema.default
  if (schema.enum?.length) return r.pick(schema.enum)
  const variants = schema.anyOf ?? schema.oneOf
  if (variants?.length) return plausible(r.pick(variants), r, depth + 1)
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type
  switch (type) {
    case 'object': {
      const out: Record<string, unknown> = {}
      for (const [key, value] of Object.entries(schema.properties ?? {})) {
        if ((schema.required ?? []).includes(key) || r.next() < 0.5) out[key] = plausible(value, r, depth + 1)
      }
      return out
    }
    case 'array':
      return Array.from({ length: r.int(3) }, () => plausible(schema.items, r, depth + 1))
    case 'integer':
      return Math.max(schema.minimum ?? 1, Math.min(schema.maximum ?? 100, 1 + r.int(10)))
    case 'number':
      return Math.max(schema.minimum ?? 0, Math.min(schema.maximum ?? 100, r.int(100)))
    case 'boolean':
      return r.next() < 0.5
    case 'string': {
      if (schema.format === 'uuid') return crypto.randomUUID()
      if (schema.format === 'email') return `fuzz${r.int(1_000_000)}@example.com`
      if (schema.format === 'date-time') return new Date(Date.UTC(2026, 10, 22)).toISOString()
      if (schema.format === 'uri') return 'https://example.com/x.jpg'
      return 'x'.repeat(Math.max(schema.minLength ?? 1, 1))
    }
    default:
      return null
  }
}

/** One property somewhere in the value replaced, removed or added; or the whole value replaced. */
function mutate(value: unknown, r: ReturnType<typeof prng>): unknown {
  if (value && typeof value === 'object' && !Array.isArray(value) && r.next() < 0.8) {
    const out: Record<string, unknown> = { ...(value as Record<string, unknown>) }
    const keys = Object.keys(out)
    const roll = r.next()
    if (keys.length && roll < 0.6) {
      const key = r.pick(keys)
      out[key] = r.next() < 0.4 ? mutate(out[key], r) : r.pick(hostileValues)
    } else if (keys.length && roll < 0.8) {
      delete out[r.pick(keys)]
    } else {
      out[r.pick(['__proto__', 'constructor', 'extra', 'x'.repeat(300), '\u0000'])] = r.pick(hostileValues)
    }
    return out
  }
  return r.pick(hostileValues)
}

function operationsOf(doc: {
  paths: Record<string, Record<string, { parameters?: Parameter[]; requestBody?: { content: Record<string, { schema: JsonSchema }> }; security?: unknown[] }>>
}) {
  const ops: Operation[] = []
  for (const [path, methods] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(methods)) {
      ops.push({
        method: method.toUpperCase(),
        path,
        parameters: op.parameters ?? [],
        body: op.requestBody?.content['application/json']?.schema ?? null,
        auth: Boolean(op.security?.length),
      })
    }
  }
  return ops
}

/** Raw error text that must never reach a client. */
const leaks = [
  /\bat [\w.<>]+ \(.*:\d+:\d+\)/,
  /"origin":\s*"/,
  /"code":\s*"too_big"/,
  /\bredacted\b/i,
  /ZodError/,
  /PGlite|postgres|syntax error at or near/i,
  /node_modules/,
]

let t: TestApi
let cookie: string
beforeAll(async () => {
  t = await createTestApi()
  cookie = await t.signIn(0)
})
afterAll(() => t.close())

describe('the /v1 API under a fuzzer driven by its OpenAPI document', () => {
  it('answers every generated request without a 5xx, each refusal as its JSON error', { timeout: 600_000 }, async () => {
    const doc = (await t.request('/v1/openapi.json')).body
    const operations = operationsOf(doc)
    expect(operations.length).toBeGreaterThan(40)
    const r = prng(SEED)
    const failures: string[] = []
    let sent = 0
    for (const op of operations) {
      const base = op.body ? plausible(op.body, r) : undefined
      for (let i = 0; i < CASES_PER_OPERATION; i++) {
        let path = op.path
        for (const p of op.parameters.filter((p) => p.in === 'path')) {
          const roll = r.next()
          const value = roll < 0.5 ? r.pick(hostileSegments) : roll < 0.9 ? encode(String(r.pick(hostileStrings))) : encode(String(plausible(p.schema, r)))
          path = path.replace(`{${p.name}}`, value || '%20')
        }
        const query = new URLSearchParams()
        for (const p of op.parameters.filter((p) => p.in === 'query')) {
          if (r.next() < 0.7) query.set(p.name, String(r.next() < 0.7 ? r.pick(hostileStrings) : plausible(p.schema, r)))
        }
        if (r.next() < 0.1) query.set(r.pick(['__proto__', 'x'.repeat(200), 'a[b]']), String(r.pick(hostileStrings)))
        const rawQuery = query.toString() + (r.next() < 0.1 ? `&${r.pick(hostileSegments)}=${r.pick(hostileSegments)}` : '')
        const url = `/v1${path}${rawQuery ? `?${rawQuery}` : ''}`

        const headers: Record<string, string> = { origin: 'http://localhost:3000' }
        let body: string | undefined
        if (op.method !== 'GET' && op.method !== 'HEAD') {
          const roll = r.next()
          headers['content-type'] = 'application/json'
          if (roll < 0.08) body = r.pick(['{', '{"a":', 'nul', '\u0000', '[1,2', '"\\ud800"', ''])
          else if (roll < 0.15) body = JSON.stringify(r.pick(hostileValues))
          else body = JSON.stringify(op.body ? mutate(base, r) : r.pick(hostileValues)) ?? 'null'
        }
        for (const header of op.parameters.filter((p) => p.in === 'header')) {
          if (r.next() < 0.3)
            headers[header.name] = String(r.pick(hostileStrings))
              .replace(/[\r\n\u0000-\u001f\u007f-\uffff]/g, '?')
              .slice(0, 8_000)
        }
        const signedIn = r.next() < 0.6
        const res = await t.request(url, { method: op.method, headers, body, cookie: signedIn ? cookie : undefined, clientAddress: `198.51.100.${sent % 250}` })
        sent++
        const what = `${op.method} ${url.slice(0, 160)} ${signedIn ? '(signed in)' : '(signed out)'} body ${String(body).slice(0, 160)}`
        const text = typeof res.body === 'string' ? res.body : JSON.stringify(res.body)
        if (res.status >= 500) failures.push(`${res.status} for ${what}: ${text.slice(0, 200)}`)
        else if (
          res.status >= 400 &&
          !(res.body && typeof res.body === 'object' && typeof res.body.error?.code === 'string' && typeof res.body.error?.message === 'string')
        ) {
          failures.push(`${res.status} without the JSON error for ${what}: ${text.slice(0, 200)}`)
        }
        const leak = res.headers.get('content-type')?.includes('json') ? leaks.find((l) => l.test(text)) : undefined
        if (leak) failures.push(`${res.status} leaks ${leak} for ${what}: ${text.slice(0, 300)}`)
      }
    }
    console.log(`fuzzed ${sent.toLocaleString('en-US')} /v1 requests over ${operations.length} operations (seed ${SEED})`)
    expect(sent).toBeGreaterThanOrEqual(2_000)
    expect(failures).toEqual([])
  })
})
