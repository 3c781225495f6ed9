/**
 * The Printify mock's own contract (tests/support/printify-mock.ts): orders that make their products from print-area
 * URLs, orders held on-hold until send_to_production, cancellation, the products list and deletion, upload archiving,
 * and the opt-in request limits with a fake clock.
 */
import { describe, expect, it } from 'vitest'
import { createPrintifyMock, MOCK_ORNAMENT_BLUEPRINT, MOCK_ORNAMENT_PROVIDER, type PrintifyMockOptions } from '../support/printify-mock'

const START = Date.UTC(2025, 0, 15, 12, 0, 0)
const PNG_1PX = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg=='
const ADDRESS = { first_name: 'Ada', last_name: 'Lovelace', country: 'US', address1: '1 Main St', city: 'Springfield', zip: '12345' }

function setup(options: PrintifyMockOptions = {}) {
  let t = START
  const mock = createPrintifyMock({ now: () => t, ...options })
  const shop = `/v1/shops/${mock.shopId}`
  /** A request as our adapter sends it; `body` undefined sends none (no Content-Type either). */
  async function api(method: string, path: string, body?: unknown) {
    const headers: Record<string, string> = { Authorization: `Bearer ${mock.token}`, 'User-Agent': 'mock-tests/1.0' }
    if (body !== undefined) headers['Content-Type'] = 'application/json'
    const res = await mock.fetch(`https://api.printify.com${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) })
    return { status: res.status, headers: res.headers, body: (await res.json()) as Record<string, any> }
  }
  return {
    mock,
    shop,
    api,
    clock: {
      now: () => t,
      advance: (ms: number) => {
        t += ms
      },
      set: (ms: number) => {
        t = ms
      },
    },
  }
}

type Setup = ReturnType<typeof setup>

async function upload({ api }: Setup) {
  const res = await api('POST', '/v1/uploads/images.json', { file_name: 'front.png', contents: PNG_1PX })
  expect(res.status).toBe(200)
  return res.body.id as string
}

async function makeProduct(t: Setup, title = 'Ornament') {
  const image = await upload(t)
  const res = await t.api('POST', `${t.shop}/products.json`, {
    title,
    description: 'A keepsake',
    blueprint_id: MOCK_ORNAMENT_BLUEPRINT,
    print_provider_id: MOCK_ORNAMENT_PROVIDER,
    variants: [{ id: 72963, price: 1999 }],
    print_areas: [{ variant_ids: [72963], placeholders: [{ position: 'front', images: [{ id: image, x: 0.5, y: 0.5, scale: 1, angle: 0 }] }] }],
  })
  expect(res.status).toBe(200)
  return res.body.id as string
}

const byUrlLine = (overrides: Record<string, unknown> = {}) => ({
  print_provider_id: 5,
  blueprint_id: 9,
  variant_id: 17887,
  print_areas: { front: 'https://files.example.com/front.png', back: 'http://files.example.com/back.png' },
  quantity: 1,
  ...overrides,
})

const orderBody = (lineItems: unknown[], overrides: Record<string, unknown> = {}) => ({
  external_id: 'ord_1',
  line_items: lineItems,
  shipping_method: 1,
  send_shipping_notification: false,
  address_to: ADDRESS,
  ...overrides,
})

async function placeOrder(t: Setup, lineItems?: unknown[]) {
  const res = await t.api('POST', `${t.shop}/orders.json`, orderBody(lineItems ?? [{ product_id: await makeProduct(t), variant_id: 72963, quantity: 1 }]))
  expect(res.status).toBe(200)
  return res.body.id as string
}

function expectInvalid(res: { status: number; body: Record<string, any> }, ...reasons: (string | RegExp)[]) {
  expect(res.status).toBe(400)
  expect(res.body).toMatchObject({ status: 'error', code: 8150, message: 'Validation failed.', errors: { code: 8150 } })
  for (const reason of reasons) expect(res.body.errors.reason).toMatch(reason)
}

describe('orders that make their products from print-area URLs', () => {
  it('makes one product per such line, records the URLs Printify fetched, and stores the new product id on the line', async () => {
    const t = setup()
    const existing = await makeProduct(t)
    const res = await t.api('POST', `${t.shop}/orders.json`, orderBody([byUrlLine({ quantity: 2 }), { product_id: existing, variant_id: 72963, quantity: 1 }]))
    expect(res.status).toBe(200)
    expect(res.body).toEqual({ id: expect.stringMatching(/^7[0-9a-f]{23}$/) })
    const orderId = res.body.id as string

    const order = t.mock.orders.get(orderId)!
    const made = t.mock.products.get(order.line_items[0]!.product_id)!
    expect(made.id).toMatch(/^6[0-9a-f]{23}$/)
    expect(made).toMatchObject({ madeByOrder: true, blueprint_id: 9, print_provider_id: 5, shop_id: t.mock.shopId })
    expect(made.variants).toEqual([{ id: 17887, price: 0, is_enabled: true, is_default: true, sku: `${made.id.slice(-6)}-17887`, title: 'Variant 17887' }])
    expect(made.print_areas).toEqual([
      {
        variant_ids: [17887],
        placeholders: [
          { position: 'front', images: [{ src: 'https://files.example.com/front.png' }] },
          { position: 'back', images: [{ src: 'http://files.example.com/back.png' }] },
        ],
      },
    ])
    expect(order.line_items).toMatchObject([
      { product_id: made.id, variant_id: 17887, quantity: 2, metadata: { sku: made.variants[0]!.sku } },
      { product_id: existing, variant_id: 72963, quantity: 1 },
    ])
    expect(t.mock.products.get(existing)!.madeByOrder).toBeUndefined()
    expect(t.mock.printFileUrls).toEqual([
      { orderId, position: 'front', url: 'https://files.example.com/front.png' },
      { orderId, position: 'back', url: 'http://files.example.com/back.png' },
    ])

    // The product is Printify's like any other, without the mock's mark.
    const got = await t.api('GET', `${t.shop}/products/${made.id}.json`)
    expect(got.status).toBe(200)
    expect(got.body).toMatchObject({ id: made.id, blueprint_id: 9 })
    expect(got.body).not.toHaveProperty('madeByOrder')
  })

  it.each([
    ['blueprint_id not a positive integer', byUrlLine({ blueprint_id: 0 }), /line_items\.0\.blueprint_id: /],
    ['print_provider_id missing', byUrlLine({ print_provider_id: undefined }), /line_items\.0\.print_provider_id: /],
    ['print_provider_id a string', byUrlLine({ print_provider_id: '5' }), /line_items\.0\.print_provider_id: /],
    ['variant_id missing', byUrlLine({ variant_id: undefined }), /line_items\.0\.variant_id: /],
    ['variant_id fractional', byUrlLine({ variant_id: 1.5 }), /line_items\.0\.variant_id: /],
    ['print_areas empty', byUrlLine({ print_areas: {} }), /line_items\.0\.print_areas: .*at least one/],
    ['print_areas an array', byUrlLine({ print_areas: ['https://x.example/a.png'] }), /line_items\.0\.print_areas: /],
    ['a print area not a URL', byUrlLine({ print_areas: { front: 'front.png' } }), /line_items\.0\.print_areas\.front: .*URL/],
    ['a print area on ftp', byUrlLine({ print_areas: { front: 'ftp://x.example/a.png' } }), /line_items\.0\.print_areas\.front: /],
    ['a print area not a string', byUrlLine({ print_areas: { back: { src: 'https://x.example/a.png' } } }), /line_items\.0\.print_areas\.back: /],
    ['blueprint_id without print_areas', byUrlLine({ print_areas: undefined }), /line_items\.0\.print_areas: /],
    ['quantity 0', byUrlLine({ quantity: 0 }), /line_items\.0\.quantity: /],
    ['neither product_id nor blueprint_id', { variant_id: 17887, quantity: 1 }, /line_items\.0\.product_id: .*required/],
  ])('refuses a line with %s (and makes nothing)', async (_name, line, reason) => {
    const t = setup()
    const res = await t.api('POST', `${t.shop}/orders.json`, orderBody([line]))
    expectInvalid(res, reason)
    expect(t.mock.orders.size).toBe(0)
    expect(t.mock.products.size).toBe(0)
    expect(t.mock.printFileUrls).toEqual([])
  })

  it('refuses a line with both product_id and blueprint_id/print_areas', async () => {
    const t = setup()
    const existing = await makeProduct(t)
    const res = await t.api('POST', `${t.shop}/orders.json`, orderBody([byUrlLine({ product_id: existing })]))
    expectInvalid(res, /line_items\.0: .*either product_id or blueprint_id with print_areas, not both/)
    expect(t.mock.products.size).toBe(1)
  })

  it('names each bad line by its index, and makes no product when another line is bad', async () => {
    const t = setup()
    const res = await t.api(
      'POST',
      `${t.shop}/orders.json`,
      orderBody([byUrlLine(), byUrlLine({ blueprint_id: -1 }), { product_id: 'nope', variant_id: 1, quantity: 1 }]),
    )
    expectInvalid(res, /line_items\.1\.blueprint_id: /, /line_items\.2\.product_id: Product nope does not exist/)
    expect(res.body.errors.reason).not.toMatch(/line_items\.0/)
    expect(t.mock.products.size).toBe(0)
    expect(t.mock.printFileUrls).toEqual([])
  })

  it('refuses economy shipping (method 4) for an order that makes products, and takes it for one that does not', async () => {
    const t = setup()
    const refused = await t.api('POST', `${t.shop}/orders.json`, orderBody([byUrlLine()], { shipping_method: 4 }))
    expectInvalid(refused, 'shipping_method: shipping method 4 (economy) will not be usable when creating a product with an order')
    expect(t.mock.products.size).toBe(0)

    const product = await makeProduct(t)
    const taken = await t.api('POST', `${t.shop}/orders.json`, orderBody([{ product_id: product, variant_id: 72963, quantity: 1 }], { shipping_method: 4 }))
    expect(taken.status).toBe(200)
  })
})

describe('order approval', () => {
  it("holds an API order 'on-hold', line items too, by default (manual approval)", async () => {
    const t = setup()
    const id = await placeOrder(t)
    const got = await t.api('GET', `${t.shop}/orders/${id}.json`)
    expect(got.body).toMatchObject({ id, status: 'on-hold', line_items: [{ status: 'on-hold' }] })
    const listed = await t.api('GET', `${t.shop}/orders.json`)
    expect(listed.body.data[0]).toMatchObject({ id, status: 'on-hold' })
  })

  it('sends it on at once with automatic approval, so send_to_production then finds it in production', async () => {
    const t = setup({ approval: 'automatic' })
    const id = await placeOrder(t)
    expect(t.mock.orders.get(id)).toMatchObject({ status: 'in-production', line_items: [{ status: 'in-production' }] })
    const res = await t.api('POST', `${t.shop}/orders/${id}/send_to_production.json`)
    expect(res.status).toBe(400)
    expect(res.body.errors.reason).toBe('Not allowed to send order to production with status in-production')
  })
})

describe('send_to_production', () => {
  it('sends an on-hold order (no body at all): answers the order sending to production, then holds it in production', async () => {
    const t = setup()
    const id = await placeOrder(t)
    const res = await t.api('POST', `${t.shop}/orders/${id}/send_to_production.json`)
    expect(res.status).toBe(200)
    expect(res.body).toMatchObject({ id, external_id: 'ord_1', status: 'sending-to-production', line_items: [{ status: 'sending-to-production' }] })
    expect(t.mock.orders.get(id)).toMatchObject({ status: 'in-production', line_items: [{ status: 'in-production' }] })
    expect(t.mock.sentToProduction.get(id)).toBe(1)
  })

  it('takes an empty JSON object as the body too', async () => {
    const t = setup()
    const id = await placeOrder(t)
    expect((await t.api('POST', `${t.shop}/orders/${id}/send_to_production.json`, {})).status).toBe(200)
  })

  it('refuses a second send, and an order in any other status, with code 8502; counts every call', async () => {
    const t = setup()
    const id = await placeOrder(t)
    await t.api('POST', `${t.shop}/orders/${id}/send_to_production.json`)
    const again = await t.api('POST', `${t.shop}/orders/${id}/send_to_production.json`)
    expect(again.status).toBe(400)
    expect(again.body).toEqual({
      status: 'error',
      code: 8502,
      message: 'Operation not allowed.',
      errors: { reason: 'Not allowed to send order to production with status in-production', code: 8502 },
    })
    expect(t.mock.sentToProduction.get(id)).toBe(2)

    const canceled = await placeOrder(t)
    await t.api('POST', `${t.shop}/orders/${canceled}/cancel.json`)
    const refused = await t.api('POST', `${t.shop}/orders/${canceled}/send_to_production.json`)
    expect(refused.status).toBe(400)
    expect(refused.body.errors.reason).toBe('Not allowed to send order to production with status canceled')
    expect(t.mock.orders.get(canceled)!.status).toBe('canceled')
  })

  it('answers 404 for an unknown order and counts nothing', async () => {
    const t = setup()
    const res = await t.api('POST', `${t.shop}/orders/${'7'.repeat(24)}/send_to_production.json`)
    expect(res.status).toBe(404)
    expect(t.mock.sentToProduction.size).toBe(0)
  })

  it('still refuses a body that is not JSON', async () => {
    const t = setup()
    const id = await placeOrder(t)
    const res = await t.mock.fetch(`https://api.printify.com${t.shop}/orders/${id}/send_to_production.json`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${t.mock.token}`, 'User-Agent': 'mock-tests/1.0', 'Content-Type': 'application/json' },
      body: 'not json',
    })
    expect(res.status).toBe(400)
    expect(t.mock.orders.get(id)!.status).toBe('on-hold')
  })

  it('works over HTTP without a body (listen)', async () => {
    const t = setup()
    const id = await placeOrder(t)
    const server = await t.mock.listen()
    try {
      const res = await fetch(`${server.url}${t.shop}/orders/${id}/send_to_production.json`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${t.mock.token}`, 'User-Agent': 'mock-tests/1.0' },
      })
      expect(res.status).toBe(200)
      expect(t.mock.orders.get(id)!.status).toBe('in-production')
    } finally {
      await server.close()
    }
  })
})

describe('cancel', () => {
  it('cancels an on-hold order (no body): order and line items canceled, answers the order', async () => {
    const t = setup()
    const id = await placeOrder(t)
    const res = await t.api('POST', `${t.shop}/orders/${id}/cancel.json`)
    expect(res.status).toBe(200)
    expect(res.body).toMatchObject({ id, status: 'canceled', line_items: [{ status: 'canceled' }] })
    expect(t.mock.orders.get(id)).toMatchObject({ status: 'canceled', line_items: [{ status: 'canceled' }] })
  })

  it('cancels an order whose payment was not received, with `{}` as the body', async () => {
    const t = setup()
    const id = await placeOrder(t)
    t.mock.orders.get(id)!.status = 'payment-not-received'
    const res = await t.api('POST', `${t.shop}/orders/${id}/cancel.json`, {})
    expect(res.status).toBe(200)
    expect(res.body.status).toBe('canceled')
  })

  it.each(['in-production', 'canceled', 'fulfilled'])('refuses an order %s with 400 code 8502 and leaves it as it was', async (status) => {
    const t = setup()
    const id = await placeOrder(t)
    if (status === 'in-production') await t.api('POST', `${t.shop}/orders/${id}/send_to_production.json`)
    else if (status === 'canceled') await t.api('POST', `${t.shop}/orders/${id}/cancel.json`)
    else t.mock.stepOrder(id, 'shipped')
    const res = await t.api('POST', `${t.shop}/orders/${id}/cancel.json`)
    expect(res.status).toBe(400)
    expect(res.body).toMatchObject({ status: 'error', code: 8502, errors: { reason: `Not allowed to cancel order with status ${status}`, code: 8502 } })
    expect(t.mock.orders.get(id)!.status).toBe(status)
  })

  it('answers 404 for an unknown order', async () => {
    const t = setup()
    const res = await t.api('POST', `${t.shop}/orders/${'7'.repeat(24)}/cancel.json`)
    expect(res.status).toBe(404)
    expect(res.body).toMatchObject({ status: 'error', code: 404 })
  })
})

describe('products list, product deletion, upload archiving', () => {
  it('lists products newest first in the page envelope, limit 10 by default and at most 100', async () => {
    const t = setup()
    const ids: string[] = []
    for (let i = 1; i <= 12; i++) ids.push(await makeProduct(t, `P${i}`))

    const first = await t.api('GET', `${t.shop}/products.json`)
    expect(first.status).toBe(200)
    expect(first.body).toMatchObject({
      current_page: 1,
      per_page: 10,
      last_page: 2,
      total: 12,
      from: 1,
      to: 10,
      prev_page_url: null,
      next_page_url: `https://api.printify.com${t.shop}/products.json?page=2`,
      path: `https://api.printify.com${t.shop}/products.json`,
    })
    expect(first.body.data.map((p: { title: string }) => p.title)).toEqual(['P12', 'P11', 'P10', 'P9', 'P8', 'P7', 'P6', 'P5', 'P4', 'P3'])

    const second = await t.api('GET', `${t.shop}/products.json?page=2`)
    expect(second.body).toMatchObject({ current_page: 2, from: 11, to: 12, next_page_url: null })
    expect(second.body.data.map((p: { id: string }) => p.id)).toEqual([ids[1], ids[0]])

    const all = await t.api('GET', `${t.shop}/products.json?page=1&limit=100`)
    expect(all.body).toMatchObject({ per_page: 100, last_page: 1, total: 12 })
    expect(all.body.data).toHaveLength(12)

    expectInvalid(await t.api('GET', `${t.shop}/products.json?limit=101`), 'limit: The limit may not be greater than 100.')
    expectInvalid(await t.api('GET', `${t.shop}/products.json?page=0`), /page: /)
  })

  it('deletes a product (answers {}), which then is gone; an unknown one is 404', async () => {
    const t = setup()
    const id = await makeProduct(t)
    const res = await t.api('DELETE', `${t.shop}/products/${id}.json`)
    expect(res).toMatchObject({ status: 200, body: {} })
    expect(t.mock.products.has(id)).toBe(false)
    expect((await t.api('GET', `${t.shop}/products/${id}.json`)).status).toBe(404)
    expect((await t.api('DELETE', `${t.shop}/products/${id}.json`)).status).toBe(404)
    expect((await t.api('GET', `${t.shop}/products.json`)).body.total).toBe(0)
  })

  it('archives an upload (no body, answers {}), marking it archived; an unknown one is 404', async () => {
    const t = setup()
    const id = await upload(t)
    const res = await t.api('POST', `/v1/uploads/${id}/archive.json`)
    expect(res).toMatchObject({ status: 200, body: {} })
    expect(t.mock.archivedUploads.has(id)).toBe(true)
    expect(t.mock.uploads.has(id)).toBe(true)
    const unknown = await t.api('POST', `/v1/uploads/${'5'.repeat(24)}/archive.json`)
    expect(unknown.status).toBe(404)
    expect(t.mock.archivedUploads.size).toBe(1)
  })
})

