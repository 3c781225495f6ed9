/**
 * The Printify print provider: a small client for Printify's REST API v1 (https://developers.printify.com/)
 * and the `PrintProvider` built on it. Server-only; the token never leaves this module, not even in errors.
 */
import net from 'node:net'
import type { ShippingMethodId } from '../../../catalogue/shipping'
import { isPublicAddress } from '../../media/safe-fetch'
import { metrics } from '../../../observability/metrics'
import {
  PrintProviderError,
  type CancelAnswer,
  type PrintOrderInput,
  type PrintOrderLine,
  type PrintProvider,
  type ProductionAnswer,
  type ShippingCost,
  type ShippingCostQuery,
} from './provider'

export type FetchLike = (input: RequestInfo | URL, init?: RequestInit) => Promise<Response>
export type Sleep = (ms: number) => Promise<void>

// ---------------------------------------------------------------------------------------------
// Printify's shapes (only the fields we send or read; Printify answers more).

/** `POST /v1/uploads/images.json` answer. */
export type PrintifyUpload = {
  id: string
  file_name: string
  height: number
  width: number
  size: number
  mime_type: string
  preview_url: string
  upload_time: string
}

export type PrintifyUploadInput = { fileName: string } & ({ url: string; contents?: never } | { contents: Buffer; url?: never })

export type PrintifyPlaceholderImage = { id: string; x: number; y: number; scale: number; angle: number }
export type PrintifyPlaceholder = { position: string; images: PrintifyPlaceholderImage[] }
export type PrintifyPrintArea = { variant_ids: number[]; placeholders: PrintifyPlaceholder[] }

/** `POST /v1/shops/{shop_id}/products.json` body. Printify refuses `external` here (it is set on publish). */
export type PrintifyCreateProductBody = {
  title: string
  description: string
  blueprint_id: number
  print_provider_id: number
  /** `price` in whole cents; variants left out are created disabled. */
  variants: { id: number; price: number; is_enabled?: boolean }[]
  print_areas: PrintifyPrintArea[]
  tags?: string[]
}

export type PrintifyProductImage = {
  src: string
  variant_ids: number[]
  /** 'front', 'back', 'other', … (Printify's camera position). */
  position: string
  is_default: boolean
  is_selected_for_publishing?: boolean
}

export type PrintifyProduct = {
  id: string
  title: string
  description: string
  blueprint_id: number
  print_provider_id: number
  variants: { id: number; price: number; is_enabled: boolean; title?: string; sku?: string }[]
  images: PrintifyProductImage[]
  print_areas: PrintifyPrintArea[]
  created_at?: string
  updated_at?: string
}

export type PrintifyAddress = {
  first_name: string
  last_name: string
  email: string
  phone: string
  /** ISO 3166-1 alpha-2. */
  country: string
  region: string
  address1: string
  address2?: string
  city: string
  zip: string
}

/**
 * An order's line item: an existing product, or (Printify's "create a product with an order") the blueprint, print
 * provider and variant with each print area's file URL, which Printify fetches; a product made so is not limited.
 */
export type PrintifyOrderLineItem =
  | { product_id: string; variant_id: number; quantity: number }
  | { blueprint_id: number; print_provider_id: number; variant_id: number; print_areas: Partial<Record<string, string>>; quantity: number }

/** `POST /v1/shops/{shop_id}/orders.json` body. */
export type PrintifyCreateOrderBody = {
  /** Our order id. Printify stores it but does not dedupe on it: see `findOrderByExternalId`. */
  external_id: string
  label?: string
  line_items: PrintifyOrderLineItem[]
  /** 1 standard, 2 priority, 3 Printify Express, 4 economy. */
  shipping_method: PrintifyShippingMethod
  /** True exactly when `shipping_method` is 3 (Printify Express). */
  is_printify_express: boolean
  /** Whether Printify e-mails the address's e-mail when it ships: never, the store sends its own (decision 063). */
  send_shipping_notification: boolean
  address_to: PrintifyAddress
}

export type PrintifyOrder = {
  id: string
  external_id?: string
  label?: string
  status: string
  shipping_method?: number
  /** `metadata.sku` is the variant's SKU, which a shipment event names (`skus`) for the line items it holds. */
  line_items: { product_id: string; variant_id: number; quantity: number; status?: string; metadata?: { sku?: string } }[]
  address_to?: Partial<PrintifyAddress>
  metadata?: { order_type?: string; shop_order_id?: string | number; shop_order_label?: string }
  created_at?: string
}

/** A shipment on an order (`GET /v1/shops/{shop_id}/orders/{id}.json`): `number` is the tracking number, `url` the carrier's tracking page. */
export type PrintifyShipment = { carrier?: string; number?: string; url?: string; delivered_at?: string | null }

