import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestApi, TEST_ORIGIN, type TestApi } from '../support/test-api'

let t: TestApi
beforeAll(async () => {
  t = await createTestApi()
})
afterAll(() => t.close())

/** ARCHITECTURE.md: nothing a client sends can produce a 500. */
describe('bad input never breaks the API', () => {
  it.each([
    ['a malformed percent-encoding in a path parameter', '/v1/photo-products/%E0%A4%A'],
    ['a very long path parameter', `/v1/photo-products/${'x'.repeat(5000)}`],
    ['a path traversal attempt', '/v1/photo-products/..%2F..%2Fetc%2Fpasswd'],
  ])('answers %s with a 4xx', async (_, path) => {
    const res = await t.request(path)
    expect(res.status).toBeGreaterThanOrEqual(400)
    expect(res.status).toBeLessThan(500)
    expect(res.body.error).toBeDefined()
  })

  it('ignores a forged or oversized session cookie', async () => {
    for (const cookie of ['keepsake_session=forged', `keepsake_session=${'a'.repeat(5000)}`, 'keepsake_session=%E0%A4%A']) {
      const res = await t.request('/v1/growth/authenticate-session', { cookie })
      expect(res.status).toBe(401)
    }
  })

  it('refuses a JSON body of the wrong shape', async () => {
    for (const body of ['[]', 'null', '"text"', '42', '{"events":"all"}']) {
      const res = await t.request('/v1/analytics/events', { method: 'POST', body, headers: { 'content-type': 'application/json' } })
      expect(res.status).toBe(400)
    }
  })

  it('refuses an empty body where one is required', async () => {
    const res = await t.request('/v1/demo/sessions', { method: 'POST', body: '', headers: { 'content-type': 'application/json' } })
    expect(res.status).toBe(400)
    expect(res.body.error.issues[0]).toEqual({ path: 'body', message: 'Required' })
  })

  it('refuses an oversized transition code without touching the database', async () => {
    const res = await t.request('/v1/growth/transition-token', { method: 'POST', headers: { authorization: `Bearer ${'x'.repeat(10_000)}` } })
    expect(res.status).toBe(401)
  })

  it('refuses a batch of more than 50 analytics events', async () => {
    const event = {
      event: 'DidViewPage',
      path: '/',
      url: 'http://localhost:3000/',
      sid: '3f1c8a0e-3b6d-4c59-9d8e-1a2b3c4d5e6f',
      occurredAt: '2026-11-22T12:00:00.000Z',
    }
    const res = await t.request('/v1/analytics/events', { method: 'POST', json: { events: Array.from({ length: 51 }, () => event) } })
    expect(res.status).toBe(400)
    expect(await t.db.query.analyticsEvents.findMany()).toHaveLength(0)
  })

  it('answers an unsupported method on a known path with a JSON 404', async () => {
    const res = await t.request('/v1/photo-products/photo-ornament', { method: 'DELETE' })
    expect(res.status).toBe(404)
    expect(res.body.error.code).toBe('not_found')
  })
})

/** Cross-site writes are refused by their Origin, Origin: null included. */
describe('origins and transport', () => {
  it('refuses a write with a session cookie from Origin: null like any cross-site origin, and accepts our own', async () => {
    const cookie = await t.signIn(0)
    const write = (origin: string) =>
      t.request('/v1/growth/user-actions', { method: 'POST', cookie, headers: { origin }, json: { action: 'viewed_referral_home' } })
    for (const origin of ['null', 'https://evil.example']) {
      const res = await write(origin)
      expect(res.status).toBe(403)
      expect(res.body.error.code).toBe('forbidden')
    }
    expect((await write(TEST_ORIGIN)).status).toBe(201)
  })

  it('sends HSTS exactly when the store is served over https', async () => {
    expect((await t.request('/v1/openapi.json')).headers.get('strict-transport-security')).toBeNull()
    const https = await createTestApi({ PUBLIC_URL: 'https://shop.example' })
    try {
      expect((await https.request('/v1/openapi.json')).headers.get('strict-transport-security')).toMatch(/^max-age=\d+/)
    } finally {
      await https.close()
    }
  })
})
