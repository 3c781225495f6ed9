import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestApi, type TestApi } from '../support/test-api'

let t: TestApi
beforeAll(async () => {
  t = await createTestApi()
})
afterAll(() => t.close())

describe('sessions and transition tokens (SPEC.md §7)', () => {
  it('answers 401 to authenticate-session without a session', async () => {
    const res = await t.request('/v1/growth/authenticate-session')
    expect(res.status).toBe(401)
    expect(res.body.error.code).toBe('unauthenticated')
  })

  it('sets an HttpOnly SameSite=Lax session cookie on demo sign-in', async () => {
    const res = await t.request('/v1/demo/sessions', { method: 'POST', json: { userId: t.users[0].id } })
    expect(res.status).toBe(201)
    const cookie = res.headers.get('set-cookie')!
    expect(cookie).toMatch(/^keepsake_session=/)
    expect(cookie).toMatch(/HttpOnly/i)
    expect(cookie).toMatch(/SameSite=Lax/i)
    expect(cookie).not.toMatch(/Secure/i)
  })

  it('marks the cookie Secure when the store is served over https', async () => {
    const secure = await createTestApi({ PUBLIC_URL: 'https://store.keepsake.example' })
    try {
      const res = await secure.request('/v1/demo/sessions', { method: 'POST', json: { userId: secure.users[0].id } })
      expect(res.headers.get('set-cookie')).toMatch(/Secure/)
    } finally {
      await secure.close()
    }
  })

  it('recognises the session afterwards', async () => {
    const cookie = await t.signIn(1)
    const res = await t.request('/v1/growth/authenticate-session', { cookie })
    expect(res.status).toBe(200)
    expect(res.body).toMatchObject({ authenticated: true, user: { firstName: 'Sam' } })
  })

  it('signs out: the old cookie no longer works', async () => {
    const cookie = await t.signIn(0)
    const out = await t.request('/v1/growth/authenticate-session', { method: 'DELETE', cookie, headers: { origin: 'http://localhost:3000' } })
    expect(out.status).toBe(200)
    const after = await t.request('/v1/growth/authenticate-session', { cookie })
    expect(after.status).toBe(401)
  })

  it('needs a session to issue a transition token', async () => {
    const res = await t.request('/v1/growth/transition-token')
    expect(res.status).toBe(401)
  })

  it('turns a transition code into a session exactly once', async () => {
    const cookie = await t.signIn(0)
    const issued = await t.request('/v1/growth/transition-token', { cookie })
    expect(issued.status).toBe(200)
    const code = issued.body.transitionToken as string
    expect(code.length).toBeGreaterThanOrEqual(40)

    const first = await t.request('/v1/growth/transition-token', { method: 'POST', headers: { authorization: `Bearer ${code}` } })
    expect(first.status).toBe(200)
    expect(first.body.user.firstName).toBe('Maya')
    const newCookie = first.headers.get('set-cookie')!.split(';')[0]!
    expect((await t.request('/v1/growth/authenticate-session', { cookie: newCookie })).status).toBe(200)

    const second = await t.request('/v1/growth/transition-token', { method: 'POST', headers: { authorization: `Bearer ${code}` } })
    expect(second.status).toBe(401)
    expect(second.headers.get('set-cookie')).toBeNull()
  })

  it('lets only one of two simultaneous redemptions of a code through', async () => {
    const cookie = await t.signIn(0)
    const code = (await t.request('/v1/growth/transition-token', { cookie })).body.transitionToken
    const results = await Promise.all([1, 2, 3].map(() => t.request('/v1/growth/transition-token', { method: 'POST', headers: { authorization: code } })))
    expect(results.map((r) => r.status).sort()).toEqual([200, 401, 401])
  })

  it('refuses an expired code with 401 and sets no cookie', async () => {
    const cookie = await t.signIn(0)
    const code = (await t.request('/v1/growth/transition-token', { cookie })).body.transitionToken
    const issuedAt = t.now()
    t.setNow(new Date(issuedAt.getTime() + 6 * 60 * 1000))
    try {
      const res = await t.request('/v1/growth/transition-token', { method: 'POST', headers: { authorization: `Bearer ${code}` } })
      expect(res.status).toBe(401)
      expect(res.headers.get('set-cookie')).toBeNull()
    } finally {
      t.setNow(issuedAt)
    }
  })

  it('refuses an unknown or missing code with 401', async () => {
    const unknown = await t.request('/v1/growth/transition-token', { method: 'POST', headers: { authorization: 'Bearer not-a-real-code' } })
    expect(unknown.status).toBe(401)
    const missing = await t.request('/v1/growth/transition-token', { method: 'POST' })
    expect(missing.status).toBe(401)
    expect(missing.body.error.message).toMatch(/Authorization header/)
  })

  it('refuses a cross-site write that carries the session cookie', async () => {
    const cookie = await t.signIn(0)
    const res = await t.request('/v1/growth/authenticate-session', {
      method: 'DELETE',
      cookie,
      headers: { origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' },
    })
    expect(res.status).toBe(403)
    expect((await t.request('/v1/growth/authenticate-session', { cookie })).status).toBe(200)
  })

  it('refuses demo sign-in for an account that is not a demo account', async () => {
    const res = await t.request('/v1/demo/sessions', { method: 'POST', json: { userId: '11111111-1111-4111-8111-111111111111' } })
    expect(res.status).toBe(404)
    const bad = await t.request('/v1/demo/sessions', { method: 'POST', json: { userId: 'nope' } })
    expect(bad.status).toBe(400)
  })

  it('has no demo endpoints when demo mode is off', async () => {
    const off = await createTestApi({ DEMO_MODE: 'false' })
    try {
      expect((await off.request('/v1/demo/users')).status).toBe(404)
      expect((await off.request('/v1/demo/sessions', { method: 'POST', json: { userId: off.users[0].id } })).status).toBe(404)
    } finally {
      await off.close()
    }
  })
})

describe('demo mode off', () => {
  it('leaves every other endpoint working', async () => {
    const off = await createTestApi({ DEMO_MODE: 'false' })
    try {
      expect((await off.request('/v1/photo-products/photo-ornament')).status).toBe(200)
      expect((await off.request('/v1/openapi.json')).status).toBe(200)
      expect((await off.request('/v1/growth/authenticate-session')).status).toBe(401)
      const event = {
        event: 'DidViewPage',
        path: '/',
        url: 'http://localhost:3000/',
        sid: '3f1c8a0e-3b6d-4c59-9d8e-1a2b3c4d5e6f',
        occurredAt: '2026-11-22T12:00:00.000Z',
      }
      expect((await off.request('/v1/analytics/events', { method: 'POST', json: { events: [event] } })).status).toBe(202)
    } finally {
      await off.close()
    }
  })
})