/** `GET /v1/shops/{shop_id}/orders/{id}.json`: the order with its shipments. */
export type PrintifyOrderDetail = PrintifyOrder & { shipments?: PrintifyShipment[]; shipped_at?: string | null }

/** The order topics Printify sends webhooks for (https://developers.printify.com/#webhooks); a cancellation also comes as order:updated. */
export const PRINTIFY_ORDER_TOPICS = [
  'order:created',
  'order:updated',
  'order:sent-to-production',
  'order:shipment:created',
  'order:shipment:delivered',
  'order:canceled',
] as const
export type PrintifyOrderTopic = (typeof PRINTIFY_ORDER_TOPICS)[number]

/** A webhook subscription (`GET /v1/shops/{shop_id}/webhooks.json`). Printify never answers the secret back. */
/** Printify's shipping-cost endpoints, one per method (`/v2/catalog/…/shipping/{method}.json`). */
export type PrintifyShippingMethodName = 'standard' | 'priority' | 'express' | 'economy'

/** One row of a method's costs: a variant to a country (ISO code, or REST_OF_THE_WORLD for every other). */
export type PrintifyShippingCost = { variantId: number; country: string; firstItemCents: number; additionalItemsCents: number }

export type PrintifyWebhook = { id: string; topic: string; url: string; shop_id: string | number }

/** Printify's (Laravel) page envelope, e.g. on `GET /v1/shops/{shop_id}/orders.json`. */
export type PrintifyPage<T> = {
  current_page: number
  last_page: number
  per_page: number
  total: number
  data: T[]
  next_page_url?: string | null
  prev_page_url?: string | null
}

// ---------------------------------------------------------------------------------------------
// Rate limiting

/** Printify: 600 requests per minute per account; beyond that it answers 429. */
export const PRINTIFY_REQUESTS_PER_MINUTE = 600
/** Printify documents `limit` on the orders list as at most 10 per page. */
export const PRINTIFY_ORDERS_PAGE_LIMIT = 10
/** And on the products list as at most 100. */
export const PRINTIFY_PRODUCTS_PAGE_LIMIT = 100
/**
 * Printify limits integrations that create products and mockups by the day (its guidelines name the limit, not its size;
 * publishing is 200 per 30 minutes); products made by an order are not limited. The store makes a product of its own only
 * when Printify cannot fetch a print file (local storage), one per ordered design: at most this many a day by default.
 */
export const PRINTIFY_DAILY_PRODUCTS = 200
export const MAX_RETRIES = 3
/** 1 s, 2 s, 4 s. */
export const backoffMs = (retry: number) => 1000 * 2 ** retry
const TIMEOUT_MS = 20_000
/** A shipping quote is asked while a shopper waits: past this, the store's own table prices the parcel. */
const QUOTE_TIMEOUT_MS = 3_000
/** A Retry-After longer than this is not waited out inside a request; the call fails instead. */
const MAX_RETRY_AFTER_MS = 60_000

/**
 * Spaces request starts at least `60 000 / perMinute` ms apart, so no minute holds more than `perMinute`
 * requests. Slots are reserved synchronously, so concurrent callers queue up in call order. Share one
 * limiter (or one client) per Printify account: the limit is per account, not per client object.
 */
export class RequestLimiter {
  private nextSlot = Number.NEGATIVE_INFINITY
  readonly intervalMs: number

  constructor(
    perMinute: number,
    private readonly now: () => number,
    private readonly sleep: Sleep,
  ) {
    this.intervalMs = perMinute > 0 && Number.isFinite(perMinute) ? 60_000 / perMinute : 0
  }

  async acquire(): Promise<void> {
    const now = this.now()
    const slot = Math.max(now, this.nextSlot)
    this.nextSlot = slot + this.intervalMs
    if (slot > now) await this.sleep(slot - now)
  }
}

/**
 * A count per UTC day of one limited kind of call: `take` answers false once the day's budget is spent, so the call is
 * not made (and not refused by Printify at a peak). Per process, like the request limiter; share one client per account.
 */
export class DailyBudget {
  private day = ''
  private used = 0

  constructor(
    readonly perDay: number,
    private readonly now: () => number,
  ) {}

  take(): boolean {
    const today = new Date(this.now()).toISOString().slice(0, 10)
    if (today !== this.day) [this.day, this.used] = [today, 0]
    if (this.used >= this.perDay) return false
    this.used++
    return true
  }

  get remaining() {
    const today = new Date(this.now()).toISOString().slice(0, 10)
    return today === this.day ? this.perDay - this.used : this.perDay
  }
}

