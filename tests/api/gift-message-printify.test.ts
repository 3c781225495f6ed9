import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { PrintifyClient, PrintifyProvider } from '../../app/api/providers/print/printify'
import type { Cart } from '../../app/contract/cart'
import { cartItemFor, recordPreview } from '../support/cart'
import { createPrintifyMock, MOCK_PRINTIFY_SHOP_ID, MOCK_PRINTIFY_TOKEN } from '../support/printify-mock'
import { createTestApi, type TestApi } from '../support/test-api'

/**
 * Issue 42, item 2 (decision 070): Printify prints no packing slip of ours, so a gift message reaches the recipient
 * only in the e-mail sent when the parcel ships. The store says so, and takes no message it could not deliver.
 */
const mock = createPrintifyMock()
let t: TestApi
let cookie: string
beforeAll(async () => {
  const client = new PrintifyClient({ apiToken: MOCK_PRINTIFY_TOKEN, shopId: MOCK_PRINTIFY_SHOP_ID, fetch: mock.fetch, sleep: async () => {} })
  t = await createTestApi({}, { print: new PrintifyProvider(client) })
  cookie = await t.signIn(0)
})
afterAll(() => t.close())

const api = (path: string, init: { method?: string; json?: unknown } = {}) => t.request(path, { cookie, ...init })
const rose = { label: 'Grandma Rose', name: 'Rose Rivera', line1: '4 Maple Court', city: 'Columbus', state: 'OH', postalCode: '43004', phone: '' }

describe('a gift message with Printify', () => {
  it('the store says the message goes by e-mail to the recipient', async () => {
    const res = await api('/v1/photo-products-shipping')
    expect(res.status).toBe(200)
    expect(res.body.giftMessageVia).toBe('recipient_email')
  })

  it('refuses a message without the recipient’s e-mail (400, on the e-mail field), changing nothing; takes it with one', async () => {
    const preview = await recordPreview(t, t.users[0].id, 'star')
    const added = await api('/v1/photo-products-cart/items', { method: 'POST', json: { ...cartItemFor(preview), quantity: 2 } })
    expect(added.status).toBe(201)
    const line = added.body.item.id as string
    const saved = await api('/v1/photo-products-addresses', { method: 'POST', json: rose })
    expect(saved.status).toBe(201)
    const roseId = saved.body.id as string
    const parcel = { addressId: roseId, items: [{ cartItemId: line, quantity: 1 }] }
    expect((await api('/v1/photo-products-cart/parcels', { method: 'PUT', json: { parcels: [parcel] } })).status).toBe(200)
    const before = (await api('/v1/photo-products-cart')).body as Cart

    const refused = await api('/v1/photo-products-cart/parcels', { method: 'PUT', json: { parcels: [{ ...parcel, giftMessage: 'Love, Ava' }] } })
    expect(refused.status).toBe(400)
    expect(refused.body.error.issues).toEqual([{ path: 'body.parcels.0.recipientEmail', message: expect.stringMatching(/^Add their e-mail: .*by e-mail/) }])
    const blank = await api('/v1/photo-products-cart/parcels', {
      method: 'PUT',
      json: { parcels: [{ ...parcel, giftMessage: 'Love, Ava', recipientEmail: '   ' }] },
    })
    expect(blank.status).toBe(400)
    expect((await api('/v1/photo-products-cart')).body).toEqual(before)

    // No message needs no e-mail; a message with the e-mail is kept.
    const taken = await api('/v1/photo-products-cart/parcels', {
      method: 'PUT',
      json: { parcels: [{ ...parcel, giftMessage: 'Love, Ava', recipientEmail: 'rose@example.org' }] },
    })
    expect(taken.status, JSON.stringify(taken.body)).toBe(200)
    expect((taken.body as Cart).parcels[1]).toMatchObject({ giftMessage: 'Love, Ava', recipientEmail: 'rose@example.org' })
  })
})
