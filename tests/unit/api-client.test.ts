import { describe, expect, it } from 'vitest'
import { ApiClientError, createApiClient, registerInProcessApi, type RetryPolicy } from '../../app/lib/api-client'
import type { Endpoint } from '../../app/contract/endpoint'
import { z } from '../../app/contract/zod'

/** What the fake API does on each attempt at a path: answer, fail on the network, or never answer. */
type Step = (() => Response) | 'network' | 'hang'

const seen: Request[] = []
const scripts = new Map<string, Step[]>()
registerInProcessApi(async (request) => {
  seen.push(request)
  const path = new URL(request.url).pathname
  const script = scripts.get(path)
  if (script) {
    const step = script.shift() ?? (() => Response.json({ value: 'done' }))
    if (step === 'network') throw new TypeError('fetch failed')
    if (step === 'hang') return new Promise<Response>(() => {})
    return step()
  }
  if (path === '/v1/ok') return Response.json({ value: 1 }, { headers: { 'set-cookie': 'keepsake_session=abc; Path=/; HttpOnly' } })
  if (path === '/v1/refused') return Response.json({ error: { code: 'rule_broken', message: 'Cart is empty' } }, { status: 422 })
  if (path === '/v1/html') return new Response('<html>Bad gateway</html>', { status: 502, headers: { 'content-type': 'text/html' } })
  return new Response('not json', { status: 200 })
})

const ok = { method: 'get', path: '/ok', tag: 'test', summary: 'ok', auth: 'none', response: z.object({ value: z.number() }) } as const satisfies Endpoint
const refused = {
  method: 'post',
  path: '/refused',
  tag: 'test',
  summary: 'refused',
  auth: 'none',
  body: z.object({}),
  response: z.object({}),
} as const satisfies Endpoint
const html = { method: 'get', path: '/html', tag: 'test', summary: 'html', auth: 'none', response: z.object({}) } as const satisfies Endpoint
const garbage = { method: 'get', path: '/garbage', tag: 'test', summary: 'garbage', auth: 'none', response: z.object({}) } as const satisfies Endpoint

const flakyGet = {
  method: 'get',
  path: '/flaky/:name',
  tag: 'test',
  summary: 'a read',
  auth: 'none',
  params: z.object({ name: z.string() }),
  response: z.object({ value: z.string() }),
} as const satisfies Endpoint
const flakyPost = {
  method: 'post',
  path: '/flaky/:name',
  tag: 'test',
  summary: 'a write',
  auth: 'none',
  params: z.object({ name: z.string() }),
  body: z.object({ n: z.number() }),
  response: z.object({ value: z.string() }),
} as const satisfies Endpoint

function client(cookies: string[] = [], retry?: RetryPolicy) {
  return createApiClient({
    baseUrl: 'http://localhost:3000',
    ownOrigin: 'http://localhost:3000',
    cookie: 'keepsake_session=old',
    timezone: 'Europe/London',
    productSlug: 'keepsake',
    onSetCookie: (c) => cookies.push(c),
    retry,
  })
}

/** SPEC.md §8's policy with a sleep that only records how long it was asked to wait. */
function recordingRetry(timeoutMs = 1_000) {
  const waits: number[] = []
  const policy: RetryPolicy = {
    sleep: async (ms) => {
      waits.push(ms)
    },
    timeoutMs,
  }
  return { waits, policy }
}

let scriptCount = 0
/** A fresh path whose attempts follow `steps`; answers `{ value: 'done' }` once they run out. */
function scripted(steps: Step[]) {
  const name = `s${++scriptCount}`
  scripts.set(`/v1/flaky/${name}`, steps)
  return name
}
const requestsTo = (name: string) => seen.filter((r) => new URL(r.url).pathname === `/v1/flaky/${name}`)
const status =
  (code: number, headers: Record<string, string> = {}) =>
  () =>
    Response.json({ error: { code: code === 429 ? 'rate_limited' : 'internal', message: `status ${code}` } }, { status: code, headers })