/** `Retry-After` as milliseconds: delta-seconds or an HTTP-date (RFC 9110 §10.2.3); null when absent or unreadable. */
export function parseRetryAfter(value: string | null, now: number): number | null {
  if (value === null || value.trim() === '') return null
  const text = value.trim()
  if (/^\d+$/.test(text)) return Number(text) * 1000
  const date = Date.parse(text)
  return Number.isNaN(date) ? null : Math.max(0, date - now)
}

// ---------------------------------------------------------------------------------------------
// The client

export type PrintifyClientOptions = {
  apiToken: string
  shopId: string | number
  fetch?: FetchLike
  /** Default 'https://api.printify.com'. */
  baseUrl?: string
  /** Waits for backoff, Retry-After and the limiter. Default: a real timer. */
  sleep?: Sleep
  /** Clock for the limiter and HTTP-date Retry-After. Default Date.now. */
  now?: () => number
  /** Printify requires a User-Agent on every request. */
  userAgent?: string
  /** Default 600 (Printify's global limit). */
  requestsPerMinute?: number
  /** Inject to share one limiter between clients of the same account. */
  limiter?: RequestLimiter
  /** Products the store may create a day (PRINTIFY_DAILY_PRODUCTS); default 200. */
  dailyProducts?: number
}

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE'

export class PrintifyClient {
  readonly sleep: Sleep
  readonly shopId: string
  private readonly token: string
  private readonly fetch: FetchLike
  private readonly baseUrl: string
  private readonly now: () => number
  private readonly userAgent: string
  private readonly limiter: RequestLimiter
  readonly productBudget: DailyBudget

  constructor(options: PrintifyClientOptions) {
    if (!options.apiToken) throw new PrintProviderError('Printify is not configured: the API token is empty.')
    if (options.shopId === '' || options.shopId === undefined) throw new PrintProviderError('Printify is not configured: the shop id is empty.')
    this.token = options.apiToken
    this.shopId = String(options.shopId)
    this.fetch = options.fetch ?? ((input, init) => globalThis.fetch(input, init))
    this.baseUrl = (options.baseUrl ?? 'https://api.printify.com').replace(/\/+$/, '')
    this.sleep = options.sleep ?? ((ms) => new Promise((resolve) => setTimeout(resolve, ms)))
    this.now = options.now ?? Date.now
    this.userAgent = options.userAgent ?? 'Keepsake/1.0 (+print-on-demand; node)'
    this.limiter = options.limiter ?? new RequestLimiter(options.requestsPerMinute ?? PRINTIFY_REQUESTS_PER_MINUTE, this.now, this.sleep)
    this.productBudget = new DailyBudget(options.dailyProducts ?? PRINTIFY_DAILY_PRODUCTS, this.now)
  }

  /** Adds an image to the account's media library, fetched by Printify from `url` or sent as base64 `contents`. */
  async uploadImage(input: PrintifyUploadInput): Promise<PrintifyUpload> {
    const body =
      input.url !== undefined ? { file_name: input.fileName, url: input.url } : { file_name: input.fileName, contents: input.contents.toString('base64') }
    const upload = await this.request<PrintifyUpload>('upload image', 'POST', '/v1/uploads/images.json', body)
    return requireId('upload image', upload)
  }

  /** Refused here, before Printify is asked, once the day's product budget is spent (PRINTIFY_DAILY_PRODUCTS). */
  async createProduct(body: PrintifyCreateProductBody): Promise<PrintifyProduct> {
    if (!this.productBudget.take())
      throw new PrintProviderError(
        `Printify create product: today's budget of ${this.productBudget.perDay} products is spent; it is tried again tomorrow.`,
        429,
      )
    const product = await this.request<PrintifyProduct>('create product', 'POST', this.shopPath('products.json'), body)
    return requireId('create product', product)
  }

  async getProduct(productId: string): Promise<PrintifyProduct> {
    const path = this.shopPath(`products/${encodeURIComponent(productId)}.json`)
    return requireId('get product', await this.request<PrintifyProduct>('get product', 'GET', path))
  }

  /**
   * Submits an order. Not idempotent and never retried except on 429: Printify does not dedupe on
   * `external_id`, so before re-submitting after an unclear failure, call `findOrderByExternalId`.
   */
  async createOrder(body: PrintifyCreateOrderBody): Promise<{ id: string }> {
    const order = await this.request<{ id: string }>('create order', 'POST', this.shopPath('orders.json'), body)
    return { id: requireId('create order', order).id }
  }

  /**
   * Starts production of an order on hold (Printify puts orders made through the API on hold, then sends them on per the
   * shop's approval setting; on manual approval only this sends them). Printify answers 400 for an order in another status.
   */
  async sendToProduction(orderId: string): Promise<PrintifyOrder> {
    const path = this.shopPath(`orders/${encodeURIComponent(orderId)}/send_to_production.json`)
    return requireId('send to production', await this.request<PrintifyOrder>('send to production', 'POST', path, {}))
  }

