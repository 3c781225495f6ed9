/**
 * Hostile URLs, the whole class at once: every page route of the route tree, requested with hostile
 * path segments and hostile search values (a deterministic generator, ≥ 2,000 cases a run), answers
 * below 500 and never shows raw error text. The /v1 API has its own fuzzer (tests/api).
 */
import fs from 'node:fs'
import path from 'node:path'
import { expect, test } from '@playwright/test'

const SEED = 20261124
/** mulberry32: a small, deterministic PRNG, so a failing case is the same case on every run. */
function prng(seed: number) {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

const routeTree = fs.readFileSync(path.resolve(import.meta.dirname, '../../app/routeTree.gen.ts'), 'utf8')
const byFullPath = routeTree.slice(
  routeTree.indexOf('export interface FileRoutesByFullPath'),
  routeTree.indexOf('}', routeTree.indexOf('export interface FileRoutesByFullPath')),
)
/** Every page of the route tree ('/v1/$' is the API, fuzzed from its OpenAPI document instead). */
const routes = [...byFullPath.matchAll(/^\s+'([^']+)':/gm)].map((m) => m[1]!).filter((r) => !r.startsWith('/v1'))

/** Path segments as a hostile URL carries them (already percent-encoded where a browser would). */
const hostileSegments = [
  'A'.repeat(201),
  'Z'.repeat(5000),
  '%E0%A4%A',
  '%ZZ',
  '%00',
  '%01%02%1F',
  '%7F',
  '..',
  '%2e%2e',
  '..%2F..%2Fetc%2Fpasswd',
  '%2F',
  encodeURIComponent('ü🎄漢字'),
  encodeURIComponent('\u202eevil'),
  encodeURIComponent('<script>alert(1)</script>'),
  encodeURIComponent('" onload="x'),
  encodeURIComponent("' OR 1=1 --"),
  '%F0%9F',
  '%ED%A0%80',
  '-1',
  '0',
  '99999999999999999999999',
  '1e309',
  'NaN',
  '__proto__',
  'constructor',
  '00000000-0000-0000-0000-000000000000',
  '%20',
  '~',
  '@evil.example',
]
const searchKeys = [
  'headerType',
  'filter',
  'cursor',
  'redirect',
  'code',
  'checkout',
  'session_id',
  'cancelled',
  'market',
  'uuid',
  'data',
  'sid',
  'payload',
  'from',
  'shape',
  '__proto__',
]
const searchValues = [...hostileSegments, '//evil.example', 'https://evil.example/', 'javascript:alert(1)', '[]', '{}', '{"a":1}', 'true', 'x'.repeat(3000)]

/** Raw error text that must never reach a shopper's page. */
const rawError = /"code":\s*"too_big"|ZodError|\bredacted\b|\n\s+at [\w.<>]+ \(|\[object Object\]|Internal Server Error|Unexpected token/

type Case = { url: string; why: string }
function cases(): Case[] {
  const random = prng(SEED)
  const pick = <T>(list: readonly T[]) => list[Math.floor(random() * list.length)]!
  const fill = (route: string, segment: () => string) => route.replace(/\$[A-Za-z]+/g, () => segment()).replace(/\/\$$/, `/${segment()}`)
  const all: Case[] = []
  // Every route × every hostile segment in each of its parameters (or appended to a static one).
  for (const route of routes) {
    for (const segment of hostileSegments) {
      const url = route.includes('$') ? fill(route, () => segment) : `${route.replace(/\/$/, '')}/${segment}`
      all.push({ url, why: `${route} with segment ${segment.slice(0, 40)}` })
    }
  }
  // Every route × every search key with a value drawn from the hostile values.
  for (const route of routes) {
    for (const key of searchKeys) {
      const value = pick(searchValues)
      all.push({ url: `${fill(route, () => 'MAYA-0000-0000')}?${key}=${value}`, why: `${route} ?${key}=${value.slice(0, 40)}` })
    }
  }
  // Random combinations until the run holds 2,000 cases or more.
  while (all.length < 2400) {
    const route = pick(routes)
    const search = Array.from({ length: 1 + Math.floor(random() * 3) }, () => `${pick(searchKeys)}=${pick(searchValues)}`).join('&')
    all.push({ url: `${fill(route, () => pick(hostileSegments))}?${search}`, why: `random ${route}` })
  }
  return all
}

test.describe('every page route under hostile URLs', () => {
  test.describe.configure({ timeout: 600_000 })

  test('no 5xx, no raw error text, at least 2,000 generated cases', async ({ request }) => {
    const all = cases()
    expect(routes.length).toBeGreaterThan(30)
    expect(all.length).toBeGreaterThanOrEqual(2000)
    const failures: string[] = []
    const statuses = new Map<number, number>()
    let next = 0
    // Four at a time: a busy 2-core machine still finishes in a minute or two.
    await Promise.all(
      Array.from({ length: 4 }, async () => {
        while (next < all.length) {
          const item = all[next++]!
          const res = await request.get(item.url, { maxRedirects: 0, failOnStatusCode: false })
          const status = res.status()
          statuses.set(status, (statuses.get(status) ?? 0) + 1)
          if (status >= 500) failures.push(`${status} ${item.why}: ${item.url.slice(0, 200)}`)
          else if ((res.headers()['content-type'] ?? '').includes('text/html')) {
            const body = await res.text()
            const match = rawError.exec(body)
            if (match) failures.push(`raw error text "${match[0].trim()}" on ${item.why}: ${item.url.slice(0, 200)}`)
          }
        }
      }),
    )
    console.log(
      `route fuzzer: ${all.length} cases over ${routes.length} routes (seed ${SEED}); statuses ${[...statuses]
        .sort((a, b) => a[0] - b[0])
        .map(([s, n]) => `${s}×${n}`)
        .join(' ')}`,
    )
    expect(failures.slice(0, 30)).toEqual([])
  })
})

/**
 * Every server function id the server answers (about 60 when this was written), read from the build's own manifest:
 * the ids are short hashes (vite.config.ts `serverFnId`), so they are read where the server looks them up, not guessed
 * from the browser's scripts.
 */
function serverFunctionIds() {
  const dir = path.resolve(import.meta.dirname, '../../dist/server/assets')
  const ids = new Set<string>()
  for (const file of fs.readdirSync(dir).filter((f) => f.endsWith('.js'))) {
    for (const match of fs.readFileSync(path.join(dir, file), 'utf8').matchAll(/"([\w-]+)": \{\s*functionName: "\w+"/g)) ids.add(match[1]!)
  }
  return [...ids]
}

test.describe('every server function under malformed calls', () => {
  test.describe.configure({ timeout: 600_000 })

  test('malformed input answers 4xx in the JSON error shape, never 5xx', async ({ request, baseURL }) => {
    const ids = serverFunctionIds()
    expect(ids.length).toBeGreaterThan(30)
    const origin = new URL(baseURL!).origin
    const json = { 'content-type': 'application/json', origin }
    const calls: { why: string; send: (url: string) => ReturnType<typeof request.get> }[] = [
      { why: 'a POST body of {', send: (url) => request.post(url, { headers: json, data: Buffer.from('{') }) },
      { why: 'plain JSON where seroval is expected', send: (url) => request.post(url, { headers: json, data: Buffer.from('{"data":{"id":"x"}}') }) },
      { why: 'a JSON array', send: (url) => request.post(url, { headers: json, data: Buffer.from('[1,2,3]') }) },
      { why: 'text/plain', send: (url) => request.post(url, { headers: { 'content-type': 'text/plain', origin }, data: Buffer.from('hello') }) },
      { why: 'an empty POST', send: (url) => request.post(url, { headers: { origin } }) },
      { why: 'a GET payload that is not JSON', send: (url) => request.get(`${url}?payload=%zz`) },
      { why: 'a GET payload of plain JSON', send: (url) => request.get(`${url}?payload=${encodeURIComponent('{"data":1}')}`) },
      { why: 'a GET payload of NUL', send: (url) => request.get(`${url}?payload=%00`) },
    ]
    const failures: string[] = []
    let cases = 0
    for (const id of [...ids, 'f'.repeat(10), 'f'.repeat(64), 'not-a-function-id', `${ids[0]}/x`, `${ids[0]}%00`]) {
      for (const call of calls) {
        const res = await call.send(`${origin}/_serverFn/${id}`)
        cases++
        if (res.status() >= 500) failures.push(`${res.status()} ${id.slice(0, 12)}… ${call.why}: ${(await res.text()).slice(0, 120)}`)
      }
    }
    console.log(`server function fuzzer: ${cases} malformed calls over ${ids.length} functions`)
    expect(failures.slice(0, 30)).toEqual([])
  })
})