describe('the API client', () => {
  it('dispatches same-origin calls in-process with credentials, timezone and version headers', async () => {
    const cookies: string[] = []
    await expect(client(cookies).call(ok)).resolves.toEqual({ value: 1 })
    const request = seen.at(-1)!
    expect(request.headers.get('cookie')).toBe('keepsake_session=old')
    expect(request.headers.get('x-keepsake-timezone')).toBe('Europe/London')
    expect(request.headers.has('x-keepsake-version')).toBe(true)
    expect(cookies).toEqual(['keepsake_session=abc; Path=/; HttpOnly'])
  })

  it('turns an API refusal into an error carrying its status, code and message', async () => {
    const error = await client()
      .call(refused, { body: {} })
      .catch((e: unknown) => e)
    expect(error).toBeInstanceOf(ApiClientError)
    expect(error).toMatchObject({ status: 422, code: 'rule_broken', message: 'Cart is empty' })
  })

  it('reports a non-JSON error page by its status, not as a parse failure', async () => {
    const error = await client()
      .call(html)
      .catch((e: unknown) => e)
    expect(error).toMatchObject({ status: 502, message: 'Something went wrong on our side. Please try again in a moment.' })
  })

  it('refuses a success that is not JSON', async () => {
    const error = await client()
      .call(garbage)
      .catch((e: unknown) => e)
    expect(error).toMatchObject({ status: 502, code: 'provider_failed' })
  })

  it('routes album photos through the proxy unless the client has it disabled', () => {
    // On our own API the link is root-relative, so the page loads it from whatever host it is on.
    expect(client().photoUrl('https://cdn.example/p/1/small.jpg')).toBe(
      '/v1/keepsake-photos/proxy?url=https%3A%2F%2Fcdn.example%2Fp%2F1%2Fsmall.jpg&inputSize=small&outputSize=smartphone',
    )
    // An API elsewhere (API_BASE_URL on another origin) too: the browser reaches it through the store's /v1, which forwards.
    const remote = createApiClient({ baseUrl: 'https://api.example', ownOrigin: 'http://localhost:3000', productSlug: 'keepsake' })
    expect(remote.photoUrl('https://cdn.example/p/1/small.jpg')).toBe(
      '/v1/keepsake-photos/proxy?url=https%3A%2F%2Fcdn.example%2Fp%2F1%2Fsmall.jpg&inputSize=small&outputSize=smartphone',
    )
    const celebrate = createApiClient({ baseUrl: 'http://localhost:3000', ownOrigin: 'http://localhost:3000', productSlug: 'keepsake', photoProxy: false })
    expect(celebrate.photoUrl('https://cdn.example/p/1/small.jpg')).toBe('https://cdn.example/p/1/small.jpg')
  })
})