  /** Cancels an order; Printify accepts it only while the order is on hold or its payment was not received. */
  async cancelOrder(orderId: string): Promise<PrintifyOrder> {
    const path = this.shopPath(`orders/${encodeURIComponent(orderId)}/cancel.json`)
    return requireId('cancel order', await this.request<PrintifyOrder>('cancel order', 'POST', path, {}))
  }

  /** One page of the shop's products, newest first (at most 100 a page). */
  async listProducts({ page = 1, limit = PRINTIFY_PRODUCTS_PAGE_LIMIT }: { page?: number; limit?: number } = {}) {
    const query = new URLSearchParams({
      page: String(Math.max(1, Math.floor(page))),
      limit: String(Math.min(PRINTIFY_PRODUCTS_PAGE_LIMIT, Math.max(1, Math.floor(limit)))),
    })
    const result = await this.request<PrintifyPage<PrintifyProduct>>('list products', 'GET', `${this.shopPath('products.json')}?${query}`)
    if (!Array.isArray(result.data)) throw new PrintProviderError('Printify list products answered without a data list.')
    return result
  }

  async deleteProduct(productId: string): Promise<void> {
    await this.request<object>('delete product', 'DELETE', this.shopPath(`products/${encodeURIComponent(productId)}.json`))
  }

  /** Archives an upload (it leaves the media library; products already made with it keep it). */
  async archiveUpload(imageId: string): Promise<void> {
    await this.request<object>('archive upload', 'POST', `/v1/uploads/${encodeURIComponent(imageId)}/archive.json`, {})
  }

  /** One page of the shop's orders, newest first. */
  async listOrders({ page = 1, limit = PRINTIFY_ORDERS_PAGE_LIMIT }: { page?: number; limit?: number } = {}) {
    const query = new URLSearchParams({
      page: String(Math.max(1, Math.floor(page))),
      limit: String(Math.min(PRINTIFY_ORDERS_PAGE_LIMIT, Math.max(1, Math.floor(limit)))),
    })
    const result = await this.request<PrintifyPage<PrintifyOrder>>('list orders', 'GET', `${this.shopPath('orders.json')}?${query}`)
    if (!Array.isArray(result.data)) throw new PrintProviderError('Printify list orders answered without a data list.')
    return result
  }

  /**
   * Printify has no lookup by external id, so this walks the newest `maxPages` pages. Order submitters
   * call it before (re-)submitting: a retried submit after a timeout may otherwise print twice.
   */
  async findOrderByExternalId(externalId: string, { maxPages = 5 } = {}): Promise<PrintifyOrder | null> {
    for (let page = 1; page <= maxPages; page++) {
      const result = await this.listOrders({ page })
      const found = result.data.find((order) => order.external_id === externalId)
      if (found) return found
      if (result.data.length === 0 || page >= result.last_page) return null
    }
    return null
  }

  /** One order with its status and shipments. */
  async getOrder(orderId: string): Promise<PrintifyOrderDetail> {
    const path = this.shopPath(`orders/${encodeURIComponent(orderId)}.json`)
    return requireId('get order', await this.request<PrintifyOrderDetail>('get order', 'GET', path))
  }

  /**
   * What Printify charges to ship one method of a product (blueprint and print provider), one row per variant and
   * country (`GET /v2/catalog/blueprints/{id}/print_providers/{pp}/shipping/{method}.json`; amounts in cents, the
   * country an ISO code or REST_OF_THE_WORLD). A method the provider does not serve answers 404: no rows. A shopper
   * is waiting, so the call is tried once with a short timeout; the caller falls back to the store's table.
   */
  async shippingCosts(blueprintId: number, printProviderId: number, method: PrintifyShippingMethodName): Promise<PrintifyShippingCost[]> {
    const path = `/v2/catalog/blueprints/${blueprintId}/print_providers/${printProviderId}/shipping/${method}.json`
    let body: { data?: unknown }
    try {
      body = await this.request<{ data?: unknown }>('shipping costs', 'GET', path, undefined, { retries: 0, timeoutMs: QUOTE_TIMEOUT_MS })
    } catch (error) {
      if (error instanceof PrintProviderError && error.status === 404) return []
      throw error
    }
    if (!Array.isArray(body.data)) throw this.error('Printify shipping costs answered without a data list.')
    return body.data.map((entry: unknown) => {
      const a = (entry as { attributes?: Record<string, unknown> } | null)?.attributes
      const cost = a?.shippingCost as { firstItem?: { amount?: unknown }; additionalItems?: { amount?: unknown } } | undefined
      const country = (a?.country as { code?: unknown } | undefined)?.code
      const first = cost?.firstItem?.amount
      const additional = cost?.additionalItems?.amount
      if (typeof a?.variantId !== 'number' || typeof country !== 'string' || !Number.isInteger(first) || !Number.isInteger(additional))
        throw this.error('Printify shipping costs answered a row without a variant, country or amounts.')
      return { variantId: a.variantId, country, firstItemCents: first as number, additionalItemsCents: additional as number }
    })
  }

