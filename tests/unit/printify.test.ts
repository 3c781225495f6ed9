import sharp from 'sharp'
import { beforeAll, describe, expect, it } from 'vitest'
import {
  DailyBudget,
  PrintifyClient,
  PrintifyProvider,
  errorDetail,
  isReachableByPrintify,
  parseRetryAfter,
  printifyOrderBody,
  unusedPrintifyProducts,
  type FetchLike,
  type PrintifyClientOptions,
  type PrintifyCreateOrderBody,
  type PrintifyOrderLineItem,
} from '../../app/api/providers/print/printify'
import { PrintProviderError, type PrintFile, type PrintOrderInput, type PrintOrderLine } from '../../app/api/providers/print/provider'
import { metrics } from '../../app/observability/metrics'
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

/** Each print file's reads, by file name: a provider that orders by URL never reads one. */
const reads = new Map<string, number>()

function printFile(position: PrintFile['position'], url: string, previewId = 'prv_123'): PrintFile {
  const fileName = `${previewId}-${position}.png`
  return {
    position,
    fileName,
    url,
    read: async () => {
      reads.set(fileName, (reads.get(fileName) ?? 0) + 1)
      return position === 'front' ? frontPng : backPng
    },
  }
}

/** Both print files of a design, at an origin Printify can fetch from (https, public) or not (localhost). */
function printFilesAt(origin: string, previewId = 'prv_123') {
  return (['front', 'back'] as const).map((position) =>
    printFile(position, `${origin}/v1/media/print-files/${previewId}/${position}.png?expires=1&signature=s`, previewId),
  )
}
const PUBLIC = 'https://shop.keepsake-ornaments.com'
const LOCAL = 'http://localhost:3000'

function orderLine(printFiles: PrintFile[], overrides: Partial<PrintOrderLine> = {}): PrintOrderLine {
  return {
    previewId: 'prv_123',
    title: 'Keepsake ornament',
    description: 'A personalised ceramic ornament.',
    blueprintId: BLUEPRINT,
    printProviderId: PRINT_PROVIDER,
    variantId: VARIANT,
    quantity: 2,
    priceCents: 2499,
    printFiles,
    ...overrides,
  }
}

