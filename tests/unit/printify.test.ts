import sharp from 'sharp'
import { beforeAll, describe, expect, it } from 'vitest'
import {
  PrintifyClient,
  PrintifyProvider,
  errorDetail,
  isReachableByPrintify,
  parseRetryAfter,
  printifyOrderBody,
  type FetchLike,
  type PrintifyClientOptions,
  type PrintifyCreateOrderBody,
} from '../../app/api/providers/print/printify'
import { PrintProviderError, type PreviewProductInput, type PrintFile } from '../../app/api/providers/print/provider'
import { createPrintifyMock } from '../support/printify-mock'

const START = Date.UTC(2025, 0, 15, 12, 0, 0)
const BLUEPRINT = 1186
const PRINT_PROVIDER = 228
const VARIANT = 92519

/** Injected time: `sleep` records its argument and (unless frozen) moves the clock; no real time passes. */
function virtualClock({ frozen = false } = {}) {
  let t = START
  const sleeps: number[] = []
  return {
    sleeps,
    now: () => t,
    sleep: async (ms: number) => {
      sleeps.push(ms)
      if (!frozen) t += ms
    },
    advance: (ms: number) => {
      t += ms
    },
  }
}

function setup(overrides: Partial<PrintifyClientOptions> & { frozen?: boolean } = {}) {
  const { frozen, ...clientOptions } = overrides
  const mock = createPrintifyMock({ now: () => START })
  const clock = virtualClock({ frozen })
  const client = new PrintifyClient({
    apiToken: mock.token,
    shopId: mock.shopId,
    fetch: mock.fetch,
    sleep: clock.sleep,
    now: clock.now,
    userAgent: 'Keepsake-tests/1.0',
    ...clientOptions,
  })
  return { mock, clock, client, provider: new PrintifyProvider(client) }
}

let frontPng: Buffer
let backPng: Buffer
beforeAll(async () => {
  const make = (width: number, height: number, background: string) =>
    sharp({ create: { width, height, channels: 4, background } })
      .png()
      .toBuffer()
  ;[frontPng, backPng] = await Promise.all([make(30, 20, '#c33'), make(30, 20, '#33c')])
})

function printFile(position: PrintFile['position'], url: string): PrintFile {
  return { position, fileName: `prv_123-${position}.png`, url, png: position === 'front' ? frontPng : backPng }
}

function previewInput(printFiles: PrintFile[], overrides: Partial<PreviewProductInput> = {}): PreviewProductInput {
  return {
    previewId: 'prv_123',
    title: 'Keepsake ornament',
    description: 'A personalised ceramic ornament.',
    blueprintId: BLUEPRINT,
    printProviderId: PRINT_PROVIDER,
    variantId: VARIANT,
    priceCents: 2499,
    printFiles,
    ...overrides,
  }
}

/** Uploads one image and creates a one-variant product straight through the client. */
async function seedProduct(client: PrintifyClient) {
  const upload = await client.uploadImage({ fileName: 'seed.png', contents: frontPng })
  return client.createProduct({
    title: 'Seed',
    description: '',
    blueprint_id: BLUEPRINT,
    print_provider_id: PRINT_PROVIDER,
    variants: [{ id: VARIANT, price: 1999, is_enabled: true }],
    print_areas: [
      {
        variant_ids: [VARIANT],
        placeholders: [{ position: 'front', images: [{ id: upload.id, x: 0.5, y: 0.5, scale: 1, angle: 0 }] }],
      },
    ],
  })
}

function orderBody(productId: string, externalId: string): PrintifyCreateOrderBody {
  return {
    external_id: externalId,
    line_items: [{ product_id: productId, variant_id: VARIANT, quantity: 2 }],
    shipping_method: 1,
    is_printify_express: false,
    send_shipping_notification: false,
    address_to: {
      first_name: 'Ada',
      last_name: 'Lovelace',
      email: 'ada@example.org',
      phone: '+44 20 7946 0000',
      country: 'GB',
      region: 'London',
      address1: '12 St James Square',
      address2: '',
      city: 'London',
      zip: 'SW1Y 4JH',
    },
  }
}

async function failure(promise: Promise<unknown>): Promise<PrintProviderError> {
  const error = await promise.then(
    () => {
      throw new Error('expected the call to fail')
    },
    (e: unknown) => e,
  )
  expect(error).toBeInstanceOf(PrintProviderError)
  return error as PrintProviderError
}