  /** The shop's webhook subscriptions. */
  async listWebhooks(): Promise<PrintifyWebhook[]> {
    const list = await this.request<PrintifyWebhook[]>('list webhooks', 'GET', this.shopPath('webhooks.json'))
    if (!Array.isArray(list)) throw new PrintProviderError('Printify list webhooks answered without a list.')
    return list.map((hook) => requireId('list webhooks', hook))
  }

  /** Subscribes `url` to `topic`; Printify signs each delivery with `secret` (X-Pf-Signature). */
  async createWebhook(body: { topic: string; url: string; secret: string }): Promise<PrintifyWebhook> {
    return requireId('create webhook', await this.request<PrintifyWebhook>('create webhook', 'POST', this.shopPath('webhooks.json'), body))
  }

  /** Points an existing subscription at `url` and (re)sets its secret. */
  async updateWebhook(webhookId: string, body: { url: string; secret: string }): Promise<PrintifyWebhook> {
    const path = this.shopPath(`webhooks/${encodeURIComponent(webhookId)}.json`)
    return requireId('update webhook', await this.request<PrintifyWebhook>('update webhook', 'PUT', path, body))
  }

  async deleteWebhook(webhookId: string): Promise<void> {
    await this.request<{ id: string }>('delete webhook', 'DELETE', this.shopPath(`webhooks/${encodeURIComponent(webhookId)}.json`))
  }

  private shopPath(rest: string) {
    return `/v1/shops/${encodeURIComponent(this.shopId)}/${rest}`
  }

  /**
   * One API call with Printify's retry rules: a 429 was not processed, so any method is retried after
   * Retry-After (or 1 s, 2 s, 4 s); 5xx and network failures are retried for GET only, since a POST that
   * failed that way may still have taken effect. At most MAX_RETRIES retries.
   */
  private async request<T>(
    call: string,
    method: Method,
    path: string,
    body?: unknown,
    { retries = MAX_RETRIES, timeoutMs = TIMEOUT_MS }: { retries?: number; timeoutMs?: number } = {},
  ): Promise<T> {
    const headers: Record<string, string> = {
      Authorization: `Bearer ${this.token}`,
      'User-Agent': this.userAgent,
      Accept: 'application/json',
    }
    if (body !== undefined) headers['Content-Type'] = 'application/json;charset=utf-8'
    const payload = body === undefined ? undefined : JSON.stringify(body)

    for (let retry = 0; ; retry++) {
      const canRetry = retry < retries
      await this.limiter.acquire()
      let response: Response
      try {
        response = await this.fetch(`${this.baseUrl}${path}`, {
          method,
          headers,
          body: payload,
          signal: AbortSignal.timeout(timeoutMs),
        })
      } catch (error) {
        if (method === 'GET' && canRetry && !isTimeout(error)) {
          await this.sleep(backoffMs(retry))
          continue
        }
        throw this.error(networkMessage(call, error))
      }

      if (response.ok) {
        const parsed = await readJson(response)
        if (parsed === undefined || parsed === null || typeof parsed !== 'object')
          throw this.error(`Printify ${call} answered HTTP ${response.status} without a JSON body.`, response.status)
        return parsed as T
      }

      if (response.status === 429) metrics().providerRateLimited.inc({ call })
      if (response.status === 429 && canRetry) {
        const wait = parseRetryAfter(response.headers.get('retry-after'), this.now()) ?? backoffMs(retry)
        await response.body?.cancel().catch(() => {})
        if (wait > MAX_RETRY_AFTER_MS)
          throw this.error(`Printify ${call} is rate limited (HTTP 429); Printify asks to retry after ${Math.ceil(wait / 1000)} s.`, 429)
        await this.sleep(wait)
        continue
      }
      if (response.status >= 500 && method === 'GET' && canRetry) {
        await response.body?.cancel().catch(() => {})
        await this.sleep(backoffMs(retry))
        continue
      }

      const detail = errorDetail(await readJson(response))
      const retried = retry > 0 ? ` after ${retry} ${retry === 1 ? 'retry' : 'retries'}` : ''
      throw this.error(`Printify ${call} failed with HTTP ${response.status}${retried}: ${detail}`, response.status)
    }
  }

