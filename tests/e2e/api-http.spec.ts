import { expect, test } from '@playwright/test'

/** The album API over real HTTP, through the production server (srvx), as the mobile app calls it. */
test.describe('/v1 over HTTP', () => {
  test('a POST with no body gets its own answer, not a 500', async ({ request }) => {
    const res = await request.post('/v1/growth/transition-token', { headers: { authorization: 'Bearer not-a-code' } })
    expect(res.status()).toBe(401)
    expect((await res.json()).error.code).toBe('unauthenticated')
  })

  test('OPTIONS and HEAD never produce a 500', async ({ request }) => {
    const options = await request.fetch('/v1/photo-products/photo-ornament', { method: 'OPTIONS' })
    expect(options.status()).toBe(404)
    expect((await options.json()).error.code).toBe('not_found')
    const head = await request.fetch('/v1/photo-products/photo-ornament', { method: 'HEAD' })
    expect(head.status()).toBe(200)
  })

  test('a body over 1 MB is refused with 413 and JSON', async ({ request }) => {
    const res = await request.post('/v1/analytics/events', {
      headers: { 'content-type': 'application/json' },
      data: JSON.stringify({ events: [], pad: 'x'.repeat(1024 * 1024 + 1) }),
    })
    expect(res.status()).toBe(413)
    expect((await res.json()).error.code).toBe('payload_too_large')
  })

  test('a body that is not JSON is refused with 415', async ({ request }) => {
    const res = await request.post('/v1/demo/sessions', { headers: { 'content-type': 'text/plain' }, data: 'hello' })
    expect(res.status()).toBe(415)
  })

  test('a valid call works end to end and sets the session cookie', async ({ request }) => {
    const res = await request.post('/v1/demo/sessions', { data: { userId: '0b6e7d0e-4c1b-4f43-9a0e-5d1f6f0a0002' } })
    expect(res.status()).toBe(201)
    expect(res.headers()['set-cookie']).toMatch(/keepsake_session=.*HttpOnly/i)
    const me = await request.get('/v1/growth/authenticate-session')
    expect((await me.json()).user.firstName).toBe('Sam')
  })

  test('static files and pages answer GET again and HEAD, and the server stays up', async ({ request }) => {
    // The compression step once made a static file's web stream and left it unread: the next request stopped the process.
    for (const path of ['/favicon.svg', '/favicon.svg', '/photo-products']) {
      expect((await request.get(path)).status()).toBe(200)
      expect((await request.head(path)).status()).toBe(200)
    }
    expect((await request.get('/favicon.svg')).status()).toBe(200)
  })
})
