/**
 * An in-memory Printify API (REST v1, https://developers.printify.com/) behind a fetch-compatible function,
 * for tests of the Printify adapter. It follows the documented contract where our adapter depends on it:
 * Bearer auth, a required User-Agent, JSON bodies, Printify-style validation errors, uploads, products with
 * generated mockups (listed, deleted), orders with page envelopes and shipments (line items by product, or making the
 * product on the fly from print-area URLs), orders held on-hold until send_to_production, cancellation, webhook
 * subscriptions, upload archiving, and the catalog's shipping costs (v1 profiles, v2 per method). Knobs inject 429s,
 * 5xx, network failures and slow mockups, and `enforceLimits` turns on Printify's own request limits (600 a minute,
 * a daily product-creation cap). Printify's side of an order (production, shipment, delivery,
 * cancellation) is driven by `advanceOrder`, which emits the signed order events to the subscribed URLs;
 * `listen()` serves the same API over node:http for a store process (PRINTIFY_API_URL).
 */
import { createHmac } from 'node:crypto'
import http from 'node:http'
import type { AddressInfo } from 'node:net'

export type PrintifyMockCall = {
  method: string
  /** Path without the query, e.g. `/v1/shops/1234567/products.json`. */
  path: string
  query: Record<string, string>
  headers: Record<string, string>
  /** Parsed JSON body, or the raw text when it was not JSON; undefined without a body. */
  body: unknown
  /** The status the mock answered; 0 for an injected network failure. */
  status: number
}

export type MockUpload = {
  id: string
  file_name: string
  height: number
  width: number
  size: number
  mime_type: string
  preview_url: string
  upload_time: string
  source: { url: string } | { contents: string }
}

export type MockImage = {
  src: string
  variant_ids: number[]
  position: string
  is_default: boolean
  is_selected_for_publishing: boolean
}

export type MockProduct = {
  id: string
  title: string
  description: string
  tags: string[]
  blueprint_id: number
  print_provider_id: number
  shop_id: number
  variants: { id: number; price: number; is_enabled: boolean; is_default: boolean; sku: string; title: string }[]
  images: MockImage[]
  print_areas: { variant_ids: number[]; placeholders: { position: string; images: Record<string, unknown>[] }[] }[]
  created_at: string
  updated_at: string
  visible: boolean
  is_locked: boolean
  /** The mock's own mark (never in an answer): Printify made this product for an order line with print-area URLs. */
  madeByOrder?: true
}

export type MockOrder = {
  id: string
  external_id: string
  label: string | null
  status: string
  shipments: MockShipment[]
  shipping_method: number
  is_printify_express: boolean
  send_shipping_notification: boolean
  /** Printify's line item: its status moves on its own (a partial shipment fulfils some); `metadata.sku` is the variant's SKU. */
  line_items: { product_id: string; variant_id: number; quantity: number; status: string; metadata: { sku: string } }[]
  address_to: Record<string, string>
  metadata: { order_type: string; shop_order_id: string; shop_order_label: string | null }
  created_at: string
}

/** A print-area image Printify fetched by URL for a line item that made its product (`print_areas: { front: url }`). */
export type MockPrintFileUrl = { orderId: string; position: string; url: string }

export type MockShipment = { carrier: string; number: string; url: string; delivered_at: string | null }
/** Which of the order's line items (by index) a shipment holds; the mock's own record, Printify tells it as `skus`. */
type ShipmentItems = { shipment: MockShipment; lineItems: number[] }

export type MockWebhook = { id: string; topic: string; url: string; shop_id: number; secret: string | null }

/** An order event as Printify posts it, with its X-Pf-Signature for the subscription's secret. */
export type MockOrderEvent = { url: string; topic: string; body: string; signature: string | null }

/** Printify's webhook topics for orders (https://developers.printify.com/#webhooks). */
export const MOCK_ORDER_TOPICS = [
  'order:created',
  'order:updated',
  'order:sent-to-production',
  'order:shipment:created',
  'order:shipment:delivered',
  'order:canceled',
] as const

export type PrintifyMockOptions = {
  token?: string
  shopId?: number
  /** Clock for created_at/upload_time. Default Date.now. */
  now?: () => number
  /** Delivers webhook events (default: the global fetch). */
  deliver?: (url: string, init: RequestInit) => Promise<Response>
  /**
   * The shop's order approval. Printify puts every API order on hold; 'manual' (default) keeps it 'on-hold' until
   * send_to_production, 'automatic' sends it on at once (stored as 'in-production' right after it is created).
   */
  approval?: 'manual' | 'automatic'
}

/** Options of `enforceLimits`: Printify's global request limit, and a daily cap on POST products.json. */
export type PrintifyLimitOptions = {
  /** Requests answered in any sliding 60 s window; the next one answers 429. Default 600 (Printify's global limit). */
  perMinute?: number
  /** Products created by POST products.json per UTC day; none by default. Products made by orders never count. */
  dailyProducts?: number
  /** The limits' clock; default the mock's `now`. */
  now?: () => number
}

type Fault = { kind: 'rate-limit'; retryAfter: string | null } | { kind: 'server-error'; status: number; processed: boolean } | { kind: 'network' }

type Answer = { status: number; body: unknown; headers?: Record<string, string> }

export const MOCK_SHIPPING_METHODS = ['standard', 'priority', 'express', 'economy'] as const
export type MockShippingMethod = (typeof MOCK_SHIPPING_METHODS)[number]
/** One row of a method's shipping costs: a variant to a country (ISO code or REST_OF_THE_WORLD), in cents. */
export type MockShippingRate = { variantId: number; country: string; firstItem: number; additionalItems: number }
/** The ceramic ornament's blueprint, print provider and variants (catalogue/ornaments.ts). */
export const MOCK_ORNAMENT_BLUEPRINT = 1186
export const MOCK_ORNAMENT_PROVIDER = 228
const MOCK_ORNAMENT_VARIANTS = [72963, 72965, 72960]

export const MOCK_PRINTIFY_TOKEN = 'test-printify-token-5f2c9a'
export const MOCK_PRINTIFY_SHOP_ID = 1234567
/** Printify's code for "Validation failed." */
const VALIDATION_CODE = 8150
/** Orders list `limit`: default 10, at most 10. */
const ORDERS_PAGE_LIMIT = 10
/** Products list `limit`: default 10, at most 100. */
const PRODUCTS_PAGE_DEFAULT = 10
const PRODUCTS_PAGE_LIMIT = 100
/** Printify's code for an operation the order's status does not allow (send to production, cancel). */
const ORDER_STATE_CODE = 8502
/** Printify's answer to a request beyond its limits. */
const TOO_MANY = { status: 'error', code: 429, message: 'Too Many Attempts.' }
const MINUTE = 60_000
const DAY = 86_400_000
/** POSTs Printify documents without a body: send an order to production, cancel it, archive an upload. */
const BODYLESS_POST = /^\/v1\/(?:shops\/[^/]+\/orders\/[^/]+\/(?:send_to_production|cancel)|uploads\/[^/]+\/archive)\.json$/