  /** Every message passes here, so nothing Printify or the network echoes can leak the token. */
  private error(message: string, status?: number) {
    return new PrintProviderError(message.split(this.token).join('[redacted]'), status)
  }
}

function requireId<T extends { id?: unknown }>(call: string, value: T): T & { id: string } {
  if (typeof value.id !== 'string' && typeof value.id !== 'number') throw new PrintProviderError(`Printify ${call} answered without an id.`)
  return { ...value, id: String(value.id) }
}

async function readJson(response: Response): Promise<unknown> {
  try {
    const text = await response.text()
    return text === '' ? undefined : (JSON.parse(text) as unknown)
  } catch {
    return undefined
  }
}

const isTimeout = (error: unknown) => error instanceof Error && error.name === 'TimeoutError'

function networkMessage(call: string, error: unknown): string {
  if (isTimeout(error)) return `Printify ${call} timed out after ${TIMEOUT_MS / 1000} s.`
  const reason = error instanceof Error ? error.message : String(error)
  return `Printify ${call} failed: could not reach Printify (${reason.slice(0, 200)}).`
}

/**
 * Printify's error bodies look like `{ status: 'error', code, message: 'Validation failed.', errors: { reason, code } }`;
 * authentication failures like `{ error: 'Unauthenticated' }`; field validation sometimes `errors: { field: [msg] }`.
 */
export function errorDetail(body: unknown): string {
  if (!isRecord(body)) return 'no error message'
  const errors = body.errors
  let detail: string | undefined
  if (isRecord(errors)) {
    if (typeof errors.reason === 'string' && errors.reason !== '') detail = errors.reason
    else {
      const messages = Object.values(errors)
        .flatMap((value) => (Array.isArray(value) ? value : [value]))
        .filter((value): value is string => typeof value === 'string')
      if (messages.length > 0) detail = messages.join(' ')
    }
  }
  detail ??= [body.message, body.error].find((value): value is string => typeof value === 'string' && value !== '')
  return (detail ?? 'no error message').slice(0, 300)
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value)

// ---------------------------------------------------------------------------------------------
// The provider

const NON_PUBLIC_SUFFIXES = ['localhost', 'local', 'internal', 'test', 'example', 'invalid', 'lan', 'home.arpa', 'onion']

/** True when Printify's servers can plausibly fetch `raw`: https, a public host name or a public IP literal. */
export function isReachableByPrintify(raw: string): boolean {
  let url: URL
  try {
    url = new URL(raw)
  } catch {
    return false
  }
  if (url.protocol !== 'https:' || url.username !== '' || url.password !== '') return false
  const host = url.hostname.replace(/\.$/, '').toLowerCase()
  const bare = host.startsWith('[') ? host.slice(1, -1) : host
  if (net.isIP(bare)) return isPublicAddress(bare)
  if (!host.includes('.')) return false // single-label names only resolve on a private network
  return !NON_PUBLIC_SUFFIXES.some((suffix) => host === suffix || host.endsWith(`.${suffix}`))
}

/** Printify's order statuses in which it has not started making the order. */
const NOT_STARTED = new Set(['on-hold', 'payment-not-received'])

export class PrintifyProvider implements PrintProvider {
  readonly name = 'printify' as const

  constructor(readonly client: PrintifyClient) {}

  /** The costs of the store's method as Printify ships it (printifyShippingCostNames). */
  async shippingCosts(query: ShippingCostQuery): Promise<ShippingCost[]> {
    return this.client.shippingCosts(query.blueprintId, query.printProviderId, printifyShippingCostNames[query.method])
  }

  /**
   * Looks for an order already made under our id before creating one when an earlier try may have made it (`mayExist`):
   * Printify does not dedupe on external_id. Each line
   * carries its print files: by URL when Printify can fetch them (the product is made by the order, which Printify does
   * not limit); otherwise the files are uploaded by content and one product is made for the line (within the day's budget).
   */
  async submitOrder(input: PrintOrderInput): Promise<{ providerOrderId: string }> {
    const existing = input.mayExist ? await this.client.findOrderByExternalId(input.orderId) : null
    if (existing) return { providerOrderId: existing.id }
    const lineItems: PrintifyOrderLineItem[] = []
    for (const line of input.lines) lineItems.push(await this.lineItemOf(line))
    const created = await this.client.createOrder(printifyOrderBody(input, lineItems))
    return { providerOrderId: created.id }
  }