describe('enforceLimits', () => {
  const products = (t: Setup) => `${t.shop}/products.json`

  it('answers nothing but what was asked while off', async () => {
    const t = setup()
    for (let i = 0; i < 700; i++) expect((await t.api('GET', products(t))).status).toBe(200)
    expect(t.mock.refused).toBe(0)
  })

  it('refuses the request beyond perMinute in a sliding 60 s window, with Retry-After to when the oldest leaves it', async () => {
    const t = setup()
    t.mock.enforceLimits({ perMinute: 3 })
    expect((await t.api('GET', products(t))).status).toBe(200) // at 0 s
    t.clock.advance(10_000)
    expect((await t.api('GET', products(t))).status).toBe(200) // at 10 s
    t.clock.advance(20_000)
    expect((await t.api('GET', products(t))).status).toBe(200) // at 30 s

    t.clock.advance(500) // 30.5 s: the oldest leaves at 60 s
    const refused = await t.api('GET', products(t))
    expect(refused.status).toBe(429)
    expect(refused.body).toEqual({ status: 'error', code: 429, message: 'Too Many Attempts.' })
    expect(refused.headers.get('retry-after')).toBe('30')
    expect(t.mock.refused).toBe(1)

    t.clock.set(START + 59_999) // a refused request does not count, but the oldest is still in the window
    const still = await t.api('GET', products(t))
    expect(still.status).toBe(429)
    expect(still.headers.get('retry-after')).toBe('1') // at least 1
    t.clock.set(START + 60_000)
    expect((await t.api('GET', products(t))).status).toBe(200)
    expect((await t.api('GET', products(t))).status).toBe(429) // 10 s, 30 s and 60 s are in the window
    expect(t.mock.refused).toBe(3)
    expect(t.mock.stats()).toMatchObject({ refused: 3, refusedPerMinute: 3, refusedDailyProducts: 0 })
  })

  it('counts every answered request, errors included, and refuses any kind of request', async () => {
    const t = setup()
    t.mock.enforceLimits({ perMinute: 2 })
    expect((await t.api('GET', `${t.shop}/products/nope.json`)).status).toBe(404)
    expect((await t.api('POST', `${t.shop}/orders.json`, {})).status).toBe(400)
    const res = await t.api('POST', '/v1/uploads/images.json', { file_name: 'a.png', contents: PNG_1PX })
    expect(res.status).toBe(429)
    expect(t.mock.uploads.size).toBe(0) // not processed
  })

  it('defaults to Printify’s 600 a minute', async () => {
    const t = setup()
    t.mock.enforceLimits()
    for (let i = 0; i < 600; i++) expect((await t.api('GET', products(t))).status).toBe(200)
    const res = await t.api('GET', products(t))
    expect(res.status).toBe(429)
    expect(res.headers.get('retry-after')).toBe('60')
  })

  it('uses its own clock when given one', async () => {
    const t = setup()
    let limitClock = 0
    t.mock.enforceLimits({ perMinute: 1, now: () => limitClock })
    expect((await t.api('GET', products(t))).status).toBe(200)
    t.clock.advance(120_000) // the mock's clock does not move the window
    expect((await t.api('GET', products(t))).status).toBe(429)
    limitClock = 60_000
    expect((await t.api('GET', products(t))).status).toBe(200)
  })

  it('caps POST products.json per UTC day (Retry-After to midnight UTC), never counting products made by orders', async () => {
    const t = setup()
    t.mock.enforceLimits({ dailyProducts: 2 })
    await makeProduct(t)
    // An order that makes two products does not use the daily allowance.
    const order = await t.api('POST', `${t.shop}/orders.json`, orderBody([byUrlLine(), byUrlLine({ variant_id: 17888 })]))
    expect(order.status).toBe(200)
    await makeProduct(t)
    expect(t.mock.products.size).toBe(4)

    t.clock.set(Date.UTC(2025, 0, 15, 23, 59, 0, 500))
    const image = await upload(t)
    const res = await t.api('POST', products(t), {
      title: 'Third',
      description: '',
      blueprint_id: MOCK_ORNAMENT_BLUEPRINT,
      print_provider_id: MOCK_ORNAMENT_PROVIDER,
      variants: [{ id: 72963, price: 1999 }],
      print_areas: [{ variant_ids: [72963], placeholders: [{ position: 'front', images: [{ id: image, x: 0.5, y: 0.5, scale: 1, angle: 0 }] }] }],
    })
    expect(res.status).toBe(429)
    expect(res.body).toEqual({ status: 'error', code: 429, message: 'Too Many Attempts.' })
    expect(res.headers.get('retry-after')).toBe('60') // 59.5 s to midnight, rounded up
    expect(t.mock.products.size).toBe(4)
    // Other requests, and more orders that make products, are still answered.
    expect((await t.api('GET', products(t))).status).toBe(200)
    expect((await t.api('POST', `${t.shop}/orders.json`, orderBody([byUrlLine()]))).status).toBe(200)
    expect(t.mock.stats()).toMatchObject({ refused: 1, refusedPerMinute: 0, refusedDailyProducts: 1 })

    t.clock.set(Date.UTC(2025, 0, 16, 0, 0, 0))
    await makeProduct(t) // a new UTC day
    expect(t.mock.refused).toBe(1)
  })

  it('does not count failed product creations toward the daily cap', async () => {
    const t = setup()
    t.mock.enforceLimits({ dailyProducts: 1 })
    expect((await t.api('POST', products(t), { title: '' })).status).toBe(400)
    await makeProduct(t)
    expect(t.mock.refused).toBe(0)
  })

  it('keeps injected 429s (rateLimitNext) out of `refused`', async () => {
    const t = setup()
    t.mock.enforceLimits({ perMinute: 100 })
    t.mock.rateLimitNext(2, '5')
    const res = await t.api('GET', products(t))
    expect(res.status).toBe(429)
    expect(res.headers.get('retry-after')).toBe('5')
    await t.api('GET', products(t))
    expect(t.mock.refused).toBe(0)
    expect(t.mock.stats()).toMatchObject({ refused: 0, injectedRateLimits: 2 })
  })
})