export function createPrintifyMock(options: PrintifyMockOptions = {}) {
  const token = options.token ?? MOCK_PRINTIFY_TOKEN
  const shopId = options.shopId ?? MOCK_PRINTIFY_SHOP_ID
  const now = options.now ?? Date.now
  const approval = options.approval ?? 'manual'
  const calls: PrintifyMockCall[] = []
  const uploads = new Map<string, MockUpload>()
  const products = new Map<string, MockProduct>()
  const orders = new Map<string, MockOrder>()
  const webhooks = new Map<string, MockWebhook>()
  const shipmentItems = new Map<string, ShipmentItems[]>()
  const deliver = options.deliver ?? ((url: string, init: RequestInit) => globalThis.fetch(url, init))
  /** Product id → GETs still to answer without mockups. */
  const pendingMockups = new Map<string, number>()
  const faults: Fault[] = []
  /** Every print-area image fetched by URL for an order line that made its product, in order. */
  const printFileUrls: MockPrintFileUrl[] = []
  /** Order id → send_to_production calls for it (refused ones included). */
  const sentToProduction = new Map<string, number>()
  /** Upload ids archived by POST /v1/uploads/{id}/archive.json. */
  const archivedUploads = new Set<string>()
  /** Request limits while `enforceLimits` is on: answered requests in the last minute, products created per UTC day. */
  let limits: { perMinute: number; dailyProducts: number; now: () => number; window: number[]; products: Map<number, number> } | null = null
  const counts = { refusedPerMinute: 0, refusedDailyProducts: 0, injectedRateLimits: 0 }
  /** Blueprint and print provider (`1186:228`) → each method's shipping rows; the ornament's as the store's table has them. */
  const shippingCatalog = new Map<string, Partial<Record<MockShippingMethod, MockShippingRate[]>>>([
    [
      `${MOCK_ORNAMENT_BLUEPRINT}:${MOCK_ORNAMENT_PROVIDER}`,
      {
        standard: MOCK_ORNAMENT_VARIANTS.flatMap((variantId) => [
          { variantId, country: 'US', firstItem: 599, additionalItems: 0 },
          { variantId, country: 'REST_OF_THE_WORLD', firstItem: 1299, additionalItems: 400 },
        ]),
        express: MOCK_ORNAMENT_VARIANTS.map((variantId) => ({ variantId, country: 'US', firstItem: 1499, additionalItems: 0 })),
      },
    ],
  ])
  /** Every catalog request answers this (a status, or a network failure) while set. */
  let catalogFailure: number | 'network' | null = null
  let mockupDelay = 0
  let sequence = 0
  // Printify ids are 24 hex digits (Mongo object ids).
  const nextId = (tag: string) => tag + (++sequence).toString(16).padStart(23, '0')
  const timestamp = () =>
    new Date(now())
      .toISOString()
      .replace('T', ' ')
      .replace(/\.\d+Z$/, '+00:00')

  async function handle(input: RequestInfo | URL, init?: RequestInit): Promise<Response> {
    const request = new Request(input, init)
    if (request.signal.aborted) throw request.signal.reason
    const url = new URL(request.url)
    const text = request.method === 'GET' || request.method === 'HEAD' ? '' : await request.text()
    const call: PrintifyMockCall = {
      method: request.method,
      path: url.pathname,
      query: Object.fromEntries(url.searchParams),
      headers: Object.fromEntries(request.headers),
      body: text === '' ? undefined : parseJson(text),
      status: 0,
    }
    calls.push(call)

    const answer = route(request, url, call, text)
    if (answer === 'network') throw new TypeError('fetch failed')
    call.status = answer.status
    return new Response(JSON.stringify(answer.body), {
      status: answer.status,
      headers: { 'Content-Type': 'application/json', ...answer.headers },
    })
  }

  /**
   * The catalog's shipping costs (https://developers.printify.com/#catalog, v1 and v2): per blueprint and print
   * provider, each method's rows, one per variant and country (an ISO code or REST_OF_THE_WORLD), amounts in cents.
   * v1 `shipping.json` groups them into profiles (no method), v2 `shipping.json` lists the methods and
   * `shipping/{method}.json` answers one method's rows; a method the provider does not serve is 404.
   */
  function catalogAnswer(path: string): Answer | 'network' {
    if (catalogFailure === 'network') return 'network'
    if (typeof catalogFailure === 'number') return serverError(catalogFailure)
    const v1 = /^\/v1\/catalog\/blueprints\/(\d+)\/print_providers\/(\d+)\/shipping\.json$/.exec(path)
    const v2 = /^\/v2\/catalog\/blueprints\/(\d+)\/print_providers\/(\d+)\/shipping(?:\/(standard|priority|express|economy))?\.json$/.exec(path)
    const match = v1 ?? v2
    const methods = match ? shippingCatalog.get(`${match[1]}:${match[2]}`) : undefined
    if (!match || !methods) return notFound()
    if (v1) {
      const profiles = new Map<string, { variant_ids: number[]; first_item: object; additional_items: object; countries: string[] }>()
      for (const r of methods.standard ?? []) {
        const key = `${r.firstItem}:${r.additionalItems}`
        const profile = profiles.get(key) ?? {
          variant_ids: [],
          first_item: { cost: r.firstItem, currency: 'USD' },
          additional_items: { cost: r.additionalItems, currency: 'USD' },
          countries: [],
        }
        if (!profile.variant_ids.includes(r.variantId)) profile.variant_ids.push(r.variantId)
        if (!profile.countries.includes(r.country)) profile.countries.push(r.country)
        profiles.set(key, profile)
      }
      return { status: 200, body: { handling_time: { value: 4, unit: 'day' }, profiles: [...profiles.values()] } }
    }
    const base = `https://api.printify.com/v2/catalog/blueprints/${match[1]}/print_providers/${match[2]}/shipping`
    const offered = MOCK_SHIPPING_METHODS.filter((m) => methods[m])
    if (!match[3])
      return {
        status: 200,
        body: {
          data: offered.map((m) => ({ type: 'shipping_method', id: String(MOCK_SHIPPING_METHODS.indexOf(m) + 1), attributes: { name: m } })),
          links: Object.fromEntries(offered.map((m) => [m, `${base}/${m}.json`])),
        },
      }
    const method = match[3] as MockShippingMethod
    const rows = methods[method]
    if (!rows) return notFound()
    return {
      status: 200,
      body: {
        data: rows.map((r) => ({
          type: `variant_shipping_${method}_${r.country.toLowerCase()}`,
          id: String(r.variantId),
          attributes: {
            shippingType: method,
            country: { code: r.country },
            variantId: r.variantId,
            shippingPlanId: `65a7c0825b50fcd56a018e0${MOCK_SHIPPING_METHODS.indexOf(method)}`,
            handlingTime: { from: 4, to: 8 },
            shippingCost: { firstItem: { amount: r.firstItem, currency: 'USD' }, additionalItems: { amount: r.additionalItems, currency: 'USD' } },
          },
        })),
      },
    }
  }

  /**
   * While `enforceLimits` is on: a request beyond `perMinute` answered in the last 60 s answers 429 with Retry-After
   * (whole seconds until the oldest leaves the window), and so does POST products.json beyond `dailyProducts` created
   * this UTC day (Retry-After: until midnight UTC). A refused request is not processed and does not count.
   */
  function limitAnswer(method: string, path: string): Answer | null {
    if (!limits) return null
    const t = limits.now()
    const window = limits.window
    while (window.length > 0 && window[0]! <= t - MINUTE) window.shift()
    if (window.length >= limits.perMinute) {
      counts.refusedPerMinute++
      return tooMany(window[0]! + MINUTE - t)
    }
    if (method === 'POST' && path === `/v1/shops/${shopId}/products.json`) {
      const day = Math.floor(t / DAY)
      if ((limits.products.get(day) ?? 0) >= limits.dailyProducts) {
        counts.refusedDailyProducts++
        return tooMany((day + 1) * DAY - t)
      }
    }
    window.push(t)
    return null
  }

  /** A product POST products.json created, for the daily limit (by the limits' clock). */
  function countProductCreated() {
    if (!limits) return
    const day = Math.floor(limits.now() / DAY)
    limits.products.set(day, (limits.products.get(day) ?? 0) + 1)
  }

  function route(request: Request, url: URL, call: PrintifyMockCall, text: string): Answer | 'network' {
    if (url.origin !== 'https://api.printify.com') return notFound()
    if (request.headers.get('authorization') !== `Bearer ${token}`) return { status: 401, body: { error: 'Unauthenticated' } }
    // Printify requires a User-Agent on every request.
    if (!request.headers.get('user-agent')) return error(400, 'User-Agent header is required.', 'Requests must send a User-Agent header.')
    const limited = limitAnswer(request.method, url.pathname)
    if (limited) return limited

    const fault = faults.shift()
    if (fault?.kind === 'network') return 'network'
    // Printify's 429 means the request was not processed.
    if (fault?.kind === 'rate-limit') {
      counts.injectedRateLimits++
      return {
        status: 429,
        body: { status: 'error', code: 429, message: 'Too Many Attempts.' },
        headers: fault.retryAfter === null ? {} : { 'Retry-After': fault.retryAfter },
      }
    }
    if (fault?.kind === 'server-error' && !fault.processed) return serverError(fault.status)

    // send_to_production, cancel and archive take no body: none at all is fine, and so is `{}`.
    const bodyless = request.method === 'POST' && text === '' && BODYLESS_POST.test(url.pathname)
    if ((request.method === 'POST' || request.method === 'PUT') && !bodyless) {
      if (!/^application\/json\b/i.test(request.headers.get('content-type') ?? ''))
        return error(400, 'Bad request.', 'The request body must be JSON (Content-Type: application/json).')
      if (call.body === undefined || typeof call.body === 'string' || text === '') return error(400, 'Bad request.', 'The request body is not valid JSON.')
    }
    const answer = dispatch(request.method, url, call.body)
    return fault?.kind === 'server-error' ? serverError(fault.status) : answer
  }

  function dispatch(method: string, url: URL, body: unknown): Answer | 'network' {
    const path = url.pathname
    if (path.startsWith('/v1/catalog/') || path.startsWith('/v2/catalog/')) return method === 'GET' ? catalogAnswer(path) : notFound()
    if (path === '/v1/uploads/images.json' && method === 'POST') return uploadImage(body)
    const archive = /^\/v1\/uploads\/([^/]+)\/archive\.json$/.exec(path)
    if (archive && method === 'POST') return archiveUpload(decodeURIComponent(archive[1]!))
    const shop = /^\/v1\/shops\/([^/]+)\/(.+)$/.exec(path)
    if (!shop) return notFound()
    if (shop[1] !== String(shopId)) return error(404, 'Shop not found.', `Shop ${decodeURIComponent(shop[1]!)} is not connected to this account.`, 404)
    const rest = shop[2]!
    if (rest === 'products.json' && method === 'POST') return createProduct(body)
    if (rest === 'products.json' && method === 'GET') return listProducts(url.searchParams)
    const product = /^products\/([^/]+)\.json$/.exec(rest)
    if (product && method === 'GET') return getProduct(decodeURIComponent(product[1]!))
    if (product && method === 'DELETE') return deleteProduct(decodeURIComponent(product[1]!))
    if (rest === 'orders.json' && method === 'POST') return createOrder(body)
    if (rest === 'orders.json' && method === 'GET') return listOrders(url.searchParams)
    const order = /^orders\/([^/]+)\.json$/.exec(rest)
    if (order && method === 'GET') return getOrder(decodeURIComponent(order[1]!))
    const orderAction = /^orders\/([^/]+)\/(send_to_production|cancel)\.json$/.exec(rest)
    if (orderAction && method === 'POST')
      return orderAction[2] === 'cancel' ? cancelOrder(decodeURIComponent(orderAction[1]!)) : sendToProduction(decodeURIComponent(orderAction[1]!))
    if (rest === 'webhooks.json' && method === 'GET') return { status: 200, body: [...webhooks.values()].map(webhookView) }
    if (rest === 'webhooks.json' && method === 'POST') return createWebhook(body)
    const hook = /^webhooks\/([^/]+)\.json$/.exec(rest)
    if (hook && method === 'PUT') return updateWebhook(decodeURIComponent(hook[1]!), body)
    if (hook && method === 'DELETE') return deleteWebhook(decodeURIComponent(hook[1]!))
    return notFound()
  }

  function uploadImage(body: unknown): Answer {
    if (!isRecord(body)) return invalid(['The request body must be an object.'])
    const problems: string[] = []
    if (typeof body.file_name !== 'string' || body.file_name === '') problems.push('file_name: The file name field is required.')
    const hasUrl = body.url !== undefined
    const hasContents = body.contents !== undefined
    if (hasUrl === hasContents) problems.push('Exactly one of url or contents is required.')
    let size = 0
    let width = 0
    let height = 0
    let mime = mimeFromName(typeof body.file_name === 'string' ? body.file_name : '')
    if (hasUrl) {
      if (typeof body.url !== 'string' || !/^https?:\/\//.test(body.url)) problems.push('url: The url format is invalid.')
      else [width, height] = [1000, 1000] // Printify fetches and measures it; the mock does not fetch.
    } else if (hasContents) {
      const bytes = typeof body.contents === 'string' ? decodeBase64(body.contents) : null
      const image = bytes && imageInfo(bytes)
      if (!bytes) problems.push('contents: The contents must be a base64 encoded image.')
      else if (!image) problems.push('contents: The image could not be read; upload a PNG or JPEG.')
      else {
        ;({ width, height, mime } = image)
        size = bytes.length
      }
    }
    if (problems.length > 0) return invalid(problems)
    const id = nextId('5')
    const upload: MockUpload = {
      id,
      file_name: body.file_name as string,
      height,
      width,
      size,
      mime_type: mime,
      preview_url: `https://pfy-prod-image-storage.s3.us-east-2.amazonaws.com/uploads/${id}/preview.png`,
      upload_time: timestamp(),
      source: hasUrl ? { url: body.url as string } : { contents: body.contents as string },
    }
    uploads.set(id, upload)
    const { source: _source, ...answer } = upload
    return { status: 200, body: answer }
  }

  function createProduct(body: unknown): Answer {
    if (!isRecord(body)) return invalid(['The request body must be an object.'])
    const problems: string[] = []
    if ('external' in body) problems.push('external: The external field is prohibited when creating a product.')
    if (typeof body.title !== 'string' || body.title.trim() === '') problems.push('title: The title field is required.')
    if (typeof body.description !== 'string') problems.push('description: The description field is required.')
    if (!isPositiveInt(body.blueprint_id)) problems.push('blueprint_id: The blueprint id field is required.')
    if (!isPositiveInt(body.print_provider_id)) problems.push('print_provider_id: The print provider id field is required.')

    const variants = Array.isArray(body.variants) ? body.variants : []
    if (variants.length === 0) problems.push('variants: The variants field is required.')
    variants.forEach((v, i) => {
      if (!isRecord(v) || !isPositiveInt(v.id)) problems.push(`variants.${i}.id: The variant id must be an integer.`)
      else if (!isPositiveInt(v.price)) problems.push(`variants.${i}.price: The price must be a whole number of cents.`)
      else if (v.is_enabled !== undefined && typeof v.is_enabled !== 'boolean')
        problems.push(`variants.${i}.is_enabled: The is enabled field must be true or false.`)
    })

    const areas = Array.isArray(body.print_areas) ? body.print_areas : []
    if (areas.length === 0) problems.push('print_areas: The print areas field is required.')
    const covered = new Set<number>()
    areas.forEach((area, i) => {
      if (!isRecord(area) || !Array.isArray(area.variant_ids) || area.variant_ids.length === 0)
        return problems.push(`print_areas.${i}.variant_ids: The variant ids field is required.`)
      for (const id of area.variant_ids) if (isPositiveInt(id)) covered.add(id)
      const placeholders = Array.isArray(area.placeholders) ? area.placeholders : []
      if (placeholders.length === 0) problems.push(`print_areas.${i}.placeholders: The placeholders field is required.`)
      placeholders.forEach((ph, j) => {
        const where = `print_areas.${i}.placeholders.${j}`
        if (!isRecord(ph) || typeof ph.position !== 'string' || ph.position === '') return problems.push(`${where}.position: The position field is required.`)
        const images = Array.isArray(ph.images) ? ph.images : []
        if (images.length === 0) problems.push(`${where}.images: The images field is required.`)
        images.forEach((image, k) => {
          if (!isRecord(image) || typeof image.id !== 'string') return problems.push(`${where}.images.${k}.id: The id field is required.`)
          if (!uploads.has(image.id)) problems.push(`${where}.images.${k}.id: Image ${image.id} does not exist.`)
          for (const key of ['x', 'y', 'scale', 'angle'])
            if (typeof image[key] !== 'number') problems.push(`${where}.images.${k}.${key}: The ${key} must be a number.`)
        })
      })
    })
    // Every enabled variant needs artwork.
    for (const v of variants)
      if (isRecord(v) && isPositiveInt(v.id) && v.is_enabled !== false && areas.length > 0 && !covered.has(v.id))
        problems.push(`print_areas: Variant ${v.id} is enabled but has no print area.`)
    if (problems.length > 0) return invalid(problems)

    const id = nextId('6')
    const enabled = (variants as Record<string, unknown>[]).filter((v) => v.is_enabled !== false).map((v) => v.id as number)
    const product: MockProduct = {
      id,
      title: body.title as string,
      description: body.description as string,
      tags: Array.isArray(body.tags) ? body.tags.filter((t): t is string => typeof t === 'string') : [],
      blueprint_id: body.blueprint_id as number,
      print_provider_id: body.print_provider_id as number,
      shop_id: shopId,
      variants: (variants as Record<string, unknown>[]).map((v, i) => ({
        id: v.id as number,
        price: v.price as number,
        is_enabled: v.is_enabled !== false,
        is_default: i === 0,
        sku: `${id.slice(-6)}-${v.id as number}`,
        title: `Variant ${v.id as number}`,
      })),
      images: mockupImages(id, enabled, positionsOf(areas)),
      print_areas: areas as MockProduct['print_areas'],
      created_at: timestamp(),
      updated_at: timestamp(),
      visible: true,
      is_locked: false,
    }
    products.set(id, product)
    pendingMockups.set(id, mockupDelay)
    countProductCreated()
    return { status: 200, body: productView(product) }
  }

  /** `GET products.json?page=&limit=`: the shop's products, newest first, in Printify's (Laravel) page envelope. */
  function listProducts(params: URLSearchParams): Answer {
    const paging = pageParams(params, PRODUCTS_PAGE_DEFAULT, PRODUCTS_PAGE_LIMIT)
    if ('problems' in paging) return invalid(paging.problems)
    const all = [...products.values()].reverse().map(productView)
    return { status: 200, body: pageEnvelope(all, paging.page, paging.limit, `https://api.printify.com/v1/shops/${shopId}/products.json`) }
  }

  /** `DELETE products/{id}.json` answers `{}`. */
  function deleteProduct(id: string): Answer {
    if (!products.delete(id)) return error(404, 'Product not found.', `Product ${id} does not exist.`, 404)
    pendingMockups.delete(id)
    return { status: 200, body: {} }
  }

  /** `POST /v1/uploads/{id}/archive.json` (no body) answers `{}`; the upload stays readable, marked archived. */
  function archiveUpload(id: string): Answer {
    if (!uploads.has(id)) return error(404, 'Image not found.', `Image ${id} does not exist.`, 404)
    archivedUploads.add(id)
    return { status: 200, body: {} }
  }

  function getProduct(id: string): Answer {
    const product = products.get(id)
    if (!product) return error(404, 'Product not found.', `Product ${id} does not exist.`, 404)
    const answer = productView(product)
    const pending = pendingMockups.get(id) ?? 0
    if (pending > 0) pendingMockups.set(id, pending - 1)
    return { status: 200, body: answer }
  }

  /** While mockups are pending (create answer included), Printify answers the product without images. */
  function productView({ madeByOrder: _madeByOrder, ...product }: MockProduct) {
    return (pendingMockups.get(product.id) ?? 0) > 0 ? { ...product, images: [] } : product
  }

  /**
   * A line item that makes its product (Printify's "create a product with an order"): blueprint, print provider,
   * variant and `print_areas` naming each position's image URL. Answers its problems, Printify-style.
   */
  function newProductLineProblems(item: Record<string, unknown>, at: string): string[] {
    const problems: string[] = []
    if (!isPositiveInt(item.blueprint_id)) problems.push(`${at}.blueprint_id: The blueprint id must be a positive integer.`)
    if (!isPositiveInt(item.print_provider_id)) problems.push(`${at}.print_provider_id: The print provider id must be a positive integer.`)
    if (!isPositiveInt(item.variant_id)) problems.push(`${at}.variant_id: The variant id must be a positive integer.`)
    const areas = item.print_areas
    if (!isRecord(areas) || Object.keys(areas).length === 0)
      problems.push(`${at}.print_areas: The print areas field must name at least one position and its image URL.`)
    else
      for (const [position, url] of Object.entries(areas)) {
        if (position.trim() === '') problems.push(`${at}.print_areas: A print area needs a position.`)
        else if (typeof url !== 'string' || !/^https?:\/\/[^\s]+$/.test(url))
          problems.push(`${at}.print_areas.${position}: The ${position} print area must be an image URL (http or https).`)
      }
    return problems
  }

  /** The product Printify makes for a line item with print-area URLs: that one variant, each position's image by URL. */
  function productForLine(item: Record<string, unknown>, orderId: string): MockProduct {
    const id = nextId('6')
    const variantId = item.variant_id as number
    const areas = Object.entries(item.print_areas as Record<string, string>)
    for (const [position, url] of areas) printFileUrls.push({ orderId, position, url })
    const product: MockProduct = {
      id,
      title: `Order ${orderId} item`,
      description: '',
      tags: [],
      blueprint_id: item.blueprint_id as number,
      print_provider_id: item.print_provider_id as number,
      shop_id: shopId,
      variants: [{ id: variantId, price: 0, is_enabled: true, is_default: true, sku: `${id.slice(-6)}-${variantId}`, title: `Variant ${variantId}` }],
      images: mockupImages(
        id,
        [variantId],
        areas.map(([position]) => position),
      ),
      print_areas: [{ variant_ids: [variantId], placeholders: areas.map(([position, src]) => ({ position, images: [{ src }] })) }],
      created_at: timestamp(),
      updated_at: timestamp(),
      visible: true,
      is_locked: false,
      madeByOrder: true,
    }
    products.set(id, product)
    pendingMockups.set(id, mockupDelay)
    return product
  }

  function createOrder(body: unknown): Answer {
    if (!isRecord(body)) return invalid(['The request body must be an object.'])
    const problems: string[] = []
    if (body.external_id !== undefined && typeof body.external_id !== 'string') problems.push('external_id: The external id must be a string.')
    const items = Array.isArray(body.line_items) ? body.line_items : []
    if (items.length === 0) problems.push('line_items: The line items field is required.')
    let makesProducts = false
    items.forEach((item, i) => {
      const at = `line_items.${i}`
      if (!isRecord(item)) return problems.push(`${at}: The line item must be an object.`)
      const byProduct = item.product_id !== undefined
      const makesProduct = item.blueprint_id !== undefined || item.print_areas !== undefined || item.print_provider_id !== undefined
      if (byProduct && makesProduct) problems.push(`${at}: A line item takes either product_id or blueprint_id with print_areas, not both.`)
      else if (makesProduct) {
        makesProducts = true
        problems.push(...newProductLineProblems(item, at))
      } else if (!byProduct) problems.push(`${at}.product_id: The product id field is required when blueprint id and print areas are not present.`)
      else {
        const product = typeof item.product_id === 'string' ? products.get(item.product_id) : undefined
        if (!product) problems.push(`${at}.product_id: Product ${String(item.product_id)} does not exist.`)
        else if (!product.variants.some((v) => v.id === item.variant_id && v.is_enabled))
          problems.push(`${at}.variant_id: Variant ${String(item.variant_id)} is not enabled on the product.`)
      }
      if (!isPositiveInt(item.quantity)) problems.push(`${at}.quantity: The quantity must be at least 1.`)
    })
    if (![1, 2, 3, 4].includes(body.shipping_method as number)) problems.push('shipping_method: The selected shipping method is invalid.')
    else if (body.shipping_method === 4 && makesProducts)
      problems.push('shipping_method: shipping method 4 (economy) will not be usable when creating a product with an order.')
    if (body.is_printify_express !== undefined && typeof body.is_printify_express !== 'boolean')
      problems.push('is_printify_express: The field must be true or false.')
    // Printify Express (shipping_method 3) is ordered with is_printify_express: true, and only then.
    else if ((body.is_printify_express === true) !== (body.shipping_method === 3))
      problems.push('is_printify_express: Printify Express orders need shipping_method 3 and is_printify_express true together.')
    if (body.send_shipping_notification !== undefined && typeof body.send_shipping_notification !== 'boolean')
      problems.push('send_shipping_notification: The field must be true or false.')
    const address = isRecord(body.address_to) ? body.address_to : undefined
    if (!address) problems.push('address_to: The address to field is required.')
    else
      for (const key of ['first_name', 'last_name', 'country', 'address1', 'city', 'zip'])
        if (typeof address[key] !== 'string' || address[key] === '') problems.push(`address_to.${key}: The ${key.replace('_', ' ')} field is required.`)
    if (problems.length > 0) return invalid(problems)

    const id = nextId('7')
    const externalId = (body.external_id as string | undefined) ?? id
    const label = typeof body.label === 'string' ? body.label : null
    const lines = (items as Record<string, unknown>[]).map((item) => {
      const product = item.product_id === undefined ? productForLine(item, id) : products.get(item.product_id as string)!
      return {
        product_id: product.id,
        variant_id: item.variant_id as number,
        quantity: item.quantity as number,
        // Printify holds every order made through the API (see `approval`).
        status: 'on-hold',
        metadata: { sku: product.variants.find((v) => v.id === item.variant_id)!.sku },
      }
    })
    const order: MockOrder = {
      id,
      external_id: externalId,
      label,
      status: 'on-hold',
      shipments: [],
      shipping_method: body.shipping_method as number,
      is_printify_express: body.is_printify_express === true,
      send_shipping_notification: body.send_shipping_notification === true,
      line_items: lines,
      address_to: Object.fromEntries(Object.entries(address!).filter((e): e is [string, string] => typeof e[1] === 'string')),
      metadata: { order_type: 'api', shop_order_id: externalId, shop_order_label: label },
      created_at: timestamp(),
    }
    orders.set(id, order)
    if (approval === 'automatic') setOrderStatus(order, 'in-production')
    return { status: 200, body: { id } }
  }

  function setOrderStatus(order: MockOrder, status: string) {
    order.status = status
    for (const item of order.line_items) item.status = status
  }

  /**
   * `POST orders/{id}/send_to_production.json` (no body): an order on hold goes to 'sending-to-production', which the
   * answer shows, and at once on to 'in-production' as stored. Any other status answers 400 with code 8502.
   */
  function sendToProduction(id: string): Answer {
    const order = orders.get(id)
    if (!order) return error(404, 'Order not found.', `Order ${id} does not exist.`, 404)
    sentToProduction.set(id, (sentToProduction.get(id) ?? 0) + 1)
    if (order.status !== 'on-hold')
      return error(400, 'Operation not allowed.', `Not allowed to send order to production with status ${order.status}`, ORDER_STATE_CODE)
    setOrderStatus(order, 'sending-to-production')
    const answer = structuredClone(order)
    setOrderStatus(order, 'in-production')
    return { status: 200, body: answer }
  }

  /** `POST orders/{id}/cancel.json` (no body): only an order 'on-hold' or 'payment-not-received' is canceled; answers the order. */
  function cancelOrder(id: string): Answer {
    const order = orders.get(id)
    if (!order) return error(404, 'Order not found.', `Order ${id} does not exist.`, 404)
    if (order.status !== 'on-hold' && order.status !== 'payment-not-received')
      return error(400, 'Operation not allowed.', `Not allowed to cancel order with status ${order.status}`, ORDER_STATE_CODE)
    setOrderStatus(order, 'canceled')
    return { status: 200, body: order }
  }

  function getOrder(id: string): Answer {
    const order = orders.get(id)
    if (!order) return error(404, 'Order not found.', `Order ${id} does not exist.`, 404)
    return { status: 200, body: order }
  }

  /** Printify answers a subscription without its secret. */
  const webhookView = ({ secret: _secret, ...hook }: MockWebhook) => hook

  function webhookProblems(body: Record<string, unknown>, creating: boolean) {
    const problems: string[] = []
    if (creating && (typeof body.topic !== 'string' || !(MOCK_ORDER_TOPICS as readonly string[]).includes(body.topic)))
      problems.push('topic: The selected topic is invalid.')
    if (typeof body.url !== 'string' || !/^https?:\/\/[^\s]+$/.test(body.url)) problems.push('url: The url format is invalid.')
    if (body.secret !== undefined && typeof body.secret !== 'string') problems.push('secret: The secret must be a string.')
    return problems
  }

  function createWebhook(body: unknown): Answer {
    if (!isRecord(body)) return invalid(['The request body must be an object.'])
    const problems = webhookProblems(body, true)
    if (problems.length > 0) return invalid(problems)
    const id = nextId('8')
    const hook: MockWebhook = { id, topic: body.topic as string, url: body.url as string, shop_id: shopId, secret: (body.secret as string | undefined) ?? null }
    webhooks.set(id, hook)
    return { status: 200, body: webhookView(hook) }
  }

  function updateWebhook(id: string, body: unknown): Answer {
    const hook = webhooks.get(id)
    if (!hook) return error(404, 'Webhook not found.', `Webhook ${id} does not exist.`, 404)
    if (!isRecord(body)) return invalid(['The request body must be an object.'])
    const problems = webhookProblems(body, false)
    if (problems.length > 0) return invalid(problems)
    hook.url = body.url as string
    if (typeof body.secret === 'string') hook.secret = body.secret
    return { status: 200, body: webhookView(hook) }
  }

  function deleteWebhook(id: string): Answer {
    if (!webhooks.delete(id)) return error(404, 'Webhook not found.', `Webhook ${id} does not exist.`, 404)
    return { status: 200, body: { id } }
  }

  /** The event Printify posts for `topic` about `order`: `{ id, type, created_at, resource: { id, type: 'order', data } }`. */
  function orderEvent(topic: string, order: MockOrder, eventId = nextId('9')) {
    const data: Record<string, unknown> = { shop_id: shopId, status: order.status }
    const latest = order.shipments.at(-1)
    const latestItems = shipmentItems.get(order.id)?.find((s) => s.shipment === latest)?.lineItems ?? order.line_items.map((_, i) => i)
    if (topic === 'order:shipment:created' && latest)
      Object.assign(data, {
        shipped_at: timestamp(),
        carrier: { code: latest.carrier, tracking_number: latest.number, tracking_url: latest.url },
        // The SKUs of the line items in this shipment (a partial one names only its own).
        skus: latestItems.map((i) => order.line_items[i]!.metadata.sku),
      })
    else if (topic === 'order:shipment:delivered' && latest)
      Object.assign(data, { delivered_at: latest.delivered_at, carrier: { code: latest.carrier, tracking_number: latest.number, tracking_url: latest.url } })
    else if (order.shipments.length > 0) data.shipments = order.shipments
    return { id: eventId, type: topic, created_at: timestamp(), resource: { id: order.id, type: 'order', data } }
  }

  /** Each subscription to `topic`, with the body Printify would post and its signature (`sha256=` HMAC-SHA256 hex with the secret). */
  function eventsFor(topic: string, orderId: string, eventId?: string): MockOrderEvent[] {
    const order = orders.get(orderId)
    if (!order) throw new Error(`no mock order ${orderId}`)
    const body = JSON.stringify(orderEvent(topic, order, eventId))
    return [...webhooks.values()]
      .filter((hook) => hook.topic === topic)
      .map((hook) => ({ url: hook.url, topic, body, signature: hook.secret === null ? null : signPrintify(body, hook.secret) }))
  }

  async function send(event: MockOrderEvent) {
    const headers: Record<string, string> = { 'content-type': 'application/json', 'user-agent': 'Printify-Webhooks' }
    if (event.signature) headers['x-pf-signature'] = event.signature
    const response = await deliver(event.url, { method: 'POST', headers, body: event.body })
    return { url: event.url, topic: event.topic, status: response.status, body: await response.text() }
  }

  type Step = 'sent-to-production' | 'shipped' | 'delivered' | 'canceled'
  /**
   * Printify's side moves the order one step and posts the events it documents for it (order:updated with the new
   * status, and the step's own topic) to every subscribed URL. Answers what each delivery was answered.
   */
  async function advanceOrder(orderId: string, step: Step, shipment: Partial<MockShipment> = {}, lineItems?: number[]) {
    const answers = []
    for (const event of stepOrder(orderId, step, shipment, lineItems)) answers.push(await send(event))
    return answers
  }

  /**
   * As `advanceOrder`, but answers the events instead of posting them (to deliver late, twice, out of order, or never).
   * A shipment holds `lineItems` (indexes; default every line item not shipped yet): while some are left, the order is
   * `partially-fulfilled`, as Printify says it, and `fulfilled` once all have shipped.
   */
  function stepOrder(orderId: string, step: Step, shipment: Partial<MockShipment> = {}, lineItems?: number[]): MockOrderEvent[] {
    const order = orders.get(orderId)
    if (!order) throw new Error(`no mock order ${orderId}`)
    let topic: string
    if (step === 'sent-to-production') {
      order.status = 'in-production'
      topic = 'order:sent-to-production'
    } else if (step === 'shipped') {
      const unshipped = order.line_items.flatMap((item, i) => (item.status === 'fulfilled' ? [] : [i]))
      const holds = lineItems ?? (unshipped.length > 0 ? unshipped : order.line_items.map((_, i) => i))
      for (const i of holds) order.line_items[i]!.status = 'fulfilled'
      order.status = order.line_items.every((item) => item.status === 'fulfilled') ? 'fulfilled' : 'partially-fulfilled'
      const number = shipment.number ?? `9400${String(order.shipments.length + 1).padStart(18, '0')}`
      const made = { carrier: 'usps', number, url: `https://tools.usps.com/go/TrackConfirmAction?tLabels=${number}`, delivered_at: null, ...shipment }
      order.shipments.push(made)
      shipmentItems.set(order.id, [...(shipmentItems.get(order.id) ?? []), { shipment: made, lineItems: holds }])
      topic = 'order:shipment:created'
      return [...eventsFor('order:updated', orderId), ...eventsFor(topic, orderId)]
    } else if (step === 'delivered') {
      const latest = order.shipments.at(-1)
      if (latest) latest.delivered_at = timestamp()
      topic = 'order:shipment:delivered'
    } else {
      order.status = 'canceled'
      topic = 'order:canceled'
    }
    for (const item of order.line_items) item.status = order.status
    return [...eventsFor('order:updated', orderId), ...eventsFor(topic, orderId)]
  }

  function listOrders(params: URLSearchParams): Answer {
    const paging = pageParams(params, ORDERS_PAGE_LIMIT, ORDERS_PAGE_LIMIT)
    if ('problems' in paging) return invalid(paging.problems)
    const all = [...orders.values()].reverse() // newest first
    return { status: 200, body: pageEnvelope(all, paging.page, paging.limit, `https://api.printify.com/v1/shops/${shopId}/orders.json`) }
  }

  return {
    fetch: handle,
    token,
    shopId,
    calls,
    uploads,
    products,
    orders,
    webhooks,
    /** Each print-area image Printify fetched by URL for an order line that made its product: order id, position, URL. */
    printFileUrls,
    /** Order id → how many times send_to_production was called for it (refused calls included, unknown orders not). */
    sentToProduction,
    /** Upload ids archived through POST /v1/uploads/{id}/archive.json. */
    archivedUploads,
    /** 429s answered by `enforceLimits` (per-minute and daily-product refusals; injected `rateLimitNext` ones not). */
    get refused() {
      return counts.refusedPerMinute + counts.refusedDailyProducts
    },
    /** The limiter's refusals by kind, and the 429s injected by `rateLimitNext` that were answered. */
    stats() {
      return { refused: counts.refusedPerMinute + counts.refusedDailyProducts, ...counts }
    },
    /**
     * Turns on Printify's request limits (calling again starts afresh): a request beyond `perMinute` answered within
     * the last 60 s answers 429 `Too Many Attempts.` with Retry-After (seconds until the oldest leaves the window), and
     * POST products.json beyond `dailyProducts` created this UTC day answers 429 with Retry-After to midnight UTC.
     * Refused requests are not processed and do not count; products made by orders never count toward the daily cap.
     */
    enforceLimits({ perMinute = 600, dailyProducts = Infinity, now: clock = now }: PrintifyLimitOptions = {}) {
      limits = { perMinute, dailyProducts, now: clock, window: [], products: new Map() }
    },
    advanceOrder,
    stepOrder,
    eventsFor,
    send,
    /**
     * Serves this API over HTTP on 127.0.0.1 (a store process points PRINTIFY_API_URL at `url`). Requests arrive as
     * if sent to https://api.printify.com, so every documented rule above applies.
     */
    async listen(port = 0) {
      const server = http.createServer((req, res) => {
        const chunks: Buffer[] = []
        req.on('data', (chunk: Buffer) => chunks.push(chunk))
        req.on('end', () => {
          const headers = new Headers()
          for (const [name, value] of Object.entries(req.headers)) if (typeof value === 'string') headers.set(name, value)
          const body = chunks.length > 0 ? Buffer.concat(chunks) : undefined
          handle(`https://api.printify.com${req.url ?? '/'}`, { method: req.method, headers, body })
            .then(async (response) => {
              res.writeHead(response.status, Object.fromEntries(response.headers))
              res.end(Buffer.from(await response.arrayBuffer()))
            })
            .catch(() => res.destroy())
        })
      })
      await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve))
      const address = server.address() as AddressInfo
      return {
        url: `http://127.0.0.1:${address.port}`,
        close: () => new Promise<void>((resolve) => server.close(() => resolve())),
      }
    },
    /** The next `n` requests answer 429 (not processed) with this Retry-After; null sends none. */
    rateLimitNext(n: number, retryAfter: string | null = '1') {
      for (let i = 0; i < n; i++) faults.push({ kind: 'rate-limit', retryAfter })
    },
    /** The next `n` requests answer 5xx; `processed` makes them take effect first (a POST that "might have succeeded"). */
    serverErrorNext(n: number, { status = 500, processed = false }: { status?: number; processed?: boolean } = {}) {
      for (let i = 0; i < n; i++) faults.push({ kind: 'server-error', status, processed })
    },
    /** The next `n` requests fail like an unreachable host (fetch rejects with a TypeError). */
    networkErrorNext(n: number) {
      for (let i = 0; i < n; i++) faults.push({ kind: 'network' })
    },
    /** Products created from now on answer without mockups (on create and on the next `k` GETs). */
    delayMockups(k: number) {
      mockupDelay = k
    },
    /** A product's rows for one method (undefined: the provider no longer ships it that way, its endpoint 404). */
    setShippingRates(blueprintId: number, printProviderId: number, method: MockShippingMethod, rows: MockShippingRate[] | undefined) {
      const key = `${blueprintId}:${printProviderId}`
      shippingCatalog.set(key, { ...shippingCatalog.get(key), [method]: rows })
    },
    /** Every catalog request answers `failure` (an HTTP status, or a network failure) until called with null. */
    failCatalog(failure: number | 'network' | null) {
      catalogFailure = failure
    },
    /** Calls matching a method and a path (string equality or pattern). */
    callsTo(method: string, path: string | RegExp) {
      return calls.filter((c) => c.method === method && (typeof path === 'string' ? c.path === path : path.test(c.path)))
    },
  }
}