  private async lineItemOf(line: PrintOrderLine): Promise<PrintifyOrderLineItem> {
    if (line.printFiles.length === 0) throw new PrintProviderError(`Printify needs the print files of ${line.title}.`)
    if (line.printFiles.every((file) => isReachableByPrintify(file.url)))
      return {
        blueprint_id: line.blueprintId,
        print_provider_id: line.printProviderId,
        variant_id: line.variantId,
        print_areas: Object.fromEntries(line.printFiles.map((file) => [file.position, file.url])),
        quantity: line.quantity,
      }
    if (!Number.isInteger(line.priceCents) || line.priceCents <= 0)
      throw new PrintProviderError(`Printify needs a positive whole-cent price, not ${line.priceCents}.`)
    // A spent budget refuses before anything is uploaded (a retry would upload again for nothing).
    if (this.client.productBudget.remaining <= 0)
      throw new PrintProviderError(
        `Printify create product: today's budget of ${this.client.productBudget.perDay} products is spent; it is tried again tomorrow.`,
        429,
      )
    const placeholders: PrintifyPlaceholder[] = []
    for (const file of line.printFiles) {
      const upload = await this.client.uploadImage({ fileName: file.fileName, contents: await file.read() })
      // Centred, full size, upright: our renderer already made the file to the print area's size.
      placeholders.push({ position: file.position, images: [{ id: upload.id, x: 0.5, y: 0.5, scale: 1, angle: 0 }] })
    }
    const product = await this.client.createProduct({
      title: line.title,
      description: line.description,
      blueprint_id: line.blueprintId,
      print_provider_id: line.printProviderId,
      variants: [{ id: line.variantId, price: line.priceCents, is_enabled: true }],
      print_areas: [{ variant_ids: [line.variantId], placeholders }],
      tags: [`keepsake-preview:${line.previewId}`],
    })
    return { product_id: product.id, variant_id: line.variantId, quantity: line.quantity }
  }

  /**
   * send_to_production, once: Printify refuses it for an order that is not on hold, so the order is looked at first; one
   * already on its way answers 'already-sent', and one still 'pending' (Printify has not put it on hold yet) throws, to be
   * tried again.
   */
  async sendToProduction(providerOrderId: string): Promise<ProductionAnswer> {
    const order = await this.client.getOrder(providerOrderId)
    if (order.status === 'pending')
      throw new PrintProviderError(`Printify order ${providerOrderId} is still pending; it is sent to production once it is on hold.`)
    if (order.status !== 'on-hold') return 'already-sent'
    try {
      await this.client.sendToProduction(providerOrderId)
      return 'sent'
    } catch (error) {
      // An answer lost on the way, then a second ask: Printify says no, because the first went through.
      if (error instanceof PrintProviderError && error.status === 400 && (await this.client.getOrder(providerOrderId)).status !== 'on-hold')
        return 'already-sent'
      throw error
    }
  }

  async cancelOrder(providerOrderId: string): Promise<CancelAnswer> {
    const order = await this.client.getOrder(providerOrderId)
    if (order.status === 'canceled' || order.status === 'cancelled') return 'already-canceled'
    if (!NOT_STARTED.has(order.status) && order.status !== 'pending') return 'too-late'
    await this.client.cancelOrder(providerOrderId)
    return 'canceled'
  }
}

/** Printify's shipping methods (`shipping_method` on an order): 1 standard, 2 priority, 3 Printify Express, 4 economy. */
export type PrintifyShippingMethod = 1 | 2 | 3 | 4
export const PRINTIFY_STANDARD = 1
export const PRINTIFY_PRIORITY = 2
export const PRINTIFY_EXPRESS = 3
export const PRINTIFY_ECONOMY = 4

/**
 * Each of the store's methods as Printify's (decision 062): our Express promises production a day sooner as well as
 * a faster carrier, which is Printify Express (priority only speeds the carrier).
 */
export const printifyShippingMethods: Record<ShippingMethodId, PrintifyShippingMethod> = { standard: PRINTIFY_STANDARD, express: PRINTIFY_EXPRESS }
/** The shipping-cost endpoint that quotes each store method: the method it is sent as (express is Printify Express). */
export const printifyShippingCostNames: Record<ShippingMethodId, PrintifyShippingMethodName> = { standard: 'standard', express: 'express' }

/** Our order as Printify's create-order body: its line items (printifyProvider.lineItemOf), the address split as Printify wants it. */
export function printifyOrderBody(input: PrintOrderInput, lineItems: PrintifyOrderLineItem[]): PrintifyCreateOrderBody {
  const [first, ...rest] = input.address.name.trim().split(/\s+/)
  return {
    external_id: input.orderId,
    label: input.reference,
    line_items: lineItems,
    shipping_method: printifyShippingMethods[input.shippingMethod],
    is_printify_express: printifyShippingMethods[input.shippingMethod] === PRINTIFY_EXPRESS,
    // The store sends its own shipping e-mail, once per shipment and to the shopper, never to a gift's recipient (decision 063).
    send_shipping_notification: false,
    address_to: {
      first_name: first ?? '',
      last_name: rest.join(' ') || (first ?? ''),
      email: input.address.email,
      phone: input.address.phone,
      country: input.address.country,
      region: input.address.state,
      address1: input.address.line1,
      ...(input.address.line2 ? { address2: input.address.line2 } : {}),
      city: input.address.city,
      zip: input.address.postalCode,
    },
  }
}

