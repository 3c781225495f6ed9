/**
 * Unstorable text: NUL characters and lone surrogates must never reach PostgreSQL's text/jsonb and answer
 * 500. Generated over every string (and every record key) of the requests that write free text,
 * each with each unstorable string: a 400 naming the field, and nothing recorded. Runs on PGlite
 * and, with TEST_DATABASE_URL, on PostgreSQL.
 */
import { randomUUID } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import * as schema from '~/api/db/schema'
import { isStorableText, UNSTORABLE_TEXT_MESSAGE, unstorableTextPath } from '~/contract/text'
import { createTestApi, type TestApi } from '../support/test-api'

let t: TestApi
let maya: string
beforeAll(async () => {
  t = await createTestApi()
  maya = await t.signIn(0)
})
afterAll(() => t.close())

const BAD = ['\u0000', 'a\u0000b', '\ud800', 'x\udc00', 'tail\ud83d'] as const
const address = {
  name: 'Maya Rivera',
  email: 'maya@example.com',
  phone: '212 555 0100',
  line1: '12 Orchard Street',
  line2: 'Apt 4',
  city: 'New York',
  state: 'NY',
  postalCode: '10002',
  country: 'US',
}

/**
 * Valid requests that write free text; `as` signs the request in. `shapeOnly`: valid in shape, but naming things
 * that do not exist (the ordinary-text check below skips it).
 */
const requests: { name: string; path: () => string; json: Record<string, unknown>; as?: 'maya'; method?: 'PUT'; shapeOnly?: true }[] = [
  {
    name: 'analytics events',
    path: () => '/v1/analytics/events',
    json: {
      events: [
        {
          event: 'DidViewPage',
          path: '/',
          url: 'http://localhost:3000/',
          sid: '3f1c8a0e-3b6d-4c59-9d8e-1a2b3c4d5e6f',
          occurredAt: '2026-11-22T12:00:00.000Z',
          properties: { cartId: 'c1' },
        },
      ],
    },
  },
  {
    name: 'a waitlist sign-up',
    path: () => '/v1/smokescreens/waitlist',
    json: { product: 'photo-calendar', sourcePage: '/loop/store/', name: 'Maya Rivera', email: 'maya@example.com', note: 'For grandma' },
  },
  {
    name: 'a delivery sign-up',
    path: () => '/v1/smokescreens/delivery',
    json: {
      product: 'canvas-print',
      name: 'Sam Okafor',
      email: 'sam@example.com',
      line1: '1 Main St',
      line2: 'Unit 4',
      city: 'Albany',
      state: 'ny',
      postalCode: '12207',
      country: 'US',
    },
  },
  {
    name: 'an e-gift purchase',
    path: () => '/v1/egifts/purchases',
    as: 'maya',
    json: { amountCents: 5000, recipientName: 'Gran', recipientEmail: 'gran@example.com', senderName: 'Maya', message: 'Happy holidays!' },
  },
  {
    name: 'an advocate action',
    path: () => '/v1/growth/advocate/user-actions',
    as: 'maya',
    json: { action: 'copied_link', metadata: { surface: 'dashboard' } },
  },
  { name: 'a general action', path: () => '/v1/growth/user-actions', json: { action: 'clicked_refer', metadata: { surface: 'home' } } },
  { name: 'a referred action', path: () => '/v1/growth/referred/user-actions', json: { action: 'viewed_landing', metadata: { variant: 'r' } } },
  {
    name: 'the local checkout',
    path: () => `/v1/checkout/local/${randomUUID()}/pay`,
    as: 'maya',
    json: { cardNumber: '4242424242424242', shippingAddress: address },
  },
  {
    name: 'an address book entry',
    path: () => '/v1/photo-products-addresses',
    json: { label: 'Home', ...address },
    as: 'maya',
  },
  {
    name: 'the cart’s parcels (a gift message and a recipient)',
    path: () => '/v1/photo-products-cart/parcels',
    method: 'PUT',
    as: 'maya',
    shapeOnly: true,
    json: {
      parcels: [
        {
          addressId: randomUUID(),
          shippingMethod: 'express',
          giftMessage: 'Merry Christmas!\nLove, Maya',
          recipientEmail: 'rose@example.org',
          items: [{ cartItemId: randomUUID(), quantity: 1 }],
        },
      ],
    },
  },
]

/** Every way to put `bad` into `value`: each string replaced, each record key replaced. */
function* variants(value: unknown, bad: string): Generator<unknown> {
  if (typeof value === 'string') {
    yield bad
    yield `${value}${bad}`
    return
  }
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) for (const inner of variants(value[i], bad)) yield value.map((v, j) => (j === i ? inner : v))
    return
  }
  if (value && typeof value === 'object') {
    const entries = Object.entries(value)
    for (const [key, inner] of entries) {
      for (const replaced of variants(inner, bad)) yield { ...value, [key]: replaced }
      if (key === 'metadata' || key === 'properties') continue
    }
    for (const key of ['metadata', 'properties'] as const) {
      const record = (value as Record<string, unknown>)[key]
      if (record && typeof record === 'object') yield { ...value, [key]: { ...record, [`k${bad}`]: 'v' } }
    }
  }
}

const counts = async () => ({
  events: (await t.db.select().from(schema.analyticsEvents)).length,
  signups: (await t.db.select().from(schema.smokescreenSignups)).length,
  egifts: (await t.db.select().from(schema.egifts)).length,
  actions: (await t.db.select().from(schema.referralUserActions)).length,
  addresses: (await t.db.select().from(schema.savedAddresses)).length,
})

describe('text PostgreSQL cannot store is refused at the contract (400), whatever the field', () => {
  it('the rule: NUL and lone surrogates are unstorable, paired surrogates (emoji) are fine', () => {
    expect(BAD.every((text) => !isStorableText(text))).toBe(true)
    for (const text of ['', 'Ava · 2026', '🎄 Merry', 'naïve', '\ud83d\ude00']) expect(isStorableText(text)).toBe(true)
    expect(unstorableTextPath({ a: [{ b: 'ok' }, { c: 'x\u0000' }] })).toEqual(['a', '1', 'c'])
    expect(unstorableTextPath({ ['k\ud800']: 1 })).toEqual(['k\\ud800'])
  })

  it('every string and key of every free-text request, with every unstorable string', { timeout: 120_000 }, async () => {
    const before = await counts()
    let cases = 0
    for (const request of requests) {
      for (const bad of BAD) {
        for (const json of variants(request.json, bad)) {
          const res = await t.request(request.path(), {
            method: request.method ?? 'POST',
            json,
            cookie: request.as ? maya : undefined,
            clientAddress: `198.51.100.${cases % 200}`,
          })
          cases++
          expect(res.status, `${request.name}: ${JSON.stringify(json)}`).toBe(400)
          expect(res.body.error.code).toBe('validation_failed')
          expect(res.body.error.issues[0].message).toBe(UNSTORABLE_TEXT_MESSAGE)
        }
      }
    }
    expect(await counts()).toEqual(before)
    console.log(`unstorable text: ${cases} generated requests, all refused with 400`)
    expect(cases).toBeGreaterThan(200)
  })

  it('the same requests with ordinary text still work (the rule refuses only what it should)', async () => {
    for (const request of requests.filter((r) => !r.name.includes('checkout') && !r.shapeOnly)) {
      const res = await t.request(request.path(), { method: 'POST', json: request.json, cookie: request.as ? maya : undefined })
      expect(res.status, request.name).toBeLessThan(300)
    }
  })
})