export type PrintifyMock = ReturnType<typeof createPrintifyMock>

/** Printify's webhook signature: `sha256=` and the hex HMAC-SHA256 of the raw body with the subscription's secret. */
export function signPrintify(body: string, secret: string) {
  return `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`
}

/** Printify-style mockup URLs: one per printed position plus a context shot, for each enabled variant. */
function mockupImages(productId: string, variantIds: number[], positions: string[]): MockImage[] {
  const images: MockImage[] = []
  let camera = 0
  for (const variantId of variantIds)
    for (const position of [...positions, 'other']) {
      camera++
      images.push({
        src: `https://images-api.printify.com/mockup/${productId}/${variantId}/${camera}/x.jpg?camera_label=${position}`,
        variant_ids: [variantId],
        position,
        is_default: camera === 1,
        is_selected_for_publishing: true,
      })
    }
  return images
}

function positionsOf(areas: unknown[]): string[] {
  const positions = new Set<string>()
  for (const area of areas)
    if (isRecord(area) && Array.isArray(area.placeholders))
      for (const ph of area.placeholders) if (isRecord(ph) && typeof ph.position === 'string') positions.add(ph.position)
  return [...positions]
}

function error(status: number, message: string, reason: string, code = status === 400 ? VALIDATION_CODE : status): Answer {
  return { status, body: { status: 'error', code, message, errors: { reason, code } } }
}
const invalid = (problems: string[]) => error(400, 'Validation failed.', problems.join(' '))
const notFound = () => error(404, 'Not found.', 'The requested resource does not exist.', 404)
const serverError = (status: number) => ({ status, body: { status: 'error', code: status, message: 'Server Error' } })
/** Printify's 429, with Retry-After in whole seconds (at least 1) for `ms` to wait. */
const tooMany = (ms: number): Answer => ({ status: 429, body: TOO_MANY, headers: { 'Retry-After': String(Math.max(1, Math.ceil(ms / 1000))) } })