describe('the API client’s retry rule (SPEC.md §8)', () => {
  it('a read survives two failures (a 503, a network error) and succeeds on the third attempt, 2 s then 4 s apart', async () => {
    const { waits, policy } = recordingRetry()
    const name = scripted([status(503), 'network'])
    await expect(client([], policy).call(flakyGet, { params: { name } })).resolves.toEqual({ value: 'done' })
    expect(requestsTo(name)).toHaveLength(3)
    expect(waits).toEqual([2000, 4000])
  })

  it('gives up after the third failed attempt with the last error', async () => {
    const { waits, policy } = recordingRetry()
    const name = scripted([status(503), status(503), status(500)])
    const error = await client([], policy)
      .call(flakyGet, { params: { name } })
      .catch((e: unknown) => e)
    expect(error).toMatchObject({ status: 500 })
    expect(requestsTo(name)).toHaveLength(3)
    expect(waits).toEqual([2000, 4000])
  })

  it.each([400, 401, 404, 409, 422])('never retries a %i refusal', async (code) => {
    const { waits, policy } = recordingRetry()
    const name = scripted([status(code)])
    const error = await client([], policy)
      .call(flakyGet, { params: { name } })
      .catch((e: unknown) => e)
    expect(error).toMatchObject({ status: code })
    expect(requestsTo(name)).toHaveLength(1)
    expect(waits).toEqual([])
  })

  it('waits out a 429’s Retry-After of 3 s', async () => {
    const { waits, policy } = recordingRetry()
    // The first backoff (2 s) is shorter than what the API asked for, so the ask wins.
    const name = scripted([status(429, { 'retry-after': '3' })])
    await expect(client([], policy).call(flakyGet, { params: { name } })).resolves.toEqual({ value: 'done' })
    expect(requestsTo(name)).toHaveLength(2)
    expect(waits).toEqual([3000])
  })

  it('answers a 429 asking for 60 s at once rather than waiting it out', async () => {
    const { waits, policy } = recordingRetry()
    const name = scripted([status(429, { 'retry-after': '60' })])
    const error = await client([], policy)
      .call(flakyGet, { params: { name } })
      .catch((e: unknown) => e)
    expect(error).toMatchObject({ status: 429, retryAfterMs: 60_000 })
    expect(requestsTo(name)).toHaveLength(1)
    expect(waits).toEqual([])
  })

  it('sends a write with an idempotency key, and every retry of it carries the same key', async () => {
    const { policy } = recordingRetry()
    const name = scripted([status(503), 'network'])
    await expect(client([], policy).call(flakyPost, { params: { name }, body: { n: 1 } })).resolves.toEqual({ value: 'done' })
    const requests = requestsTo(name)
    expect(requests).toHaveLength(3)
    const keys = requests.map((r) => r.headers.get('idempotency-key'))
    expect(keys[0]).toBeTruthy()
    expect(new Set(keys)).toEqual(new Set([keys[0]]))
    // Each call of the write has its own key.
    const again = scripted([])
    await client([], policy).call(flakyPost, { params: { name: again }, body: { n: 1 } })
    expect(requestsTo(again)[0]!.headers.get('idempotency-key')).not.toBe(keys[0])
  })

  it('names an operation: its last failure reads "{operation} failed after 3 attempts", its refusal the API’s reason, status kept', async () => {
    const { waits, policy } = recordingRetry()
    const down = scripted([status(503), status(502), status(503)])
    const failed = await client([], policy)
      .call(flakyPost, { params: { name: down }, body: { n: 1 } }, { operation: 'Upload link creation' })
      .catch((e: unknown) => e)
    expect(failed).toBeInstanceOf(ApiClientError)
    expect(failed).toMatchObject({ status: 503, message: 'Upload link creation failed after 3 attempts: status 503' })
    expect(requestsTo(down)).toHaveLength(3)
    expect(new Set(requestsTo(down).map((r) => r.headers.get('idempotency-key'))).size).toBe(1)
    expect(waits).toEqual([2000, 4000])
    const no = scripted([status(422)])
    const refused = await client([], policy)
      .call(flakyPost, { params: { name: no }, body: { n: 1 } }, { operation: 'Upload link creation' })
      .catch((e: unknown) => e)
    expect(refused).toMatchObject({ status: 422, message: 'Upload link creation was refused: status 422' })
    expect(requestsTo(no)).toHaveLength(1)
  })

  it('retries a 408 (the request timed out on the way) like a 5xx', async () => {
    const { waits, policy } = recordingRetry()
    const name = scripted([status(408)])
    await expect(client([], policy).call(flakyGet, { params: { name } })).resolves.toEqual({ value: 'done' })
    expect(requestsTo(name)).toHaveLength(2)
    expect(waits).toEqual([2000])
  })

  it('without a retry policy makes every call once', async () => {
    const read = scripted([status(503)])
    await expect(client().call(flakyGet, { params: { name: read } })).rejects.toMatchObject({ status: 503 })
    expect(requestsTo(read)).toHaveLength(1)
    const failed = scripted(['network'])
    await expect(client().call(flakyGet, { params: { name: failed } })).rejects.toMatchObject({ status: 0, code: 'network' })
    expect(requestsTo(failed)).toHaveLength(1)
    const write = scripted([status(503)])
    await expect(client().call(flakyPost, { params: { name: write }, body: { n: 1 } })).rejects.toMatchObject({ status: 503 })
    expect(requestsTo(write)).toHaveLength(1)
    expect(requestsTo(write)[0]!.headers.has('idempotency-key')).toBe(false)
  })

  it('counts an attempt that hangs past timeoutMs as a failure and retries it', async () => {
    const { waits, policy } = recordingRetry(20)
    const name = scripted(['hang'])
    await expect(client([], policy).call(flakyGet, { params: { name } })).resolves.toEqual({ value: 'done' })
    expect(requestsTo(name)).toHaveLength(2)
    expect(waits).toEqual([2000])
  })
})