describe('PrintifyClient: requests', () => {
  it('sends the Bearer token, a User-Agent and JSON', async () => {
    const { mock, client } = setup()
    const product = await seedProduct(client)
    await client.getProduct(product.id)

    const [upload, create, get] = mock.calls
    for (const call of [upload!, create!, get!]) {
      expect(call.headers.authorization).toBe(`Bearer ${mock.token}`)
      expect(call.headers['user-agent']).toBe('Keepsake-tests/1.0')
      expect(call.headers.accept).toBe('application/json')
    }
    expect(upload!.headers['content-type']).toBe('application/json;charset=utf-8')
    expect(create!.headers['content-type']).toBe('application/json;charset=utf-8')
    expect(get!.headers['content-type']).toBeUndefined()
    expect(mock.calls.map((c) => `${c.method} ${c.path}`)).toEqual([
      'POST /v1/uploads/images.json',
      `POST /v1/shops/${mock.shopId}/products.json`,
      `GET /v1/shops/${mock.shopId}/products/${product.id}.json`,
    ])
  })

  it('sends a default User-Agent, since Printify requires one', async () => {
    const { mock, client } = setup({ userAgent: undefined })
    await client.uploadImage({ fileName: 'a.png', url: 'https://media.keepsake.shop/a.png' })
    expect(mock.calls[0]!.headers['user-agent']).toMatch(/^Keepsake\//)
  })

  it('the mock refuses a wrong token (401) and a missing User-Agent like Printify', async () => {
    const { mock, client } = setup({ apiToken: 'not-the-token' })
    const error = await failure(client.uploadImage({ fileName: 'a.png', url: 'https://media.keepsake.shop/a.png' }))
    expect(error.status).toBe(401)
    expect(error.message).toBe('Printify upload image failed with HTTP 401: Unauthenticated')

    const bare = await mock.fetch('https://api.printify.com/v1/uploads/images.json', {
      method: 'POST',
      headers: { Authorization: `Bearer ${mock.token}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ file_name: 'a.png', url: 'https://media.keepsake.shop/a.png' }),
    })
    expect(bare.status).toBe(400)
    expect(await bare.json()).toMatchObject({
      status: 'error',
      errors: { reason: expect.stringMatching(/User-Agent/) },
    })
    expect(mock.uploads.size).toBe(0)
  })

  it('uploads by URL with { file_name, url }', async () => {
    const { mock, client } = setup()
    const upload = await client.uploadImage({
      fileName: 'prv_1-front.png',
      url: 'https://media.keepsake.shop/p/prv_1-front.png',
    })
    expect(mock.calls[0]!.body).toEqual({
      file_name: 'prv_1-front.png',
      url: 'https://media.keepsake.shop/p/prv_1-front.png',
    })
    expect(upload).toMatchObject({
      id: expect.stringMatching(/^[0-9a-f]{24}$/),
      file_name: 'prv_1-front.png',
      mime_type: 'image/png',
    })
    expect(Object.keys(upload).sort()).toEqual(['file_name', 'height', 'id', 'mime_type', 'preview_url', 'size', 'upload_time', 'width'].sort())
  })

  it('uploads by content with { file_name, contents: base64 }', async () => {
    const { mock, client } = setup()
    const upload = await client.uploadImage({ fileName: 'prv_1-back.png', contents: backPng })
    expect(mock.calls[0]!.body).toEqual({ file_name: 'prv_1-back.png', contents: backPng.toString('base64') })
    expect(upload).toMatchObject({ width: 30, height: 20, size: backPng.length, mime_type: 'image/png' })
  })

  it('answers 404 from an unknown shop as a PrintProviderError', async () => {
    const { client } = setup({ shopId: 999 })
    const error = await failure(client.getProduct('abc'))
    expect(error.status).toBe(404)
    expect(error.message).toMatch(/^Printify get product failed with HTTP 404: Shop 999 is not connected/)
  })

  it('creates an order with Printify’s body and answers its id', async () => {
    const { mock, client } = setup()
    const product = await seedProduct(client)
    const body = orderBody(product.id, 'ord_42')
    const order = await client.createOrder(body)

    expect(order).toEqual({ id: expect.stringMatching(/^[0-9a-f]{24}$/) })
    const call = mock.callsTo('POST', `/v1/shops/${mock.shopId}/orders.json`)[0]!
    expect(call.body).toEqual(body)
    expect(mock.orders.get(order.id)).toMatchObject({ external_id: 'ord_42', status: 'on-hold' })
  })

  it('lists orders a page at a time, newest first, at most 10 per page', async () => {
    const { mock, client } = setup()
    const product = await seedProduct(client)
    const ids: string[] = []
    for (let i = 1; i <= 12; i++) ids.push((await client.createOrder(orderBody(product.id, `ord_${i}`))).id)

    const first = await client.listOrders({ page: 1 })
    expect(mock.calls.at(-1)!.query).toEqual({ page: '1', limit: '10' })
    expect(first).toMatchObject({ current_page: 1, last_page: 2, per_page: 10, total: 12 })
    expect(first.data.map((o) => o.external_id)).toEqual(['ord_12', 'ord_11', 'ord_10', 'ord_9', 'ord_8', 'ord_7', 'ord_6', 'ord_5', 'ord_4', 'ord_3'])
    expect(first.data[0]).toMatchObject({
      id: ids[11],
      status: 'on-hold',
      line_items: [{ product_id: product.id, variant_id: VARIANT, quantity: 2 }],
    })

    const second = await client.listOrders({ page: 2, limit: 50 })
    expect(mock.calls.at(-1)!.query).toEqual({ page: '2', limit: '10' }) // clamped to Printify's maximum
    expect(second.data.map((o) => o.external_id)).toEqual(['ord_2', 'ord_1'])
  })

  it('finds an order by external id across pages (Printify has no lookup for it)', async () => {
    const { client } = setup()
    const product = await seedProduct(client)
    const first = await client.createOrder(orderBody(product.id, 'ord_first'))
    for (let i = 0; i < 11; i++) await client.createOrder(orderBody(product.id, `ord_${i}`))

    expect(await client.findOrderByExternalId('ord_first')).toMatchObject({ id: first.id, external_id: 'ord_first' })
    expect(await client.findOrderByExternalId('ord_missing')).toBeNull()
  })
})

describe('PrintifyProvider.createPreviewProduct', () => {
  it('uploads the print files and creates the product Printify expects', async () => {
    const { mock, provider } = setup()
    const result = await provider.createPreviewProduct(
      previewInput([
        printFile('front', 'https://media.keepsake.shop/previews/prv_123-front.png'),
        printFile('back', 'http://localhost:3000/v1/previews/prv_123-back.png'), // Printify cannot reach this
      ]),
      [],
    )

    const uploads = mock.callsTo('POST', '/v1/uploads/images.json')
    expect(uploads.map((c) => c.body)).toEqual([
      { file_name: 'prv_123-front.png', url: 'https://media.keepsake.shop/previews/prv_123-front.png' },
      { file_name: 'prv_123-back.png', contents: backPng.toString('base64') },
    ])
    const [frontId, backId] = [...mock.uploads.keys()]
    const create = mock.callsTo('POST', `/v1/shops/${mock.shopId}/products.json`)
    expect(create).toHaveLength(1)
    expect(create[0]!.body).toEqual({
      title: 'Keepsake ornament',
      description: 'A personalised ceramic ornament.',
      blueprint_id: 1186,
      print_provider_id: 228,
      variants: [{ id: VARIANT, price: 2499, is_enabled: true }],
      print_areas: [
        {
          variant_ids: [VARIANT],
          placeholders: [
            { position: 'front', images: [{ id: frontId, x: 0.5, y: 0.5, scale: 1, angle: 0 }] },
            { position: 'back', images: [{ id: backId, x: 0.5, y: 0.5, scale: 1, angle: 0 }] },
          ],
        },
      ],
    })

    const productId = [...mock.products.keys()][0]!
    expect(result.productId).toBe(productId)
    expect(result.mockups).toEqual([
      {
        url: `https://images-api.printify.com/mockup/${productId}/${VARIANT}/1/x.jpg?camera_label=front`,
        position: 'front',
        isDefault: true,
      },
      {
        url: `https://images-api.printify.com/mockup/${productId}/${VARIANT}/2/x.jpg?camera_label=back`,
        position: 'back',
        isDefault: false,
      },
      {
        url: `https://images-api.printify.com/mockup/${productId}/${VARIANT}/3/x.jpg?camera_label=other`,
        position: 'other',
        isDefault: false,
      },
    ])
    // The create answer already had mockups, so there was nothing to poll.
    expect(mock.callsTo('GET', /\/products\//)).toHaveLength(0)
  })

  it('polls the product every 1.5 s until its mockups appear', async () => {
    const { mock, clock, provider } = setup()
    mock.delayMockups(3)
    const result = await provider.createPreviewProduct(previewInput([printFile('front', 'https://media.keepsake.shop/f.png')]), [])

    expect(mock.callsTo('GET', /\/products\//)).toHaveLength(4) // three without mockups, then with them
    expect(clock.sleeps).toEqual([100, 1500, 1500, 1500, 1500]) // the limiter's spacing before create, then the polls
    expect(result.mockups.map((m) => m.position)).toEqual(['front', 'other'])
  })

  it('fails when Printify produces no mockups within 10 polls', async () => {
    const { mock, clock, provider } = setup()
    mock.delayMockups(50)
    const error = await failure(provider.createPreviewProduct(previewInput([printFile('front', 'https://media.keepsake.shop/f.png')]), []))
    expect(error.message).toBe('Printify did not produce mockups in time')
    expect(mock.callsTo('GET', /\/products\//)).toHaveLength(10)
    expect(clock.sleeps.filter((ms) => ms === 1500)).toHaveLength(10)
  })

  it('surfaces Printify’s validation reason with its status', async () => {
    const { mock, provider } = setup()
    const error = await failure(provider.createPreviewProduct(previewInput([printFile('front', 'https://media.keepsake.shop/f.png')], { blueprintId: 0 }), []))
    expect(error.status).toBe(400)
    expect(error.message).toBe('Printify create product failed with HTTP 400: blueprint_id: The blueprint id field is required.')
    expect(mock.products.size).toBe(0)
  })

  it('the mock validates product bodies like Printify (no variants, no print areas, external)', async () => {
    const { client } = setup()
    const base = { title: 'T', description: '', blueprint_id: BLUEPRINT, print_provider_id: PRINT_PROVIDER }
    const noVariants = await failure(client.createProduct({ ...base, variants: [], print_areas: [] }))
    expect(noVariants.message).toMatch(/variants: The variants field is required\. print_areas: The print areas field is required\./)
    const body = { ...base, variants: [], print_areas: [], external: { id: 'x' } }
    // @ts-expect-error Printify refuses `external` on create, and so do our types.
    const external = await failure(client.createProduct({ ...body, external: body.external }))
    expect(external.message).toMatch(/external: The external field is prohibited/)
  })
})

describe('PrintifyClient: retries and rate limits', () => {
  it('waits out a 429’s Retry-After (seconds) and retries, even a POST', async () => {
    const { mock, clock, client } = setup()
    const product = await seedProduct(client)
    clock.sleeps.length = 0
    mock.rateLimitNext(2, '7')
    clock.advance(1000)
    const order = await client.createOrder(orderBody(product.id, 'ord_1'))

    expect(clock.sleeps).toEqual([7000, 7000])
    expect(mock.callsTo('POST', `/v1/shops/${mock.shopId}/orders.json`).map((c) => c.status)).toEqual([429, 429, 200])
    expect([...mock.orders.keys()]).toEqual([order.id]) // 429s were not processed: one order
  })

  it('reads an HTTP-date Retry-After against the injected clock', async () => {
    const { mock, clock, client } = setup()
    mock.rateLimitNext(1, new Date(START + 5000).toUTCString())
    await client.uploadImage({ fileName: 'a.png', url: 'https://media.keepsake.shop/a.png' })
    expect(clock.sleeps).toEqual([5000])
  })

  it('backs off 1 s, 2 s, 4 s without Retry-After and gives up after 3 retries', async () => {
    const { mock, clock, client } = setup()
    mock.rateLimitNext(4, null)
    const error = await failure(client.uploadImage({ fileName: 'a.png', url: 'https://media.keepsake.shop/a.png' }))

    expect(clock.sleeps).toEqual([1000, 2000, 4000])
    expect(mock.calls).toHaveLength(4)
    expect(error.status).toBe(429)
    expect(error.message).toBe('Printify upload image failed with HTTP 429 after 3 retries: Too Many Attempts.')
  })

  it('does not sit out a Retry-After longer than a minute', async () => {
    const { mock, clock, client } = setup()
    mock.rateLimitNext(1, '3600')
    const error = await failure(client.uploadImage({ fileName: 'a.png', url: 'https://media.keepsake.shop/a.png' }))
    expect(error.message).toBe('Printify upload image is rate limited (HTTP 429); Printify asks to retry after 3600 s.')
    expect(clock.sleeps).toEqual([])
    expect(mock.calls).toHaveLength(1)
  })

  it('never retries a POST that answered 500: it may have taken effect', async () => {
    const { mock, clock, client } = setup()
    const upload = await client.uploadImage({ fileName: 'a.png', contents: frontPng })
    mock.serverErrorNext(1, { processed: true })
    clock.advance(1000)
    const error = await failure(
      client.createProduct({
        title: 'T',
        description: '',
        blueprint_id: BLUEPRINT,
        print_provider_id: PRINT_PROVIDER,
        variants: [{ id: VARIANT, price: 100, is_enabled: true }],
        print_areas: [
          {
            variant_ids: [VARIANT],
            placeholders: [{ position: 'front', images: [{ id: upload.id, x: 0.5, y: 0.5, scale: 1, angle: 0 }] }],
          },
        ],
      }),
    )
    expect(error.status).toBe(500)
    expect(error.message).toBe('Printify create product failed with HTTP 500: Server Error')
    expect(mock.callsTo('POST', /products\.json$/)).toHaveLength(1)
    expect(mock.products.size).toBe(1) // a blind retry would have made a second one
    expect(clock.sleeps).toEqual([])
  })

  it('retries a GET that answered 5xx with backoff', async () => {
    const { mock, clock, client } = setup()
    const product = await seedProduct(client)
    clock.advance(1000)
    clock.sleeps.length = 0
    mock.serverErrorNext(2, { status: 502 })
    expect((await client.getProduct(product.id)).id).toBe(product.id)
    expect(clock.sleeps).toEqual([1000, 2000])
    expect(mock.callsTo('GET', /\/products\//).map((c) => c.status)).toEqual([502, 502, 200])
  })

  it('gives up on a GET after 3 retries of 5xx', async () => {
    const { mock, clock, client } = setup()
    mock.serverErrorNext(4, { status: 503 })
    const error = await failure(client.listOrders())
    expect(error.status).toBe(503)
    expect(error.message).toBe('Printify list orders failed with HTTP 503 after 3 retries: Server Error')
    expect(clock.sleeps).toEqual([1000, 2000, 4000])
  })

  it('turns a network failure into a PrintProviderError without retrying a POST', async () => {
    const { mock, client } = setup()
    mock.networkErrorNext(1)
    const error = await failure(client.uploadImage({ fileName: 'a.png', url: 'https://media.keepsake.shop/a.png' }))
    expect(error.status).toBeUndefined()
    expect(error.message).toBe('Printify upload image failed: could not reach Printify (fetch failed).')
    expect(mock.calls).toHaveLength(1)
  })

  it('retries a GET after a network failure', async () => {
    const { mock, clock, client } = setup()
    mock.networkErrorNext(1)
    const page = await client.listOrders()
    expect(page.data).toEqual([])
    expect(clock.sleeps).toEqual([1000])
  })

  it('times requests out after 20 s', async () => {
    let signal: AbortSignal | null | undefined
    const fetch: FetchLike = async (_input, init) => {
      signal = init?.signal
      throw new DOMException('The operation was aborted due to timeout', 'TimeoutError')
    }
    const { client } = setup({ fetch })
    const error = await failure(client.getProduct('p1'))
    expect(error.message).toBe('Printify get product timed out after 20 s.')
    expect(signal).toBeInstanceOf(AbortSignal)
  })

  it('never puts the token in an error message', async () => {
    const token = 'pfy_SUPERSECRET_0123456789abcdef'
    const echo: FetchLike = async () =>
      new Response(
        JSON.stringify({
          status: 'error',
          code: 8150,
          message: 'Validation failed.',
          errors: { reason: `Bad token ${token}`, code: 8150 },
        }),
        {
          status: 400,
        },
      )
    const leakyNetwork: FetchLike = async () => {
      throw new TypeError(`connect ECONNREFUSED (Authorization: Bearer ${token})`)
    }
    const mock = createPrintifyMock({ token: 'another-token' })
    const clients = [echo, leakyNetwork, mock.fetch].map(
      (fetch) => new PrintifyClient({ apiToken: token, shopId: 1, fetch, sleep: async () => {}, requestsPerMinute: Infinity }),
    )
    const errors = await Promise.all(clients.map((client) => failure(client.uploadImage({ fileName: 'a.png', contents: frontPng }))))

    expect(errors.map((e) => e.message)).toEqual([
      'Printify upload image failed with HTTP 400: Bad token [redacted]',
      'Printify upload image failed: could not reach Printify (connect ECONNREFUSED (Authorization: Bearer [redacted])).',
      'Printify upload image failed with HTTP 401: Unauthenticated',
    ])
    for (const error of errors) {
      expect(error.message).not.toContain(token)
      expect(String(error)).not.toContain(token)
    }
  })
})

describe('PrintifyClient: request spacing (600 per minute)', () => {
  it('spaces a concurrent burst 100 ms apart, in call order', async () => {
    const { mock, clock, client } = setup({ frozen: true })
    await Promise.all([1, 2, 3, 4, 5].map(() => client.listOrders()))
    expect(clock.sleeps).toEqual([100, 200, 300, 400])
    expect(mock.calls).toHaveLength(5)
  })

  it('keeps any 60 s window to at most 600 requests', async () => {
    const starts: number[] = []
    const mock = createPrintifyMock()
    const clock = virtualClock()
    const client = new PrintifyClient({
      apiToken: mock.token,
      shopId: mock.shopId,
      sleep: clock.sleep,
      now: clock.now,
      fetch: (input, init) => {
        starts.push(clock.now())
        return mock.fetch(input, init)
      },
    })
    for (let i = 0; i < 601; i++) await client.listOrders()

    expect(starts.at(-1)! - starts[0]!).toBe(60_000)
    const busiest = Math.max(...starts.map((t) => starts.filter((s) => s >= t && s < t + 60_000).length))
    expect(busiest).toBe(600)
  })

  it('does not wait when requests are already far enough apart', async () => {
    const { clock, client } = setup()
    for (let i = 0; i < 3; i++) {
      await client.listOrders()
      clock.advance(250)
    }
    expect(clock.sleeps).toEqual([])
  })
})

describe('printifyOrderBody', () => {
  const input = {
    orderId: 'a1b2',
    reference: 'KS-1',
    lines: [{ providerProductId: 'p1', variantId: VARIANT, quantity: 1 }],
    address: {
      name: 'Ada Lovelace',
      email: 'ada@example.org',
      phone: '',
      line1: '1 Main St',
      line2: '',
      city: 'Columbus',
      state: 'OH',
      postalCode: '43004',
      country: 'US',
    },
  }

  it('sends each store method as Printify’s (express is Printify Express, flagged), and never asks Printify to e-mail', () => {
    expect(printifyOrderBody({ ...input, shippingMethod: 'standard' })).toMatchObject({
      shipping_method: 1,
      is_printify_express: false,
      send_shipping_notification: false,
    })
    expect(printifyOrderBody({ ...input, shippingMethod: 'express' })).toMatchObject({
      shipping_method: 3,
      is_printify_express: true,
      send_shipping_notification: false,
    })
  })
})

describe('Printify helpers', () => {
  it('parses Retry-After seconds and HTTP-dates', () => {
    expect(parseRetryAfter('3', START)).toBe(3000)
    expect(parseRetryAfter(new Date(START + 4000).toUTCString(), START)).toBe(4000)
    expect(parseRetryAfter(new Date(START - 4000).toUTCString(), START)).toBe(0)
    expect(parseRetryAfter('soon', START)).toBeNull()
    expect(parseRetryAfter(null, START)).toBeNull()
  })

  it('uploads by URL only when Printify can reach it', () => {
    expect(isReachableByPrintify('https://media.keepsake.shop/a.png')).toBe(true)
    expect(isReachableByPrintify('https://8.8.8.8/a.png')).toBe(true)
    for (const url of [
      'http://media.keepsake.shop/a.png',
      'https://localhost/a.png',
      'https://127.0.0.1/a.png',
      'https://10.0.0.5/a.png',
      'https://[::1]/a.png',
      'https://minio:9000/a.png',
      'https://keepsake.internal/a.png',
      'https://user:pw@media.keepsake.shop/a.png',
      '/v1/previews/a.png',
    ])
      expect(isReachableByPrintify(url), url).toBe(false)
  })

  it('reads Printify error bodies', () => {
    expect(
      errorDetail({
        status: 'error',
        code: 8150,
        message: 'Validation failed.',
        errors: { reason: 'Bad blueprint', code: 8150 },
      }),
    ).toBe('Bad blueprint')
    expect(errorDetail({ status: 'error', message: 'Validation failed.' })).toBe('Validation failed.')
    expect(errorDetail({ errors: { title: ['The title field is required.'] } })).toBe('The title field is required.')
    expect(errorDetail({ error: 'Unauthenticated' })).toBe('Unauthenticated')
    expect(errorDetail(undefined)).toBe('no error message')
  })
})
