import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestApi, type TestApi } from '../support/test-api'

let t: TestApi
beforeAll(async () => {
  t = await createTestApi()
})
afterAll(() => t.close())

describe('the /v1 skeleton', () => {
  it('answers an unknown /v1 path with a JSON 404', async () => {
    const res = await t.request('/v1/no-such-thing', { headers: { accept: 'text/html' } })
    expect(res.status).toBe(404)
    expect(res.headers.get('content-type')).toMatch(/application\/json/)
    expect(res.body.error).toMatchObject({ code: 'not_found', message: 'No such endpoint: GET /v1/no-such-thing' })
  })

  it('gives every response a request id and security headers', async () => {
    const res = await t.request('/v1/photo-products/photo-ornament')
    expect(res.headers.get('x-request-id')).toMatch(/.+/)
    expect(res.headers.get('x-content-type-options')).toBe('nosniff')
  })

  it('publishes an OpenAPI document generated from the contract', async () => {
    const res = await t.request('/v1/openapi.json')
    expect(res.status).toBe(200)
    expect(res.body.openapi).toBe('3.0.3')
    expect(Object.keys(res.body.paths)).toEqual(
      expect.arrayContaining(['/growth/transition-token', '/growth/authenticate-session', '/photo-products/{id}', '/analytics/events']),
    )
    expect(res.body.paths['/photo-products/{id}'].get.parameters[0]).toMatchObject({ name: 'id', in: 'path', required: true })
  })

  it('returns the ornament product with its three variants and catalogue prices', async () => {
    const res = await t.request('/v1/photo-products/photo-ornament')
    expect(res.status).toBe(200)
    expect(res.body.provider).toBe('PRINTIFY')
    expect(res.body.variants.map((v: { id: number; name: string }) => [v.id, v.name])).toEqual([
      [72963, 'Tree'],
      [72965, 'Star'],
      [72960, 'Stocking'],
    ])
    for (const v of res.body.variants) expect(v.salePrice).toBeLessThan(v.price)
  })

  it('answers 404 for an unknown photo product', async () => {
    const res = await t.request('/v1/photo-products/mug')
    expect(res.status).toBe(404)
    expect(res.body.error.code).toBe('not_found')
  })

  it('refuses a body that is not JSON with 415 and a malformed one with 400', async () => {
    const wrongType = await t.request('/v1/analytics/events', { method: 'POST', body: 'x', headers: { 'content-type': 'text/plain' } })
    expect(wrongType.status).toBe(415)
    const broken = await t.request('/v1/analytics/events', { method: 'POST', body: '{nope', headers: { 'content-type': 'application/json' } })
    expect(broken.status).toBe(400)
    expect(broken.body.error.message).toBe('The request body is not valid JSON')
  })

  it('refuses a body over 1 MB with 413', async () => {
    const res = await t.request('/v1/analytics/events', {
      method: 'POST',
      body: JSON.stringify({ events: [], pad: 'x'.repeat(1024 * 1024 + 10) }),
      headers: { 'content-type': 'application/json' },
    })
    expect(res.status).toBe(413)
    expect(res.body.error.code).toBe('payload_too_large')
  })

  it('refuses an invalid timezone header with 400', async () => {
    const res = await t.request('/v1/photo-products/photo-ornament', { headers: { 'x-keepsake-timezone': 'Mars/Olympus' } })
    expect(res.status).toBe(400)
    expect(res.body.error.message).toMatch(/IANA time zone/)
  })
})

describe('validation messages (SPEC.md §8)', () => {
  const event = {
    event: 'DidViewPage',
    path: '/photo-products',
    url: 'http://localhost:3000/photo-products',
    sid: '3f1c8a0e-3b6d-4c59-9d8e-1a2b3c4d5e6f',
    occurredAt: '2026-11-22T12:00:00.000Z',
  }

  it('says Required for a missing field', async () => {
    const { sid: _sid, ...withoutSid } = event
    const res = await t.request('/v1/analytics/events', { method: 'POST', json: { events: [withoutSid] } })
    expect(res.status).toBe(400)
    expect(res.body.error.issues).toContainEqual({ path: 'body.events.0.sid', message: 'Required' })
  })

  it('says "Expected X, received Y" for a wrong type', async () => {
    const res = await t.request('/v1/analytics/events', { method: 'POST', json: { events: [{ ...event, path: 42 }] } })
    expect(res.status).toBe(400)
    expect(res.body.error.issues).toContainEqual({ path: 'body.events.0.path', message: 'Expected string, received number' })
  })

  it('refuses an event name outside the typed list and stores nothing', async () => {
    const res = await t.request('/v1/analytics/events', { method: 'POST', json: { events: [{ ...event, event: 'DidHackTheStore' }] } })
    expect(res.status).toBe(400)
    const rows = await t.db.query.analyticsEvents.findMany()
    expect(rows).toHaveLength(0)
  })

  it('stores a valid batch and ties it to the signed-in user', async () => {
    const cookie = await t.signIn(0)
    const res = await t.request('/v1/analytics/events', {
      method: 'POST',
      cookie,
      headers: { origin: 'http://localhost:3000' },
      json: { events: [event, { ...event, event: 'DidResumeCart', properties: { cartId: 'c1' } }] },
    })
    expect(res.status).toBe(202)
    expect(res.body).toEqual({ accepted: 2 })
    const rows = await t.db.query.analyticsEvents.findMany()
    expect(rows.map((r) => r.name).sort()).toEqual(['DidResumeCart', 'DidViewPage'])
    expect(rows.every((r) => r.userId === t.users[0].id)).toBe(true)
  })
})

describe('maintenance', () => {
  it('answers every /v1 call with 503 JSON', async () => {
    const m = await createTestApi({ MAINTENANCE_MODE: 'true' })
    try {
      const res = await m.request('/v1/photo-products/photo-ornament')
      expect(res.status).toBe(503)
      expect(res.body.error.code).toBe('maintenance')
    } finally {
      await m.close()
    }
  })
})