// ---------------------------------------------------------------------------------------------
// Webhook subscriptions (npm run printify:webhooks)

/** Our webhook's path: a subscription whose URL ends in it is the store's (any host: the store may have moved). */
export const PRINTIFY_WEBHOOK_PATH = '/v1/webhooks/printify'

export type WebhookSyncStep = { topic: string; action: 'created' | 'updated' | 'removed-duplicate'; id: string }

/**
 * Makes the shop's subscriptions exactly one per order topic, to `url`, signed with `secret`: a topic without one
 * of ours is subscribed, ours is pointed at `url` with the secret set again (Printify never answers the secret, so
 * it cannot be compared), and a second one of ours to the same topic is removed. Others' subscriptions are left
 * alone. Safe to run again: a second run only updates.
 */
export async function syncPrintifyWebhooks(client: PrintifyClient, url: string, secret: string): Promise<WebhookSyncStep[]> {
  const steps: WebhookSyncStep[] = []
  const existing = await client.listWebhooks()
  const ours = (hookUrl: string) => {
    try {
      return new URL(hookUrl).pathname.replace(/\/+$/, '') === PRINTIFY_WEBHOOK_PATH
    } catch {
      return false
    }
  }
  for (const topic of PRINTIFY_ORDER_TOPICS) {
    const [first, ...extra] = existing.filter((hook) => hook.topic === topic && ours(hook.url))
    if (first) {
      await client.updateWebhook(first.id, { url, secret })
      steps.push({ topic, action: 'updated', id: first.id })
    } else {
      const created = await client.createWebhook({ topic, url, secret })
      steps.push({ topic, action: 'created', id: created.id })
    }
    for (const hook of extra) {
      await client.deleteWebhook(hook.id)
      steps.push({ topic, action: 'removed-duplicate', id: hook.id })
    }
  }
  return steps
}

// ---------------------------------------------------------------------------------------------
// Products no order used (npm run printify:unused-products)

export type UnusedProducts = {
  /** Every product of the shop that no order's line item names. */
  unused: { id: string; title: string; createdAt: string | null; uploadIds: string[] }[]
  /** Products in the shop, and orders looked through. */
  products: number
  orders: number
  deleted: string[]
  /** The uploads of deleted products that no kept product uses: archived. */
  archivedUploads: string[]
}

/**
 * Before issue 50, every preview made a product in the shop. This lists each product no order of the shop names (all of
 * its orders, a page of 10 at a time, and all of its products, 100 a page), and with `apply` deletes them and archives the
 * uploads only they used. Without `apply` nothing changes (a dry run).
 */
export async function unusedPrintifyProducts(client: PrintifyClient, { apply = false }: { apply?: boolean } = {}): Promise<UnusedProducts> {
  const used = new Set<string>()
  let orders = 0
  for (let page = 1; ; page++) {
    const result = await client.listOrders({ page })
    orders += result.data.length
    for (const order of result.data) for (const item of order.line_items ?? []) used.add(String(item.product_id))
    if (result.data.length === 0 || page >= result.last_page) break
  }
  const all: PrintifyProduct[] = []
  for (let page = 1; ; page++) {
    const result = await client.listProducts({ page })
    all.push(...result.data)
    if (result.data.length === 0 || page >= result.last_page) break
  }
  const uploadsOf = (product: PrintifyProduct) =>
    (product.print_areas ?? []).flatMap((area) =>
      (area.placeholders ?? []).flatMap((placeholder) =>
        (placeholder.images ?? []).flatMap((image) => (image.id === undefined || image.id === null ? [] : [String(image.id)])),
      ),
    )
  const unused = all
    .filter((product) => !used.has(String(product.id)))
    .map((product) => ({ id: String(product.id), title: product.title, createdAt: product.created_at ?? null, uploadIds: uploadsOf(product) }))
  const deleted: string[] = []
  const archivedUploads: string[] = []
  if (apply) {
    const kept = new Set(all.filter((product) => used.has(String(product.id))).flatMap(uploadsOf))
    for (const product of unused) {
      await client.deleteProduct(product.id)
      deleted.push(product.id)
    }
    for (const uploadId of new Set(unused.flatMap((product) => product.uploadIds))) {
      if (kept.has(uploadId)) continue
      await client.archiveUpload(uploadId)
      archivedUploads.push(uploadId)
    }
  }
  return { unused, products: all.length, orders, deleted, archivedUploads }
}
