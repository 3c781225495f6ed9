import { describe, expect, it } from 'vitest'
import { ApiClientError, createApiClient, registerInProcessApi } from '../../app/lib/api-client'
import { z } from '../../app/contract/zod'

const seen: Request[] = []
registerInProcessApi(async (request) => {
  seen.push(request)
  const path = new URL(request.url).pathname
  if (path === '/v1/ok') return Response.json({ value: 1 }, { headers: { 'set-cookie': 'keepsake_session=abc; Path=/; HttpOnly' } })
  if (path === '/v1/refused') return Response.json({ error: { code: 'rule_broken', message: 'Cart is empty' } }, { status: 422 })
  if (path === '/v1/html') return new Response('<html>Bad gateway</html>', { status: 502, headers: { 'content-type': 'text/html' } })
  return new Response('not json', { status: 200 })
})

function client(cookies: string[] = []) {
  return createApiClient({
    baseUrl: 'http://localhost:3000',
    ownOrigin: 'http://localhost:3000',
    cookie: 'keepsake_session=old',
    timezone: 'Europe/London',
    productSlug: 'keepsake',
    onSetCookie: (c) => cookies.push(c),
  })
}

describe('the API client', () => {
  it('dispatches same-origin calls in-process with credentials, timezone and version headers', async () => {
    const cookies: string[] = []
    await expect(client(cookies).call('/ok', { schema: z.object({ value: z.number() }) })).resolves.toEqual({ value: 1 })
    const request = seen.at(-1)!
    expect(request.headers.get('cookie')).toBe('keepsake_session=old')
    expect(request.headers.get('x-keepsake-timezone')).toBe('Europe/London')
    expect(request.headers.has('x-keepsake-version')).toBe(true)
    expect(cookies).toEqual(['keepsake_session=abc; Path=/; HttpOnly'])
  })

  it('turns an API refusal into an error carrying its status, code and message', async () => {
    const error = await client().call('/refused', { method: 'POST', body: {}, schema: z.object({}) }).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(ApiClientError)
    expect(error).toMatchObject({ status: 422, code: 'rule_broken', message: 'Cart is empty' })
  })

  it('reports a non-JSON error page by its status, not as a parse failure', async () => {
    const error = await client().call('/html', { schema: z.object({}) }).catch((e: unknown) => e)
    expect(error).toMatchObject({ status: 502, message: 'Something went wrong on our side. Please try again in a moment.' })
  })

  it('refuses a success that is not JSON', async () => {
    const error = await client().call('/garbage', { schema: z.object({}) }).catch((e: unknown) => e)
    expect(error).toMatchObject({ status: 502, code: 'provider_failed' })
  })

  it('routes album photos through the proxy unless the client has it disabled', () => {
    // On our own API the link is root-relative, so the page loads it from whatever host it is on (issue 15, bug 6).
    expect(client().photoUrl('https://cdn.example/p/1/small.jpg')).toBe(
      '/v1/keepsake-photos/proxy?url=https%3A%2F%2Fcdn.example%2Fp%2F1%2Fsmall.jpg&inputSize=small&outputSize=smartphone',
    )
    // An API elsewhere (API_BASE_URL on another origin) keeps its absolute base.
    const remote = createApiClient({ baseUrl: 'https://api.example', ownOrigin: 'http://localhost:3000', productSlug: 'keepsake' })
    expect(remote.photoUrl('https://cdn.example/p/1/small.jpg')).toBe(
      'https://api.example/v1/keepsake-photos/proxy?url=https%3A%2F%2Fcdn.example%2Fp%2F1%2Fsmall.jpg&inputSize=small&outputSize=smartphone',
    )
    const celebrate = createApiClient({ baseUrl: 'http://localhost:3000', ownOrigin: 'http://localhost:3000', productSlug: 'keepsake', photoProxy: false })
    expect(celebrate.photoUrl('https://cdn.example/p/1/small.jpg')).toBe('https://cdn.example/p/1/small.jpg')
  })
})
