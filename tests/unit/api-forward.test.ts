import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { withClientAddress } from '../../app/api/client-address'
import { apiIsRemote, forwardToApi } from '../../app/api/forward'

/** A stand-in album API on a real socket: it records what reached it and answers by path. */
let api: http.Server
let apiUrl = ''
const seen: { method: string; url: string; headers: http.IncomingHttpHeaders; body: string }[] = []

beforeAll(async () => {
  api = http.createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => {
      seen.push({ method: req.method!, url: req.url!, headers: req.headers, body: Buffer.concat(chunks).toString() })
      if (req.url!.startsWith('/v1/redirect')) return res.writeHead(302, { location: '/v1/elsewhere' }).end()
      if (req.url!.startsWith('/v1/missing'))
        return res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":{"code":"not_found","message":"No such thing"}}')
      res.writeHead(201, [
        ['content-type', 'application/json'],
        ['set-cookie', 'a=1; Path=/'],
        ['set-cookie', 'b=2; Path=/'],
      ])
      res.end(JSON.stringify({ ok: true }))
    })
  })
  api.listen(0, '127.0.0.1')
  await new Promise((resolve) => api.once('listening', resolve))
  apiUrl = `http://127.0.0.1:${(api.address() as AddressInfo).port}`
})
afterAll(() => new Promise<void>((resolve) => api.close(() => resolve())))

const forward = (request: Request, client = '203.0.113.9') => withClientAddress(client, () => forwardToApi(request, apiUrl))

describe("the store's /v1 forwarding to an API elsewhere", () => {
  it('knows when the API is another origin', () => {
    expect(apiIsRemote({ apiBaseUrl: 'https://api.example', publicUrl: 'https://shop.example' })).toBe(true)
    expect(apiIsRemote({ apiBaseUrl: 'https://shop.example', publicUrl: 'https://shop.example/' })).toBe(false)
    expect(apiIsRemote({ apiBaseUrl: 'http://localhost:3000', publicUrl: 'http://localhost:3000' })).toBe(false)
  })

  it('sends the method, path, query, body and cookies on, with the shopper’s address, and brings the answer back whole', async () => {
    seen.length = 0
    const response = await forward(
      new Request('https://shop.example/v1/cart/lines?x=1&y=two', {
        method: 'POST',
        headers: { 'content-type': 'application/json', cookie: 'session=abc', 'x-forwarded-for': '6.6.6.6', 'idempotency-key': 'k-1' },
        body: JSON.stringify({ quantity: 2 }),
      }),
    )
    expect(response.status).toBe(201)
    expect(await response.json()).toEqual({ ok: true })
    expect(response.headers.getSetCookie()).toEqual(['a=1; Path=/', 'b=2; Path=/'])
    const [request] = seen
    expect(request).toMatchObject({ method: 'POST', url: '/v1/cart/lines?x=1&y=two', body: '{"quantity":2}' })
    expect(request!.headers.cookie).toBe('session=abc')
    expect(request!.headers['idempotency-key']).toBe('k-1')
    // The address the store resolved, not what the client wrote in its own X-Forwarded-For.
    expect(request!.headers['x-forwarded-for']).toBe('203.0.113.9')
    expect(request!.headers['x-forwarded-host']).toBe('shop.example')
    expect(request!.headers['x-forwarded-proto']).toBe('https')
    expect(request!.headers.host).toBe(new URL(apiUrl).host)
  })

  it('passes refusals and redirects through as they are', async () => {
    const missing = await forward(new Request('https://shop.example/v1/missing'))
    expect(missing.status).toBe(404)
    expect(await missing.json()).toEqual({ error: { code: 'not_found', message: 'No such thing' } })
    const moved = await forward(new Request('https://shop.example/v1/redirect'))
    expect(moved.status).toBe(302)
    expect(moved.headers.get('location')).toBe('/v1/elsewhere')
  })

  it('answers 503 unavailable in the API’s error shape, with Retry-After, when the API does not answer (issue 43, item 6)', async () => {
    const closed = http.createServer()
    closed.listen(0, '127.0.0.1')
    await new Promise((resolve) => closed.once('listening', resolve))
    const port = (closed.address() as AddressInfo).port
    await new Promise<void>((resolve) => closed.close(() => resolve()))
    const response = await withClientAddress('203.0.113.9', () => forwardToApi(new Request('https://shop.example/v1/cart'), `http://127.0.0.1:${port}`))
    expect(response.status).toBe(503)
    expect(response.headers.get('retry-after')).toBe('5')
    expect((await response.json()) as unknown).toMatchObject({
      error: { code: 'unavailable', message: 'The album service is not answering; try again in a moment' },
    })
  })
})