/** A list's `page` (default 1) and `limit` (default `fallback`, at most `max`), or Printify's validation problems. */
function pageParams(params: URLSearchParams, fallback: number, max: number): { page: number; limit: number } | { problems: string[] } {
  const page = Number(params.get('page') ?? '1')
  const limit = Number(params.get('limit') ?? String(fallback))
  const problems: string[] = []
  if (!Number.isInteger(page) || page < 1) problems.push('page: The page must be at least 1.')
  if (!Number.isInteger(limit) || limit < 1) problems.push('limit: The limit must be at least 1.')
  else if (limit > max) problems.push(`limit: The limit may not be greater than ${max}.`)
  return problems.length > 0 ? { problems } : { page, limit }
}

/** Printify's (Laravel) page envelope of one page of `all`. */
function pageEnvelope<T>(all: T[], page: number, limit: number, base: string) {
  const lastPage = Math.max(1, Math.ceil(all.length / limit))
  const data = all.slice((page - 1) * limit, page * limit)
  const pageUrl = (n: number) => `${base}?page=${n}`
  return {
    current_page: page,
    data,
    first_page_url: pageUrl(1),
    from: data.length > 0 ? (page - 1) * limit + 1 : null,
    last_page: lastPage,
    last_page_url: pageUrl(lastPage),
    next_page_url: page < lastPage ? pageUrl(page + 1) : null,
    path: base,
    per_page: limit,
    prev_page_url: page > 1 ? pageUrl(page - 1) : null,
    to: data.length > 0 ? (page - 1) * limit + data.length : null,
    total: all.length,
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}
const isPositiveInt = (value: unknown): value is number => typeof value === 'number' && Number.isInteger(value) && value > 0

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown
  } catch {
    return text
  }
}

function decodeBase64(text: string): Buffer | null {
  if (text === '' || text.length % 4 !== 0 || !/^[A-Za-z0-9+/]+={0,2}$/.test(text)) return null
  return Buffer.from(text, 'base64')
}

function mimeFromName(name: string) {
  return /\.jpe?g$/i.test(name) ? 'image/jpeg' : 'image/png'
}

/** Reads a PNG's IHDR size; JPEG is accepted by signature with size unknown (0). */
function imageInfo(bytes: Buffer): { width: number; height: number; mime: string } | null {
  const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])
  if (bytes.length >= 24 && bytes.subarray(0, 8).equals(png) && bytes.toString('ascii', 12, 16) === 'IHDR')
    return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20), mime: 'image/png' }
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return { width: 0, height: 0, mime: 'image/jpeg' }
  return null
}