function orderInput(lines: PrintOrderLine[], overrides: Partial<PrintOrderInput> = {}): PrintOrderInput {
  return {
    orderId: 'ord_1',
    reference: 'KS-1',
    lines,
    mayExist: false,
    shippingMethod: 'standard',
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

describe('PrintifyProvider.submitOrder', () => {
  const ordersPath = (shopId: number) => `/v1/shops/${shopId}/orders.json`
  const productsPath = (shopId: number) => `/v1/shops/${shopId}/products.json`

  it('a line whose print files Printify can fetch is a line item with their URLs: no upload, no product of ours, no file read', async () => {
    const { mock, provider } = setup()
    reads.clear()
    const star = orderLine(printFilesAt(PUBLIC, 'prv_star'), { previewId: 'prv_star' })
    const tree = orderLine(printFilesAt(PUBLIC, 'prv_tree'), { previewId: 'prv_tree', variantId: 72963, quantity: 1 })
    const { providerOrderId } = await provider.submitOrder(orderInput([star, tree], { shippingMethod: 'express' }))

    expect(mock.callsTo('POST', '/v1/uploads/images.json')).toHaveLength(0)
    expect(mock.callsTo('POST', productsPath(mock.shopId))).toHaveLength(0)
    expect(reads.size).toBe(0)
    const creates = mock.callsTo('POST', ordersPath(mock.shopId))
    expect(creates).toHaveLength(1)
    const urls = (line: PrintOrderLine) => ({ front: line.printFiles[0]!.url, back: line.printFiles[1]!.url })
    expect(creates[0]!.body).toMatchObject({
      external_id: 'ord_1',
      label: 'KS-1',
      shipping_method: 3,
      is_printify_express: true,
      line_items: [
        { blueprint_id: BLUEPRINT, print_provider_id: PRINT_PROVIDER, variant_id: VARIANT, print_areas: urls(star), quantity: 2 },
        { blueprint_id: BLUEPRINT, print_provider_id: PRINT_PROVIDER, variant_id: 72963, print_areas: urls(tree), quantity: 1 },
      ],
    })
    expect((creates[0]!.body as { line_items: object[] }).line_items.every((item) => !('product_id' in item))).toBe(true)
    // Printify fetched each file by its URL and made each line's product with the order.
    expect(mock.printFileUrls).toEqual([
      { orderId: providerOrderId, position: 'front', url: star.printFiles[0]!.url },
      { orderId: providerOrderId, position: 'back', url: star.printFiles[1]!.url },
      { orderId: providerOrderId, position: 'front', url: tree.printFiles[0]!.url },
      { orderId: providerOrderId, position: 'back', url: tree.printFiles[1]!.url },
    ])
    const order = mock.orders.get(providerOrderId)!
    expect(order).toMatchObject({ external_id: 'ord_1', status: 'on-hold' })
    expect(order.line_items.map((item) => [mock.products.get(item.product_id)?.madeByOrder, item.variant_id, item.quantity])).toEqual([
      [true, VARIANT, 2],
      [true, 72963, 1],
    ])
  })

  it('a print file Printify cannot reach: the line’s files go up by content and one product is made for the line, ordered by product_id', async () => {
    const { mock, provider } = setup()
    reads.clear()
    // One unreachable file is enough: the line's files all go up, so its product has every position.
    const files = [printFile('front', `${PUBLIC}/v1/media/print-files/prv_123/front.png`), printFile('back', `${LOCAL}/v1/media/print-files/prv_123/back.png`)]
    const second = orderLine(printFilesAt(LOCAL, 'prv_456'), { previewId: 'prv_456', quantity: 1 })
    const { providerOrderId } = await provider.submitOrder(orderInput([orderLine(files), second]))

    const uploads = mock.callsTo('POST', '/v1/uploads/images.json')
    expect(uploads.map((c) => c.body)).toEqual([
      { file_name: 'prv_123-front.png', contents: frontPng.toString('base64') },
      { file_name: 'prv_123-back.png', contents: backPng.toString('base64') },
      { file_name: 'prv_456-front.png', contents: frontPng.toString('base64') },
      { file_name: 'prv_456-back.png', contents: backPng.toString('base64') },
    ])
    expect(Object.fromEntries(reads)).toEqual({ 'prv_123-front.png': 1, 'prv_123-back.png': 1, 'prv_456-front.png': 1, 'prv_456-back.png': 1 })
    const [front1, back1, front2, back2] = [...mock.uploads.keys()]
    const creates = mock.callsTo('POST', productsPath(mock.shopId))
    expect(creates).toHaveLength(2)
    const placed = (id: string) => [{ id, x: 0.5, y: 0.5, scale: 1, angle: 0 }]
    expect(creates[0]!.body).toEqual({
      title: 'Keepsake ornament',
      description: 'A personalised ceramic ornament.',
      blueprint_id: BLUEPRINT,
      print_provider_id: PRINT_PROVIDER,
      variants: [{ id: VARIANT, price: 2499, is_enabled: true }],
      print_areas: [
        {
          variant_ids: [VARIANT],
          placeholders: [
            { position: 'front', images: placed(front1!) },
            { position: 'back', images: placed(back1!) },
          ],
        },
      ],
      tags: ['keepsake-preview:prv_123'],
    })
    expect(creates[1]!.body).toMatchObject({
      tags: ['keepsake-preview:prv_456'],
      print_areas: [{ placeholders: [{ images: placed(front2!) }, { images: placed(back2!) }] }],
    })
    const [first, made] = [...mock.products.values()]
    const order = mock.callsTo('POST', ordersPath(mock.shopId))
    expect(order).toHaveLength(1)
    expect((order[0]!.body as PrintifyCreateOrderBody).line_items).toEqual([
      { product_id: first!.id, variant_id: VARIANT, quantity: 2 },
      { product_id: made!.id, variant_id: VARIANT, quantity: 1 },
    ])
    expect(mock.printFileUrls).toEqual([])
    expect(mock.orders.get(providerOrderId)!.line_items.map((item) => item.product_id)).toEqual([first!.id, made!.id])
  })

  it('a retry that may have made the order finds it by external_id: nothing is uploaded, made or ordered twice', async () => {
    const { mock, provider } = setup()
    const input = orderInput([orderLine(printFilesAt(LOCAL))], { orderId: 'ord_retried' })
    const first = await provider.submitOrder(input)
    const posts = () => mock.calls.filter((c) => c.method === 'POST').length
    const before = posts()
    expect(before).toBe(4) // two uploads, the product, the order
    const again = await provider.submitOrder({ ...input, mayExist: true })
    expect(again).toEqual(first)
    expect(posts()).toBe(before)
    expect([...mock.orders.values()].filter((o) => o.external_id === 'ord_retried')).toHaveLength(1)
    expect(mock.products.size).toBe(1)
  })

  it('refuses a line without print files, or (to make a product of) without a whole-cent price, before Printify is asked to make anything', async () => {
    const { mock, provider } = setup()
    expect((await failure(provider.submitOrder(orderInput([orderLine([])])))).message).toBe('Printify needs the print files of Keepsake ornament.')
    const free = await failure(provider.submitOrder(orderInput([orderLine(printFilesAt(LOCAL), { priceCents: 24.99 })])))
    expect(free.message).toBe('Printify needs a positive whole-cent price, not 24.99.')
    expect(mock.calls.filter((c) => c.method === 'POST')).toEqual([])
  })

  it('surfaces Printify’s validation reason with its status, and orders nothing', async () => {
    const { mock, provider } = setup()
    const byUrl = await failure(provider.submitOrder(orderInput([orderLine(printFilesAt(PUBLIC), { blueprintId: 0 })])))
    expect(byUrl.status).toBe(400)
    expect(byUrl.message).toBe('Printify create order failed with HTTP 400: line_items.0.blueprint_id: The blueprint id must be a positive integer.')
    const byProduct = await failure(provider.submitOrder(orderInput([orderLine(printFilesAt(LOCAL), { blueprintId: 0 })])))
    expect(byProduct.status).toBe(400)
    expect(byProduct.message).toBe('Printify create product failed with HTTP 400: blueprint_id: The blueprint id field is required.')
    expect(mock.products.size).toBe(0)
    expect(mock.orders.size).toBe(0)
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

/** An order of one design by URL, on hold at Printify as every API order is; answers its Printify id. */
async function heldOrder(provider: PrintifyProvider, orderId = 'ord_held') {
  return (await provider.submitOrder(orderInput([orderLine(printFilesAt(PUBLIC))], { orderId }))).providerOrderId
}

describe('PrintifyProvider.sendToProduction', () => {
  const sends = (mock: ReturnType<typeof createPrintifyMock>, id: string) =>
    mock.callsTo('POST', `/v1/shops/${mock.shopId}/orders/${id}/send_to_production.json`).length

  it('sends an order on hold to production once; asked again, it answers already-sent without a second send', async () => {
    const { mock, provider } = setup()
    const id = await heldOrder(provider)
    expect(mock.orders.get(id)!.status).toBe('on-hold')
    expect(await provider.sendToProduction(id)).toBe('sent')
    expect(mock.orders.get(id)!.status).toBe('in-production')
    expect(mock.sentToProduction.get(id)).toBe(1)

    expect(await provider.sendToProduction(id)).toBe('already-sent')
    expect(mock.sentToProduction.get(id)).toBe(1)
    expect(sends(mock, id)).toBe(1)
  })

  it('an order Printify has not put on hold yet (pending) throws, to be tried again, and is not sent', async () => {
    const { mock, provider } = setup()
    const id = await heldOrder(provider)
    mock.orders.get(id)!.status = 'pending'
    const error = await failure(provider.sendToProduction(id))
    expect(error.message).toBe(`Printify order ${id} is still pending; it is sent to production once it is on hold.`)
    expect(sends(mock, id)).toBe(0)
    mock.orders.get(id)!.status = 'on-hold'
    expect(await provider.sendToProduction(id)).toBe('sent')
  })

  /** A client whose fetch can lose the next send's answer (Printify took it, a proxy answered 502) or answer a stale order once. */
  function flaky() {
    const mock = createPrintifyMock({ now: () => START })
    const faults = { loseNextSend: false, staleNextGet: false }
    const fetch: FetchLike = async (input, init) => {
      const url = String(input)
      const response = await mock.fetch(input, init)
      if (faults.loseNextSend && url.endsWith('/send_to_production.json')) {
        faults.loseNextSend = false
        return new Response('{"error":"Bad gateway"}', { status: 502, headers: { 'content-type': 'application/json' } })
      }
      if (faults.staleNextGet && init?.method === 'GET' && /\/orders\/[^/]+\.json$/.test(url)) {
        faults.staleNextGet = false
        return Response.json({ ...((await response.json()) as object), status: 'on-hold' })
      }
      return response
    }
    return { mock, faults, provider: setup({ fetch }).provider }
  }

  it('a send whose answer was lost throws; the next ask sees the order on its way and does not send again', async () => {
    const { mock, faults, provider } = flaky()
    const id = await heldOrder(provider)
    faults.loseNextSend = true
    expect((await failure(provider.sendToProduction(id))).status).toBe(502)
    expect(mock.orders.get(id)!.status).toBe('in-production') // Printify took it
    expect(await provider.sendToProduction(id)).toBe('already-sent')
    expect(mock.sentToProduction.get(id)).toBe(1)
  })

  it('a send Printify refuses (400) because the order went on meanwhile is already-sent', async () => {
    const { mock, faults, provider } = flaky()
    const id = await heldOrder(provider)
    expect(await provider.sendToProduction(id)).toBe('sent')
    // The order is looked at while a copy still says on hold: the send is refused, the order looked at again.
    faults.staleNextGet = true
    expect(await provider.sendToProduction(id)).toBe('already-sent')
    expect(mock.sentToProduction.get(id)).toBe(2)
    expect(mock.callsTo('POST', /send_to_production\.json$/).map((c) => c.status)).toEqual([200, 400])
  })

  it('an order already in production or shipped is already-sent, and Printify is not asked to send it', async () => {
    const { mock, provider } = setup()
    const id = await heldOrder(provider)
    for (const status of ['in-production', 'partially-fulfilled', 'fulfilled']) {
      mock.orders.get(id)!.status = status
      expect(await provider.sendToProduction(id), status).toBe('already-sent')
    }
    expect(sends(mock, id)).toBe(0)
  })
})

describe('PrintifyProvider.cancelOrder', () => {
  const cancels = (mock: ReturnType<typeof createPrintifyMock>, id: string) => mock.callsTo('POST', `/v1/shops/${mock.shopId}/orders/${id}/cancel.json`).length

  it('cancels an order on hold; asked again, it answers already-canceled without a second cancel', async () => {
    const { mock, provider } = setup()
    const id = await heldOrder(provider)
    expect(await provider.cancelOrder(id)).toBe('canceled')
    expect(mock.orders.get(id)).toMatchObject({ status: 'canceled', line_items: [{ status: 'canceled' }] })
    expect(await provider.cancelOrder(id)).toBe('already-canceled')
    expect(cancels(mock, id)).toBe(1)
  })

  it('an order in production is too late to cancel: Printify is not asked, and the order goes on', async () => {
    const { mock, provider } = setup()
    const id = await heldOrder(provider)
    expect(await provider.sendToProduction(id)).toBe('sent')
    expect(await provider.cancelOrder(id)).toBe('too-late')
    expect(cancels(mock, id)).toBe(0)
    expect(mock.orders.get(id)!.status).toBe('in-production')
  })
})

describe('the daily product budget (PRINTIFY_DAILY_PRODUCTS)', () => {
  it('takes perDay a UTC day, then refuses until the next UTC day', () => {
    let now = Date.UTC(2026, 11, 14, 23, 59, 0)
    const budget = new DailyBudget(2, () => now)
    expect(budget.remaining).toBe(2)
    expect([budget.take(), budget.take(), budget.take()]).toEqual([true, true, false])
    expect(budget.remaining).toBe(0)
    now = Date.UTC(2026, 11, 14, 23, 59, 59, 999)
    expect(budget.take()).toBe(false)
    now = Date.UTC(2026, 11, 15, 0, 0, 0)
    expect(budget.remaining).toBe(2)
    expect(budget.take()).toBe(true)
    expect(budget.remaining).toBe(1)
  })

  it('refuses a product past the budget with a 429 of its own, without asking Printify; a new UTC day starts afresh', async () => {
    const { mock, clock, client, provider } = setup({ dailyProducts: 1 })
    const products = () => mock.callsTo('POST', `/v1/shops/${mock.shopId}/products.json`).length
    await seedProduct(client)
    expect(products()).toBe(1)

    const refused = await failure(seedProduct(client))
    expect(refused.status).toBe(429)
    expect(refused.message).toBe("Printify create product: today's budget of 1 products is spent; it is tried again tomorrow.")
    expect(products()).toBe(1)
    // An order that needs a product of ours is not made either.
    await failure(provider.submitOrder(orderInput([orderLine(printFilesAt(LOCAL))])))
    expect(products()).toBe(1)
    expect(mock.orders.size).toBe(0)
    // A line by URL makes no product of ours, so it is not limited.
    expect((await provider.submitOrder(orderInput([orderLine(printFilesAt(PUBLIC))], { orderId: 'ord_by_url' }))).providerOrderId).toBeTruthy()

    clock.advance(12 * 3600_000) // START is noon UTC: now the next day
    await provider.submitOrder(orderInput([orderLine(printFilesAt(LOCAL))], { orderId: 'ord_next_day' }))
    expect(products()).toBe(2)
    expect([...mock.orders.values()].map((o) => o.external_id)).toEqual(['ord_by_url', 'ord_next_day'])
  })
})

describe('the rate-limited metric (keepsake_print_provider_rate_limited_total)', () => {
  const counted = async (call: string) =>
    (await metrics().providerRateLimited.get()).values.filter((v) => v.labels.call === call).reduce((n, v) => n + v.value, 0)

  it('counts every 429 Printify answers, by call, waited out or not', async () => {
    const { mock, client } = setup()
    const before = { orders: await counted('list orders'), upload: await counted('upload image') }
    mock.rateLimitNext(2, '1')
    await client.listOrders()
    expect(await counted('list orders')).toBe(before.orders + 2)
    mock.rateLimitNext(4, null)
    expect((await failure(client.uploadImage({ fileName: 'a.png', contents: frontPng }))).status).toBe(429)
    expect(await counted('upload image')).toBe(before.upload + 4)
    // A call answered without a 429 adds nothing.
    await client.listOrders()
    expect(await counted('list orders')).toBe(before.orders + 2)
  })
})

describe('unusedPrintifyProducts (npm run printify:unused-products)', () => {
  /** A shop of products, some ordered: `kept` on an order, `b` and `c` on none; `b` shares its front with `kept`. */
  async function shop() {
    const { mock, client, provider } = setup()
    const upload = async (name: string) => (await client.uploadImage({ fileName: name, contents: frontPng })).id
    const [shared, onlyB, onlyC] = [await upload('shared.png'), await upload('b.png'), await upload('c.png')]
    const product = (title: string, front: string, back?: string) =>
      client.createProduct({
        title,
        description: '',
        blueprint_id: BLUEPRINT,
        print_provider_id: PRINT_PROVIDER,
        variants: [{ id: VARIANT, price: 2499, is_enabled: true }],
        print_areas: [
          {
            variant_ids: [VARIANT],
            placeholders: [
              { position: 'front', images: [{ id: front, x: 0.5, y: 0.5, scale: 1, angle: 0 }] },
              ...(back ? [{ position: 'back', images: [{ id: back, x: 0.5, y: 0.5, scale: 1, angle: 0 }] }] : []),
            ],
          },
        ],
      })
    const kept = await product('Kept', shared)
    const b = await product('B', shared, onlyB)
    const c = await product('C', onlyC)
    // The kept product's order is the oldest of 12: the orders are walked past their first page of 10.
    await client.createOrder(orderBody(kept.id, 'ord_kept'))
    // An order whose line made its product (by URL): that product is named by the order too.
    const byUrl = await heldOrder(provider, 'ord_by_url')
    for (let i = 0; i < 10; i++) await client.createOrder(orderBody(kept.id, `ord_${i}`))
    const madeByOrder = mock.orders.get(byUrl)!.line_items[0]!.product_id
    mock.calls.length = 0
    return { mock, client, kept, b, c, madeByOrder, uploads: { shared, onlyB, onlyC } }
  }

  it('a dry run lists the products no order names, with their uploads, and changes nothing', async () => {
    const { mock, client, b, c, kept, madeByOrder, uploads } = await shop()
    const productsBefore = [...mock.products.keys()]
    const result = await unusedPrintifyProducts(client)
    expect(result).toEqual({
      unused: [
        { id: c.id, title: 'C', createdAt: expect.any(String), uploadIds: [uploads.onlyC] },
        { id: b.id, title: 'B', createdAt: expect.any(String), uploadIds: [uploads.shared, uploads.onlyB] },
      ],
      products: 4,
      orders: 12,
      deleted: [],
      archivedUploads: [],
    })
    expect(result.unused.map((u) => u.id)).not.toContain(kept.id)
    expect(result.unused.map((u) => u.id)).not.toContain(madeByOrder)
    expect([...mock.products.keys()]).toEqual(productsBefore)
    expect(mock.archivedUploads.size).toBe(0)
    expect(mock.calls.filter((call) => call.method !== 'GET')).toEqual([])
    expect(mock.callsTo('GET', /\/orders\.json$/).map((call) => call.query.page)).toEqual(['1', '2'])
  })

  it('with apply, deletes only the unused products and archives only the uploads no kept product uses', async () => {
    const { mock, client, b, c, kept, madeByOrder, uploads } = await shop()
    const result = await unusedPrintifyProducts(client, { apply: true })
    expect(result.deleted).toEqual([c.id, b.id])
    expect(new Set(mock.products.keys())).toEqual(new Set([kept.id, madeByOrder]))
    // `shared` is on the kept product too: it stays in the media library.
    expect(result.archivedUploads).toEqual([uploads.onlyC, uploads.onlyB])
    expect([...mock.archivedUploads].sort()).toEqual([uploads.onlyB, uploads.onlyC].sort())
    expect(mock.callsTo('DELETE', /\/products\//).map((call) => call.path.split('/').at(-1))).toEqual([`${c.id}.json`, `${b.id}.json`])

    // Run again: nothing is left to do.
    const again = await unusedPrintifyProducts(client, { apply: true })
    expect(again).toMatchObject({ unused: [], products: 2, deleted: [], archivedUploads: [] })
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
  const input = orderInput([], { orderId: 'a1b2', reference: 'KS-1', address: { ...orderInput([]).address, name: 'Ada  King Lovelace', line2: 'Apt 4' } })
  const lineItems: PrintifyOrderLineItem[] = [
    {
      blueprint_id: BLUEPRINT,
      print_provider_id: PRINT_PROVIDER,
      variant_id: VARIANT,
      print_areas: { front: `${PUBLIC}/f.png`, back: `${PUBLIC}/b.png` },
      quantity: 1,
    },
    { product_id: 'p1', variant_id: VARIANT, quantity: 2 },
  ]

  it('sends each store method as Printify’s (express is Printify Express, flagged), and never asks Printify to e-mail', () => {
    expect(printifyOrderBody({ ...input, shippingMethod: 'standard' }, lineItems)).toMatchObject({
      shipping_method: 1,
      is_printify_express: false,
      send_shipping_notification: false,
    })
    expect(printifyOrderBody({ ...input, shippingMethod: 'express' }, lineItems)).toMatchObject({
      shipping_method: 3,
      is_printify_express: true,
      send_shipping_notification: false,
    })
  })

  it('carries the line items it is given, our id and reference, and the address as Printify splits it', () => {
    expect(printifyOrderBody(input, lineItems)).toEqual({
      external_id: 'a1b2',
      label: 'KS-1',
      line_items: lineItems,
      shipping_method: 1,
      is_printify_express: false,
      send_shipping_notification: false,
      address_to: {
        first_name: 'Ada',
        last_name: 'King Lovelace',
        email: 'ada@example.org',
        phone: '',
        country: 'US',
        region: 'OH',
        address1: '1 Main St',
        address2: 'Apt 4',
        city: 'Columbus',
        zip: '43004',
      },
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

  it('orders by URL only when Printify can reach it', () => {
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
