import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { smokescreenSignups } from '../../app/api/db/schema'
import { MemoryRateLimiter } from '../../app/api/rate-limit'
import { SMOKESCREEN_SIGNUPS_PER_ADDRESS, smokescreenReport } from '../../app/api/services/smokescreens'
import { createTestApi, type TestApi } from '../support/test-api'

let t: TestApi
let maya: string

beforeAll(async () => {
  t = await createTestApi()
  maya = await t.signIn(0)
})
afterAll(() => t.close())
beforeEach(async () => {
  await t.db.delete(smokescreenSignups)
  t.api.deps.rateLimiter = new MemoryRateLimiter()
})

const waitlist = { product: 'photo-calendar', sourcePage: '/loop/store/', name: 'Maya Rivera', email: 'Maya@Example.com', note: 'For grandma' }
const delivery = {
  product: 'canvas-print',
  name: 'Sam Okafor',
  email: 'sam@example.com',
  line1: '1 Main St',
  city: 'Albany',
  state: 'ny',
  postalCode: '12207',
  country: 'US',
}
const post = (kind: 'waitlist' | 'delivery', json: unknown, init: { cookie?: string; clientAddress?: string } = {}) =>
  t.request(`/v1/smokescreens/${kind}`, { method: 'POST', json, ...init })
const stored = () => t.db.select().from(smokescreenSignups)

describe('smokescreens', () => {
  it('a waitlist sign-up is stored once per shopper and product; the answer says how many want it', async () => {
    const first = await post('waitlist', waitlist, { cookie: maya })
    expect(first.status).toBe(201)
    expect(first.body).toEqual({ kind: 'waitlist', product: 'photo-calendar', created: true, count: 1 })
    const again = await post('waitlist', { ...waitlist, email: 'other@example.com' }, { cookie: maya })
    expect(again.status).toBe(200)
    expect(again.body).toMatchObject({ created: false, count: 1 })
    // Signed out, the e-mail (any case) is the shopper.
    expect((await post('waitlist', waitlist)).status).toBe(201)
    expect((await post('waitlist', { ...waitlist, email: 'MAYA@example.COM' })).status).toBe(200)
    // Another product is another sign-up.
    expect((await post('waitlist', { ...waitlist, product: 'photo-mug' }, { cookie: maya })).body).toMatchObject({ created: true, count: 1 })
    const rows = await stored()
    expect(rows).toHaveLength(3)
    expect(rows[0]).toMatchObject({
      sourcePage: '/loop/store/',
      email: 'maya@example.com',
      userId: t.users[0].id,
      fields: { name: 'Maya Rivera', note: 'For grandma' },
    })
  })

  it('delivery interest takes the delivery fields plus product', async () => {
    const res = await post('delivery', delivery)
    expect(res.status).toBe(201)
    expect((await stored())[0]).toMatchObject({ kind: 'delivery', product: 'canvas-print', fields: { state: 'NY', postalCode: '12207', city: 'Albany' } })
    expect((await post('delivery', delivery)).status).toBe(200)
  })

  it.each([
    ['waitlist', 'an unknown product', { ...waitlist, product: 'yacht' }, 'product must be one of'],
    ['waitlist', 'a sourcePage off this site', { ...waitlist, sourcePage: '//evil.example/x' }, 'sourcePage must be a path on this site'],
    ['waitlist', 'a sourcePage that is a URL', { ...waitlist, sourcePage: 'https://evil.example' }, 'sourcePage must be a path on this site'],
    ['waitlist', 'no name', { ...waitlist, name: '  ' }, 'Enter your name'],
    ['waitlist', 'a bad e-mail', { ...waitlist, email: 'maya@' }, 'That doesn’t look like an e-mail address: it should look like name@example.com'],
    ['waitlist', 'no e-mail', { ...waitlist, email: '' }, 'Enter your e-mail address'],
    ['waitlist', 'an over-long name', { ...waitlist, name: 'x'.repeat(2000) }, 'Name can be at most 100 characters'],
    ['waitlist', 'an over-long note', { ...waitlist, note: 'x'.repeat(501) }, 'Your note can be at most 500 characters'],
    ['delivery', 'no state', { ...delivery, state: '' }, 'Choose a state'],
    ['delivery', 'no name', { ...delivery, name: '' }, 'Enter your name'],
    ['waitlist', 'no product', { ...waitlist, product: undefined }, 'Required'],
    ['delivery', 'an address abroad', { ...delivery, country: 'FR' }, 'We ship to the United States only'],
    ['delivery', 'a bad ZIP code', { ...delivery, postalCode: '1220' }, 'ZIP code must be 5 digits'],
    ['delivery', 'no product', { ...delivery, product: undefined }, 'Required'],
  ] as const)('%s: refuses %s with 400 and stores nothing', async (kind, _name, body, message) => {
    const res = await post(kind, body)
    expect(res.status).toBe(400)
    expect(JSON.stringify(res.body.error)).toContain(message)
    expect(await stored()).toEqual([])
  })

  it('refuses a burst from one address with 429, storing nothing more', async () => {
    for (let i = 0; i < SMOKESCREEN_SIGNUPS_PER_ADDRESS.limit; i++) await post('waitlist', { ...waitlist, email: `f${i}@example.com` })
    const res = await post('waitlist', { ...waitlist, email: 'late@example.com' })
    expect(res.status).toBe(429)
    expect(await stored()).toHaveLength(SMOKESCREEN_SIGNUPS_PER_ADDRESS.limit)
    expect((await post('waitlist', { ...waitlist, email: 'late@example.com' }, { clientAddress: '192.0.2.9' })).status).toBe(201)
  })

  it('the team’s report counts people per product and kind, most wanted first', async () => {
    await post('waitlist', waitlist, { cookie: maya })
    await post('waitlist', { ...waitlist, email: 'a@example.com' })
    await post('waitlist', { ...waitlist, email: 'a@example.com' })
    await post('delivery', delivery)
    const report = await smokescreenReport(t.db)
    expect(report.map((r) => [r.product, r.kind, Number(r.signups), Number(r.signedIn)])).toEqual([
      ['photo-calendar', 'waitlist', 2, 1],
      ['canvas-print', 'delivery', 1, 0],
    ])
  })

  it('GET /v1/smokescreens/report tallies each product, most wanted first, with nobody-asked products as zeros', async () => {
    await post('waitlist', waitlist, { cookie: maya })
    await post('waitlist', { ...waitlist, email: 'a@example.com' })
    await post('delivery', { ...delivery, product: 'photo-calendar' })
    await post('delivery', delivery)
    const res = await t.request('/v1/smokescreens/report')
    expect(res.status).toBe(200)
    expect(res.body.readAt).toBe(t.now().toISOString())
    expect(res.body.products).toEqual([
      { product: 'photo-calendar', waitlist: 2, delivery: 1, total: 3, lastAt: t.now().toISOString() },
      { product: 'canvas-print', waitlist: 0, delivery: 1, total: 1, lastAt: t.now().toISOString() },
      { product: 'jigsaw-puzzle', waitlist: 0, delivery: 0, total: 0, lastAt: null },
      { product: 'photo-book', waitlist: 0, delivery: 0, total: 0, lastAt: null },
      { product: 'photo-mug', waitlist: 0, delivery: 0, total: 0, lastAt: null },
    ])
  })

  it('the report is absent (404) outside demo mode', async () => {
    const off = await createTestApi({ DEMO_MODE: 'false' })
    try {
      const res = await off.request('/v1/smokescreens/report')
      expect(res.status).toBe(404)
      expect(res.body.error.code).toBe('not_found')
    } finally {
      await off.close()
    }
  })
})
