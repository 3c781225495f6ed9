/**
 * An in-memory Stripe API (v1, https://docs.stripe.com/api) for tests of the Stripe payment adapter: a
 * fetch-compatible handler (`fetch`), served over HTTP on 127.0.0.1 by `listen()` so the official SDK reaches it
 * through its `host`/`port`/`protocol` options, exactly as it reaches api.stripe.com. It follows Stripe's
 * documented contract where our adapter depends on it:
 * - Bearer (or Basic) auth with the secret key; 401 `{ error: { type, message } }` otherwise.
 * - Form-encoded bodies in bracket notation, parsed back into nested objects; unknown parameters refused.
 * - Idempotency-Key on POSTs: Stripe saves the status and body once an endpoint starts executing and replays
 *   them for the same key (header `Idempotent-Replayed: true`); the same key with other parameters, or on
 *   another endpoint, answers 400 `idempotency_error`. Requests refused by validation are not saved.
 * - Checkout Sessions (create, retrieve with `expand[]=payment_intent`, expire) and coupons, with Stripe-shaped
 *   400/404 errors, session objects with realistic fields, and time-based expiry against the injected clock.
 * - PaymentIntents (retrieve, with `expand[]=latest_charge`) and their Charges, made when a session is completed;
 *   the PaymentIntent's metadata is the session's `payment_intent_data[metadata]`, as Checkout copies it.
 * - Refunds (create, by `payment_intent` or `charge`, whole or `amount`), which update the Charge's
 *   `amount_refunded` and `refunded` (true only once the whole amount is refunded).
 * - Stripe Tax: Checkout's `automatic_tax` (taxed when `complete` collects the address; a line with the
 *   Nontaxable code `txcd_00000000` is taxed at 0) and Tax Calculations (`POST /v1/tax/calculations`, retrieve,
 *   `expand[]=line_items`), both priced by the same engine (`mockStripeTax`), so they agree on the same goods.
 * - Events as Stripe delivers them: pretty-printed JSON, signed `t=…,v1=…,v0=…` (test mode adds a v0).
 * Knobs inject failures (before or after the request took effect; over HTTP a network failure drops the
 * connection without an answer) and drive sessions the way a shopper would.
 */
import { createHash, createHmac } from 'node:crypto'
import { createServer, type IncomingHttpHeaders } from 'node:http'
import type { AddressInfo } from 'node:net'

export const MOCK_STRIPE_SECRET_KEY = 'sk_test_51MockKeepsake0a1b2c3d4e5f6g7h8i9j0kLmNoPqRsTuVwXyZ'
export const MOCK_STRIPE_WEBHOOK_SECRET = 'whsec_mockKeepsakeSigningSecret0123456789'
/** The version the mock's events are rendered in (a webhook endpoint's version), and its answer when a request names none. */
export const MOCK_STRIPE_API_VERSION = '2026-10-28.endive'
const API_ORIGIN = 'https://api.stripe.com'

export type StripeMockOptions = {
  /** Milliseconds, like Date.now. Drives `created`, `expires_at` checks and automatic expiry. */
  now?: () => number
  secretKey?: string
}

export type StripeMockCall = {
  method: string
  /** Path without the query, e.g. `/v1/checkout/sessions`. */
  path: string
  /** The parsed query string (bracket notation resolved). */
  query: Record<string, unknown>
  idempotencyKey: string | null
  headers: Record<string, string>
  /** The raw form body as sent ('' for none). */
  rawBody: string
  /** The form body parsed back into nested objects and arrays ({} for none). All leaves are strings, as on the wire. */
  body: Record<string, unknown>
  /** The status the mock answered; 0 for an injected network failure before Stripe answered. */
  status: number
  replayed: boolean
}

type Address = {
  city: string | null
  country: string | null
  line1: string | null
  line2: string | null
  postal_code: string | null
  state: string | null
}

export type MockCheckoutSession = {
  id: string
  object: 'checkout.session'
  adaptive_pricing: { enabled: boolean }
  after_expiration: null
  allow_promotion_codes: null
  amount_subtotal: number
  amount_total: number
  automatic_tax: { enabled: boolean; liability: null; status: null | 'requires_location_inputs' | 'complete' }
  billing_address_collection: null
  cancel_url: string | null
  client_reference_id: string | null
  collected_information: { business_name: null; individual_name: null; shipping_details: { address: Address; name: string } | null } | null
  consent: null
  consent_collection: null
  created: number
  currency: string
  customer: null
  customer_creation: 'if_required'
  customer_details: { address: Address | null; email: string | null; name: string | null; phone: string | null; tax_exempt: 'none'; tax_ids: [] } | null
  customer_email: string | null
  discounts: { coupon: string | null; promotion_code: string | null }[]
  expires_at: number
  invoice: null
  livemode: false
  locale: null
  metadata: Record<string, string>
  mode: 'payment'
  payment_intent: string | null
  payment_method_types: string[]
  payment_status: 'paid' | 'unpaid' | 'no_payment_required'
  shipping_address_collection: { allowed_countries: string[] } | null
  shipping_cost: { amount_subtotal: number; amount_tax: number; amount_total: number; shipping_rate: string } | null
  shipping_options: { shipping_amount: number; shipping_rate: string }[]
  status: 'open' | 'complete' | 'expired'
  submit_type: null
  success_url: string | null
  total_details: { amount_discount: number; amount_shipping: number; amount_tax: number }
  ui_mode: 'hosted'
  url: string | null
}

export type MockTaxCalculationLineItem = {
  id: string
  object: 'tax.calculation_line_item'
  amount: number
  amount_tax: number
  livemode: false
  metadata: Record<string, string> | null
  performance_location: null
  product: string | null
  quantity: number
  reference: string
  tax_behavior: 'exclusive'
  tax_code: string
}

export type MockTaxCalculation = {
  id: string
  object: 'tax.calculation'
  amount_total: number
  currency: string
  customer: null
  customer_details: {
    address: Address
    address_source: 'billing' | 'shipping' | null
    ip_address: null
    tax_ids: []
    taxability_override: 'none'
  }
  expires_at: number
  livemode: false
  ship_from_details: null
  shipping_cost: { amount: number; amount_tax: number; tax_behavior: 'exclusive'; tax_code: string } | null
  tax_amount_exclusive: number
  tax_amount_inclusive: 0
  tax_breakdown: {
    amount: number
    inclusive: false
    tax_rate_details: {
      country: 'US'
      flat_amount: null
      percentage_decimal: string
      rate_type: 'percentage'
      state: string
      tax_type: 'sales_tax'
    }
    taxability_reason: 'standard_rated' | 'not_subject_to_tax' | 'product_exempt'
    taxable_amount: number
  }[]
  tax_date: number
}

export type MockCoupon = {
  id: string
  object: 'coupon'
  amount_off: number | null
  created: number
  currency: string | null
  duration: 'once' | 'repeating' | 'forever'
  duration_in_months: number | null
  livemode: false
  max_redemptions: number | null
  metadata: Record<string, string>
  name: string | null
  percent_off: number | null
  redeem_by: number | null
  times_redeemed: number
  valid: boolean
}

export type MockShippingRate = {
  id: string
  object: 'shipping_rate'
  active: boolean
  created: number
  display_name: string
  fixed_amount: { amount: number; currency: string }
  livemode: false
  metadata: Record<string, string>
  type: 'fixed_amount'
}

export type MockPaymentIntent = {
  id: string
  object: 'payment_intent'
  amount: number
  amount_received: number
  created: number
  currency: string
  description: string | null
  latest_charge: string | null
  livemode: false
  metadata: Record<string, string>
  status: 'processing' | 'succeeded' | 'requires_payment_method'
}

export type MockCharge = {
  id: string
  object: 'charge'
  amount: number
  amount_captured: number
  amount_refunded: number
  captured: boolean
  created: number
  currency: string
  livemode: false
  /** Stripe does not promise to copy the PaymentIntent's metadata here; the mock leaves it empty. */
  metadata: Record<string, string>
  paid: boolean
  payment_intent: string | null
  /** True only once the whole amount has been refunded. */
  refunded: boolean
  status: 'pending' | 'succeeded' | 'failed'
}

export type MockRefund = {
  id: string
  object: 'refund'
  amount: number
  balance_transaction: string | null
  charge: string
  created: number
  currency: string
  metadata: Record<string, string>
  payment_intent: string | null
  reason: 'duplicate' | 'fraudulent' | 'requested_by_customer' | null
  receipt_number: null
  status: 'pending' | 'succeeded' | 'failed' | 'canceled' | 'requires_action'
}

/** The shopper's shipping details for `complete`; anything left out takes a default US address. */
export type MockShipping = {
  name?: string
  email?: string
  phone?: string | null
  line1?: string
  line2?: string | null
  city?: string
  state?: string
  postalCode?: string
  country?: string
}

export type MockEventType =
  | 'checkout.session.completed'
  | 'checkout.session.async_payment_succeeded'
  | 'checkout.session.async_payment_failed'
  | 'checkout.session.expired'
  | (string & {})

export type MockChargeEventType = 'charge.refunded' | 'charge.succeeded' | 'charge.updated' | (string & {})

type Answer = { status: number; body: unknown; headers?: Record<string, string>; save: boolean }
type Fault = { kind: 'status'; status: number; body: unknown; headers: Record<string, string> } | { kind: 'network'; processed: boolean }
type Saved = { method: string; path: string; fingerprint: string; status: number; body: unknown }

const DEFAULT_SHIPPING: Required<MockShipping> = {
  name: 'Jenny Rosen',
  email: 'jenny.rosen@example.com',
  phone: '+14155550123',
  line1: '510 Townsend St',
  line2: 'Apt 4',
  city: 'San Francisco',
  state: 'CA',
  postalCode: '94103',
  country: 'US',
}

/** Checkout Session create parameters the mock knows (a subset of Stripe's); anything else is refused. */
const SESSION_PARAMS = new Set([
  'mode',
  'success_url',
  'cancel_url',
  'line_items',
  'client_reference_id',
  'customer_email',
  'metadata',
  'expires_at',
  'shipping_address_collection',
  'shipping_options',
  'discounts',
  'payment_method_types',
  'locale',
  'submit_type',
  'billing_address_collection',
  'phone_number_collection',
  'payment_intent_data',
  'automatic_tax',
  'expand',
])
/** What Checkout passes on to the PaymentIntent it creates (Stripe's `payment_intent_data`). */
const PAYMENT_INTENT_DATA_PARAMS = new Set([
  'application_fee_amount',
  'capture_method',
  'description',
  'metadata',
  'on_behalf_of',
  'receipt_email',
  'setup_future_usage',
  'shipping',
  'statement_descriptor',
  'statement_descriptor_suffix',
  'transfer_data',
  'transfer_group',
])
const REFUND_PARAMS = new Set([
  'amount',
  'charge',
  'currency',
  'customer',
  'instructions_email',
  'metadata',
  'origin',
  'payment_intent',
  'reason',
  'refund_application_fee',
  'reverse_transfer',
  'expand',
])
const REFUND_REASONS = new Set(['duplicate', 'fraudulent', 'requested_by_customer'])
const LINE_ITEM_PARAMS = new Set(['quantity', 'price', 'price_data', 'adjustable_quantity', 'tax_rates'])
const PRICE_DATA_PARAMS = new Set(['currency', 'unit_amount', 'unit_amount_decimal', 'product', 'product_data', 'tax_behavior'])
const PRODUCT_DATA_PARAMS = new Set(['name', 'description', 'images', 'metadata', 'tax_code'])
const SHIPPING_OPTION_PARAMS = new Set(['shipping_rate', 'shipping_rate_data'])
const SHIPPING_RATE_DATA_PARAMS = new Set(['type', 'display_name', 'fixed_amount', 'delivery_estimate', 'metadata', 'tax_behavior', 'tax_code'])
const COUPON_PARAMS = new Set([
  'id',
  'amount_off',
  'percent_off',
  'currency',
  'duration',
  'duration_in_months',
  'max_redemptions',
  'name',
  'metadata',
  'redeem_by',
  'expand',
])
const CURRENCIES = new Set(['usd', 'eur', 'gbp', 'cad', 'aud'])
const TAX_CALCULATION_PARAMS = new Set(['currency', 'line_items', 'customer', 'customer_details', 'shipping_cost', 'ship_from_details', 'tax_date', 'expand'])
const TAX_CUSTOMER_DETAILS_PARAMS = new Set(['address', 'address_source', 'ip_address', 'tax_ids', 'taxability_override'])
const TAX_ADDRESS_PARAMS = new Set(['line1', 'line2', 'city', 'state', 'postal_code', 'country'])
const TAX_LINE_ITEM_PARAMS = new Set(['amount', 'quantity', 'reference', 'tax_behavior', 'tax_code', 'product', 'metadata', 'performance_location'])
const TAX_SHIPPING_COST_PARAMS = new Set(['amount', 'shipping_rate', 'tax_behavior', 'tax_code'])
/** Stripe Tax's "Nontaxable" product tax code: Stripe Tax charges nothing on it. */
export const MOCK_STRIPE_NONTAXABLE_TAX_CODE = 'txcd_00000000'
/** Stripe Tax's default code for a shipping charge. */
const SHIPPING_TAX_CODE = 'txcd_92010001'
/** What a Stripe tax code looks like: `txcd_` and eight digits. */
const TAX_CODE_PATTERN = /^txcd_\d{8}$/
/** US states, DC and territories, the tax locations Stripe Tax recognises in the US. */
const US_TAX_STATES = new Set(
  'AL AK AZ AR CA CO CT DE DC FL GA HI ID IL IN IA KS KY LA ME MD MA MI MN MS MO MT NE NV NH NJ NM NY NC ND OH OK OR PA RI SC SD TN TX UT VT VA WA WV WI WY PR VI GU AS MP'.split(
    ' ',
  ),
)
/** Stripe keeps a tax calculation 90 days. */
const TAX_CALCULATION_TTL_S = 90 * 24 * 60 * 60
/**
 * The mock's stand-in for Stripe Tax's engine: a combined (state and local) rate per destination state, in
 * thousandths of a percent, and the states where it taxes shipping. Deliberately not the store's own table
 * (app/catalogue/sales-tax.ts), so a test can tell the tax Stripe charged from the tax the store would have.
 */
export const MOCK_STRIPE_TAX_RATES: Record<string, number> = { CA: 8625, NY: 8875, TX: 8250, WA: 10_100, OR: 0, IL: 8875, FL: 7000 }
export const MOCK_STRIPE_TAX_DEFAULT_RATE = 6500
export const MOCK_STRIPE_TAXED_SHIPPING = new Set(['NY', 'TX', 'WA'])
/** Stripe Tax on a session's discounted line items and its shipping, for an address in `state`. */
export function mockStripeTax(state: string, discountedItemsCents: number, shippingCents: number) {
  const rate = MOCK_STRIPE_TAX_RATES[state] ?? MOCK_STRIPE_TAX_DEFAULT_RATE
  const items = Math.round((discountedItemsCents * rate) / 100_000)
  const shipping = MOCK_STRIPE_TAXED_SHIPPING.has(state) ? Math.round((shippingCents * rate) / 100_000) : 0
  return { items, shipping, total: items + shipping }
}
/**
 * Splits `total` over `amounts` in proportion (largest remainder), so the parts are whole cents and add up to
 * `total`: how a discount spreads over line items, and how one tax amount spreads over the lines it was charged on.
 */
function spread(total: number, amounts: number[]): number[] {
  const sum = amounts.reduce((a, b) => a + b, 0)
  if (sum === 0) return amounts.map(() => 0)
  const exact = amounts.map((amount) => (total * amount) / sum)
  const parts = exact.map(Math.floor)
  let left = total - parts.reduce((a, b) => a + b, 0)
  const order = exact.map((value, i) => [value - Math.floor(value), i] as const).sort((a, b) => b[0] - a[0] || a[1] - b[1])
  for (const [, i] of order) {
    if (left <= 0) break
    parts[i]!++
    left--
  }
  return parts
}
/** Stripe's minimum charge in USD. */
const MINIMUM_CHARGE_CENTS = 50

export function createStripeMock(options: StripeMockOptions = {}) {
  const now = options.now ?? Date.now
  const secretKey = options.secretKey ?? MOCK_STRIPE_SECRET_KEY
  const calls: StripeMockCall[] = []
  const sessions = new Map<string, MockCheckoutSession>()
  const coupons = new Map<string, MockCoupon>()
  const shippingRates = new Map<string, MockShippingRate>()
  const paymentIntents = new Map<string, MockPaymentIntent>()
  const charges = new Map<string, MockCharge>()
  const refunds = new Map<string, MockRefund>()
  const taxCalculations = new Map<string, MockTaxCalculation>()
  /** Each tax calculation's line items (Stripe lists them apart, or on the calculation when expanded). */
  const taxCalculationLines = new Map<string, MockTaxCalculationLineItem[]>()
  /** Each session's line totals and whether Stripe Tax taxes them (not under the Nontaxable code), for `complete`. */
  const sessionTaxLines = new Map<string, { amount: number; taxable: boolean }[]>()
  /** Each session's `payment_intent_data` (Stripe keeps it off the session object and applies it to its PaymentIntent). */
  const intentData = new Map<string, { metadata: Record<string, string>; description: string | null }>()
  const idempotency = new Map<string, Saved>()
  const faults: Fault[] = []
  let sequence = 0
  const seconds = () => Math.floor(now() / 1000)

  /** Stripe-like ids: a prefix and a long base62 tail, deterministic per mock. */
  function nextId(prefix: string, length = 24) {
    const digest = createHash('sha256').update(`${prefix}:${++sequence}`).digest()
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789'
    let tail = ''
    for (let i = 0; i < length; i++) tail += alphabet[digest[i % digest.length]! % alphabet.length]
    return `${prefix}${tail}`
  }

  async function handle(input: RequestInfo | URL, init?: RequestInit): Promise<Response> {
    const request = new Request(input, init)
    if (request.signal.aborted) throw request.signal.reason
    const url = new URL(request.url)
    const rawBody = request.method === 'GET' || request.method === 'HEAD' ? '' : await request.text()
    const isForm = /^application\/x-www-form-urlencoded\b/i.test(request.headers.get('content-type') ?? '')
    const call: StripeMockCall = {
      method: request.method,
      path: url.pathname,
      query: parseForm(url.search.slice(1)),
      idempotencyKey: request.headers.get('idempotency-key'),
      headers: Object.fromEntries(request.headers),
      rawBody,
      // Stripe reads v1 parameters from a form body only; anything else reaches it as no parameters.
      body: isForm ? parseForm(rawBody) : {},
      status: 0,
      replayed: false,
    }
    calls.push(call)

    const answer = route(request, url, call)
    if (answer === 'network') throw new MockNetworkError()
    call.status = answer.status
    return new Response(JSON.stringify(answer.body, null, 2), {
      status: answer.status,
      headers: {
        'Content-Type': 'application/json',
        'Request-Id': `req_${nextId('', 14)}`,
        'Stripe-Version': request.headers.get('stripe-version') ?? MOCK_STRIPE_API_VERSION,
        ...(call.idempotencyKey && request.method === 'POST' ? { 'Idempotency-Key': call.idempotencyKey } : {}),
        ...answer.headers,
      },
    })
  }

  /** Serves `handle` over HTTP on 127.0.0.1 at a random port, where the SDK's host/port/protocol options can reach it. */
  async function listen(): Promise<StripeMockServer> {
    const server = createServer((req, res) => {
      const chunks: Buffer[] = []
      req.on('data', (chunk: Buffer) => chunks.push(chunk))
      req.on('end', () => {
        const method = req.method ?? 'GET'
        const body = method === 'GET' || method === 'HEAD' ? undefined : Buffer.concat(chunks).toString('utf8')
        // The double stands in for api.stripe.com, whatever address the client used to reach it.
        handle(`${API_ORIGIN}${req.url ?? '/'}`, { method, headers: requestHeaders(req.headers), body })
          .then(async (response) => {
            res.writeHead(response.status, Object.fromEntries(response.headers))
            res.end(await response.text())
          })
          .catch((error: unknown) => {
            // An injected network failure: the connection drops with no answer, as when Stripe cannot be reached.
            if (error instanceof MockNetworkError) return void req.socket.destroy()
            res.writeHead(500, { 'Content-Type': 'application/json' })
            res.end(JSON.stringify({ error: { type: 'api_error', message: `Stripe mock failure: ${String(error)}` } }))
          })
      })
    })
    // The SDK keeps its connections alive between calls. Node closes an idle one after 5 s by default, and a call
    // the SDK starts on it as it closes fails with ECONNRESET before reaching the double: on a busy machine that
    // spends one of the SDK's retries where a test counts them. Idle connections stay open here; close() ends them.
    server.keepAliveTimeout = 10 * 60_000
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject)
      server.listen(0, '127.0.0.1', () => resolve())
    })
    const { port } = server.address() as AddressInfo
    let closed: Promise<void> | null = null
    return {
      endpoint: { host: '127.0.0.1', port, protocol: 'http' },
      url: `http://127.0.0.1:${port}`,
      close: () =>
        (closed ??= new Promise<void>((resolve, reject) => {
          server.close((error) => (error ? reject(error) : resolve()))
          // The SDK keeps connections alive; without this, close would wait for them to time out.
          server.closeAllConnections()
        })),
    }
  }

  function route(request: Request, url: URL, call: StripeMockCall): Answer | 'network' {
    if (url.origin !== API_ORIGIN) return notFound(`Unrecognized request URL (${request.method}: ${url.pathname}).`)
    const auth = authenticate(request.headers.get('authorization'))
    if (auth) return auth
    const version = request.headers.get('stripe-version')
    if (version !== null && !/^\d{4}-\d{2}-\d{2}(\.[a-z]+)?$/.test(version)) return invalidRequest(`Invalid Stripe API version: ${version}`, { save: false })

    const fault = faults.shift()
    if (fault?.kind === 'status') return { status: fault.status, body: fault.body, headers: fault.headers, save: false }
    if (fault?.kind === 'network' && !fault.processed) return 'network'

    const key = request.method === 'POST' ? call.idempotencyKey : null
    if (key !== null && key.length > 255)
      return invalidRequest('Idempotency keys may be at most 255 characters long.', { param: 'Idempotency-Key', save: false })
    const fingerprint = stableJson(call.body)
    if (key !== null) {
      const saved = idempotency.get(key)
      if (saved) {
        if (saved.method !== request.method || saved.path !== url.pathname || saved.fingerprint !== fingerprint)
          return {
            status: 400,
            body: {
              error: {
                type: 'idempotency_error',
                message: `Keys for idempotent requests can only be used with the same parameters they were first used with. Try using a key other than '${key}' if you meant to execute a different request.`,
              },
            },
            save: false,
          }
        call.replayed = true
        if (fault?.kind === 'network') return 'network'
        return { status: saved.status, body: saved.body, headers: { 'Idempotent-Replayed': 'true' }, save: false }
      }
    }

    const answer = dispatch(request.method, url, call)
    if (key !== null && answer.save) idempotency.set(key, { method: request.method, path: url.pathname, fingerprint, status: answer.status, body: answer.body })
    // A processed network fault: Stripe did the work (and saved it) but the answer never arrived.
    return fault?.kind === 'network' ? 'network' : answer
  }

  function authenticate(header: string | null): Answer | null {
    let given: string | null = null
    if (header?.startsWith('Bearer ')) given = header.slice(7).trim()
    else if (header?.startsWith('Basic ')) given = Buffer.from(header.slice(6), 'base64').toString('utf8').replace(/:.*$/, '')
    if (given === secretKey) return null
    const message =
      given === null || given === ''
        ? "You did not provide an API key. You need to provide your API key in the Authorization header, using Bearer auth (e.g. 'Authorization: Bearer YOUR_SECRET_KEY'). See https://stripe.com/docs/api#authentication for details, or we can help at https://support.stripe.com/."
        : `Invalid API Key provided: ${maskKey(given)}`
    return { status: 401, body: { error: { type: 'invalid_request_error', message } }, save: false }
  }

  function dispatch(method: string, url: URL, call: StripeMockCall): Answer {
    const path = url.pathname
    if (path === '/v1/checkout/sessions' && method === 'POST') return createSession(call.body)
    if (path === '/v1/coupons' && method === 'POST') return createCoupon(call.body)
    if (path === '/v1/refunds' && method === 'POST') return createRefund(call.body)
    if (path === '/v1/tax/calculations' && method === 'POST') return createTaxCalculation(call.body)
    const calculation = /^\/v1\/tax\/calculations\/([^/]+)$/.exec(path)
    if (calculation && method === 'GET') return retrieveTaxCalculation(decodeURIComponent(calculation[1]!), call.query)
    const intent = /^\/v1\/payment_intents\/([^/]+)$/.exec(path)
    if (intent && method === 'GET') return retrievePaymentIntent(decodeURIComponent(intent[1]!), call.query)
    const expire = /^\/v1\/checkout\/sessions\/([^/]+)\/expire$/.exec(path)
    if (expire && method === 'POST') return expireSession(decodeURIComponent(expire[1]!), call.body)
    const one = /^\/v1\/checkout\/sessions\/([^/]+)$/.exec(path)
    if (one && method === 'GET') return retrieveSession(decodeURIComponent(one[1]!), call.query)
    return notFound(`Unrecognized request URL (${method}: ${path}). Please see https://stripe.com/docs or we can help at https://support.stripe.com/.`)
  }

  // -------------------------------------------------------------------------------------------
  // Checkout Sessions

  function createSession(body: Record<string, unknown>): Answer {
    const unknown = unknownParam(body, SESSION_PARAMS)
    if (unknown) return unknown
    if (body.mode === undefined) return missing('mode')
    if (!['payment', 'setup', 'subscription'].includes(body.mode as string))
      return invalidRequest('Invalid mode: must be one of payment, setup, or subscription', { param: 'mode' })
    if (body.mode !== 'payment') return invalidRequest(`The Stripe mock implements mode=payment only, not ${String(body.mode)}.`, { param: 'mode' })

    if (body.success_url === undefined) return missing('success_url')
    for (const param of ['success_url', 'cancel_url'])
      if (body[param] !== undefined && !isUrl(body[param])) return invalidRequest('Not a valid URL', { param, code: 'url_invalid' })

    const lineItems = body.line_items
    if (lineItems === undefined || (Array.isArray(lineItems) && lineItems.length === 0)) return missing('line_items')
    if (!Array.isArray(lineItems)) return invalidArray('line_items')
    let automaticTax = false
    if (body.automatic_tax !== undefined) {
      const tax = body.automatic_tax
      if (!isRecord(tax) || tax.enabled === undefined) return missing('automatic_tax[enabled]')
      if (tax.enabled !== 'true' && tax.enabled !== 'false')
        return invalidRequest('Invalid boolean: must be true or false', { param: 'automatic_tax[enabled]' })
      automaticTax = tax.enabled === 'true'
    }
    let currency: string | null = null
    let subtotal = 0
    const taxLines: { amount: number; taxable: boolean }[] = []
    for (const [i, raw] of lineItems.entries()) {
      const at = `line_items[${i}]`
      if (!isRecord(raw)) return invalidRequest(`Invalid object`, { param: at })
      const bad = unknownParam(raw, LINE_ITEM_PARAMS, at)
      if (bad) return bad
      if (raw.price !== undefined) return invalidRequest(`No such price: '${String(raw.price)}'`, { param: `${at}[price]`, code: 'resource_missing' })
      if (raw.quantity === undefined) return missing(`${at}[quantity]`)
      const quantity = integer(raw.quantity)
      if (quantity === null || quantity < 1) return invalidInteger(`${at}[quantity]`, raw.quantity)
      const priceData = raw.price_data
      if (priceData === undefined) return invalidRequest(`You must specify either \`price\` or \`price_data\` in ${at}.`, { param: at })
      if (!isRecord(priceData)) return invalidRequest('Invalid object', { param: `${at}[price_data]` })
      const badPrice = unknownParam(priceData, PRICE_DATA_PARAMS, `${at}[price_data]`)
      if (badPrice) return badPrice
      if (priceData.currency === undefined) return missing(`${at}[price_data][currency]`)
      const lineCurrency = String(priceData.currency).toLowerCase()
      if (!CURRENCIES.has(lineCurrency)) return invalidRequest(`Invalid currency: ${String(priceData.currency)}.`, { param: `${at}[price_data][currency]` })
      if (currency !== null && lineCurrency !== currency)
        return invalidRequest('All line items must use the same currency.', { param: `${at}[price_data][currency]` })
      currency = lineCurrency
      if (priceData.unit_amount === undefined) return missing(`${at}[price_data][unit_amount]`)
      const unitAmount = integer(priceData.unit_amount)
      if (unitAmount === null || unitAmount < 0)
        return invalidRequest(`Invalid non-negative integer: ${String(priceData.unit_amount)}`, {
          param: `${at}[price_data][unit_amount]`,
        })
      // Stripe Tax needs to know whether a price includes tax; this account sets no default, so each price says.
      if (automaticTax && priceData.tax_behavior === undefined)
        return invalidRequest('Automatic tax calculation requires a tax_behavior on every price; this price has none.', {
          param: `${at}[price_data][tax_behavior]`,
        })
      if (priceData.product === undefined && priceData.product_data === undefined)
        return invalidRequest(`You must specify either \`product\` or \`product_data\` in ${at}[price_data].`, {
          param: `${at}[price_data]`,
        })
      const productData = priceData.product_data
      if (productData !== undefined) {
        if (!isRecord(productData)) return invalidRequest('Invalid object', { param: `${at}[price_data][product_data]` })
        const badProduct = unknownParam(productData, PRODUCT_DATA_PARAMS, `${at}[price_data][product_data]`)
        if (badProduct) return badProduct
        if (typeof productData.name !== 'string' || productData.name === '') return missing(`${at}[price_data][product_data][name]`)
        if (productData.tax_code !== undefined && !TAX_CODE_PATTERN.test(String(productData.tax_code)))
          return invalidRequest(`No such tax code: '${String(productData.tax_code)}'`, {
            param: `${at}[price_data][product_data][tax_code]`,
            code: 'resource_missing',
          })
        if (productData.images !== undefined) {
          if (!Array.isArray(productData.images)) return invalidArray(`${at}[price_data][product_data][images]`)
          if (productData.images.length > 8) return invalidRequest('You may provide at most 8 images.', { param: `${at}[price_data][product_data][images]` })
          for (const [j, image] of productData.images.entries())
            if (!isUrl(image))
              return invalidRequest('Not a valid URL', {
                param: `${at}[price_data][product_data][images][${j}]`,
                code: 'url_invalid',
              })
        }
      }
      subtotal += unitAmount * quantity
      const taxCode = isRecord(productData) ? productData.tax_code : undefined
      taxLines.push({ amount: unitAmount * quantity, taxable: taxCode !== MOCK_STRIPE_NONTAXABLE_TAX_CODE })
    }
    currency ??= 'usd'

    if (body.client_reference_id !== undefined && String(body.client_reference_id).length > 200)
      return invalidRequest('Invalid string: must be at most 200 characters', { param: 'client_reference_id', code: 'string_length_exceeded' })
    if (body.customer_email !== undefined && !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(String(body.customer_email)))
      return invalidRequest(`Invalid email address: ${String(body.customer_email)}`, { param: 'customer_email', code: 'email_invalid' })
    const checkedMetadata = validMetadata(body.metadata, 'metadata')
    if ('refusal' in checkedMetadata) return checkedMetadata.refusal
    const { metadata } = checkedMetadata

    let intentMetadata: Record<string, string> = {}
    let intentDescription: string | null = null
    if (body.payment_intent_data !== undefined) {
      const data = body.payment_intent_data
      if (!isRecord(data)) return invalidRequest('Invalid object', { param: 'payment_intent_data' })
      const bad = unknownParam(data, PAYMENT_INTENT_DATA_PARAMS, 'payment_intent_data')
      if (bad) return bad
      const checked = validMetadata(data.metadata, 'payment_intent_data[metadata]')
      if ('refusal' in checked) return checked.refusal
      intentMetadata = checked.metadata
      if (data.description !== undefined) intentDescription = String(data.description)
    }

    const created = seconds()
    let expiresAt = created + 24 * 60 * 60
    if (body.expires_at !== undefined) {
      const value = integer(body.expires_at)
      if (value === null) return invalidInteger('expires_at', body.expires_at)
      if (value < created + 30 * 60)
        return invalidRequest('The `expires_at` timestamp must be at least 30 minutes from Checkout Session creation.', {
          param: 'expires_at',
        })
      if (value > created + 24 * 60 * 60)
        return invalidRequest('The `expires_at` timestamp must be less than 24 hours from Checkout Session creation.', {
          param: 'expires_at',
        })
      expiresAt = value
    }

    let shippingCollection: MockCheckoutSession['shipping_address_collection'] = null
    if (body.shipping_address_collection !== undefined) {
      const collection = body.shipping_address_collection
      if (!isRecord(collection) || collection.allowed_countries === undefined) return missing('shipping_address_collection[allowed_countries]')
      if (!Array.isArray(collection.allowed_countries) || collection.allowed_countries.length === 0)
        return invalidArray('shipping_address_collection[allowed_countries]')
      for (const [i, country] of collection.allowed_countries.entries())
        if (typeof country !== 'string' || !/^[A-Z]{2}$/.test(country))
          return invalidRequest(`Invalid shipping_address_collection[allowed_countries][${i}]: must be a two-letter country code`, {
            param: `shipping_address_collection[allowed_countries][${i}]`,
          })
      shippingCollection = { allowed_countries: collection.allowed_countries as string[] }
    }

    const rates: MockShippingRate[] = []
    if (body.shipping_options !== undefined) {
      if (!Array.isArray(body.shipping_options)) return invalidArray('shipping_options')
      if (body.shipping_options.length > 5) return invalidRequest('You may provide at most 5 shipping options.', { param: 'shipping_options' })
      for (const [i, option] of body.shipping_options.entries()) {
        const at = `shipping_options[${i}]`
        if (!isRecord(option)) return invalidRequest('Invalid object', { param: at })
        const bad = unknownParam(option, SHIPPING_OPTION_PARAMS, at)
        if (bad) return bad
        if (option.shipping_rate !== undefined)
          return invalidRequest(`No such shipping rate: '${String(option.shipping_rate)}'`, { param: `${at}[shipping_rate]`, code: 'resource_missing' })
        const data = option.shipping_rate_data
        if (!isRecord(data)) return missing(`${at}[shipping_rate_data]`)
        const badData = unknownParam(data, SHIPPING_RATE_DATA_PARAMS, `${at}[shipping_rate_data]`)
        if (badData) return badData
        if (typeof data.display_name !== 'string' || data.display_name === '') return missing(`${at}[shipping_rate_data][display_name]`)
        if (automaticTax && data.tax_behavior === undefined)
          return invalidRequest('Automatic tax calculation requires a tax_behavior on every shipping rate; this one has none.', {
            param: `${at}[shipping_rate_data][tax_behavior]`,
          })
        if (data.type !== undefined && data.type !== 'fixed_amount')
          return invalidRequest('Invalid type: must be fixed_amount', { param: `${at}[shipping_rate_data][type]` })
        const fixed = data.fixed_amount
        if (!isRecord(fixed)) return missing(`${at}[shipping_rate_data][fixed_amount]`)
        if (fixed.amount === undefined) return missing(`${at}[shipping_rate_data][fixed_amount][amount]`)
        const amount = integer(fixed.amount)
        if (amount === null || amount < 0)
          return invalidRequest(`Invalid non-negative integer: ${String(fixed.amount)}`, {
            param: `${at}[shipping_rate_data][fixed_amount][amount]`,
          })
        if (fixed.currency === undefined) return missing(`${at}[shipping_rate_data][fixed_amount][currency]`)
        if (String(fixed.currency).toLowerCase() !== currency)
          return invalidRequest(`The shipping rate currency must match the Checkout Session currency (${currency}).`, {
            param: `${at}[shipping_rate_data][fixed_amount][currency]`,
          })
        rates.push({
          id: nextId('shr_'),
          object: 'shipping_rate',
          active: true,
          created,
          display_name: data.display_name,
          fixed_amount: { amount, currency },
          livemode: false,
          metadata: {},
          type: 'fixed_amount',
        })
      }
    }

    let coupon: MockCoupon | null = null
    if (body.discounts !== undefined) {
      if (!Array.isArray(body.discounts)) return invalidArray('discounts')
      if (body.discounts.length > 1) return invalidRequest('You may only specify one discount.', { param: 'discounts' })
      const discount = body.discounts[0]
      if (discount !== undefined) {
        if (!isRecord(discount) || discount.coupon === undefined) return missing('discounts[0][coupon]')
        coupon = coupons.get(String(discount.coupon)) ?? null
        if (!coupon) return invalidRequest(`No such coupon: '${String(discount.coupon)}'`, { param: 'discounts[0][coupon]', code: 'resource_missing' })
        if (!coupon.valid) return invalidRequest(`Coupon ${coupon.id} is no longer valid.`, { param: 'discounts[0][coupon]', code: 'coupon_expired' })
        if (coupon.amount_off !== null && coupon.currency !== currency)
          return invalidRequest(`The coupon currency (${coupon.currency}) must match the Checkout Session currency (${currency}).`, {
            param: 'discounts[0][coupon]',
          })
      }
    }

    // Stripe pre-selects the first shipping option; a coupon discounts the line items, never shipping.
    const shipping = rates[0]?.fixed_amount.amount ?? 0
    const discount = coupon ? Math.min(subtotal, coupon.amount_off ?? Math.round((subtotal * (coupon.percent_off ?? 0)) / 100)) : 0
    const total = subtotal - discount + shipping
    if (total > 0 && total < MINIMUM_CHARGE_CENTS)
      return invalidRequest(`The Checkout Session's total amount due must add up to at least $0.50 ${currency}`, {
        code: 'amount_too_small',
      })

    for (const rate of rates) shippingRates.set(rate.id, rate)
    const id = nextId('cs_test_a1', 58)
    const session: MockCheckoutSession = {
      id,
      object: 'checkout.session',
      adaptive_pricing: { enabled: false },
      after_expiration: null,
      allow_promotion_codes: null,
      amount_subtotal: subtotal,
      amount_total: total,
      // Stripe Tax cannot compute until Checkout has the address; `complete` adds the tax.
      automatic_tax: { enabled: automaticTax, liability: null, status: automaticTax ? 'requires_location_inputs' : null },
      billing_address_collection: null,
      cancel_url: (body.cancel_url as string | undefined) ?? null,
      client_reference_id: (body.client_reference_id as string | undefined) ?? null,
      collected_information: null,
      consent: null,
      consent_collection: null,
      created,
      currency,
      customer: null,
      customer_creation: 'if_required',
      customer_details: null,
      customer_email: (body.customer_email as string | undefined) ?? null,
      discounts: coupon ? [{ coupon: coupon.id, promotion_code: null }] : [],
      expires_at: expiresAt,
      invoice: null,
      livemode: false,
      locale: null,
      metadata,
      mode: 'payment',
      payment_intent: null,
      payment_method_types: ['card'],
      payment_status: total === 0 ? 'no_payment_required' : 'unpaid',
      shipping_address_collection: shippingCollection,
      shipping_cost: rates[0] ? { amount_subtotal: shipping, amount_tax: 0, amount_total: shipping, shipping_rate: rates[0].id } : null,
      shipping_options: rates.map((rate) => ({ shipping_amount: rate.fixed_amount.amount, shipping_rate: rate.id })),
      status: 'open',
      submit_type: null,
      success_url: body.success_url as string,
      total_details: { amount_discount: discount, amount_shipping: shipping, amount_tax: 0 },
      ui_mode: 'hosted',
      url: `https://checkout.stripe.com/c/pay/${id}#${Buffer.from(`fid:${id}`).toString('base64url')}`,
    }
    sessions.set(id, session)
    intentData.set(id, { metadata: intentMetadata, description: intentDescription })
    sessionTaxLines.set(id, taxLines)
    return { status: 200, body: structuredClone(session), save: true }
  }

  function retrieveSession(id: string, query: Record<string, unknown>): Answer {
    const session = sessions.get(id)
    if (!session) return noSuchSession(id)
    refresh(session)
    const expand = query.expand === undefined ? [] : Array.isArray(query.expand) ? query.expand : [query.expand]
    const view: Record<string, unknown> = structuredClone(session)
    for (const field of expand) {
      if (field !== 'payment_intent') return invalidRequest(`This property cannot be expanded (${String(field)}).`, { param: 'expand', save: false })
      view.payment_intent = session.payment_intent ? structuredClone(paymentIntents.get(session.payment_intent)) : null
    }
    return { status: 200, body: view, save: false }
  }

  function expireSession(id: string, body: Record<string, unknown>): Answer {
    const unknown = unknownParam(body, new Set(['expand']))
    if (unknown) return unknown
    const session = sessions.get(id)
    if (!session) return noSuchSession(id)
    refresh(session)
    // The check runs inside the endpoint, so Stripe saves (and replays) this refusal under the key.
    if (session.status !== 'open')
      return invalidRequest(`Only Checkout Sessions with a status in ["open"] can be expired. This Checkout Session has a status of \`${session.status}\`.`, {
        save: true,
      })
    markExpired(session)
    return { status: 200, body: structuredClone(session), save: true }
  }

  /** Stripe expires an open session on its own once `expires_at` passes. */
  function refresh(session: MockCheckoutSession) {
    if (session.status === 'open' && seconds() >= session.expires_at) markExpired(session)
  }

  function markExpired(session: MockCheckoutSession) {
    session.status = 'expired'
    session.url = null
  }

  function noSuchSession(id: string): Answer {
    return {
      status: 404,
      body: {
        error: {
          type: 'invalid_request_error',
          code: 'resource_missing',
          param: 'session',
          message: `No such checkout.session: '${id}'`,
          doc_url: 'https://stripe.com/docs/error-codes/resource-missing',
        },
      },
      save: false,
    }
  }

  // -------------------------------------------------------------------------------------------
  // PaymentIntents and refunds

  function retrievePaymentIntent(id: string, query: Record<string, unknown>): Answer {
    const intent = paymentIntents.get(id)
    if (!intent) return noSuch('payment_intent', id, 'intent')
    const expand = query.expand === undefined ? [] : Array.isArray(query.expand) ? query.expand : [query.expand]
    const view: Record<string, unknown> = structuredClone(intent)
    for (const field of expand) {
      if (field !== 'latest_charge') return invalidRequest(`This property cannot be expanded (${String(field)}).`, { param: 'expand', save: false })
      view.latest_charge = intent.latest_charge ? structuredClone(charges.get(intent.latest_charge)) : null
    }
    return { status: 200, body: view, save: false }
  }

  function createRefund(body: Record<string, unknown>): Answer {
    const unknown = unknownParam(body, REFUND_PARAMS)
    if (unknown) return unknown
    if (body.charge === undefined && body.payment_intent === undefined)
      return invalidRequest('One of the following params should be provided for this request: payment_intent or charge.', {
        code: 'parameter_missing',
      })
    if (body.charge !== undefined && body.payment_intent !== undefined)
      return invalidRequest('Only one of the following params should be provided for this request: payment_intent or charge.', {
        param: 'payment_intent',
      })
    let amount: number | null = null
    if (body.amount !== undefined) {
      amount = integer(body.amount)
      if (amount === null || amount < 1) return invalidRequest(`Invalid positive integer: ${String(body.amount)}`, { param: 'amount' })
    }
    if (body.reason !== undefined && !REFUND_REASONS.has(String(body.reason)))
      return invalidRequest('Invalid reason: must be one of duplicate, fraudulent, or requested_by_customer', { param: 'reason' })
    const checkedMetadata = validMetadata(body.metadata, 'metadata')
    if ('refusal' in checkedMetadata) return checkedMetadata.refusal

    let charge: MockCharge | undefined
    if (body.payment_intent !== undefined) {
      const intent = paymentIntents.get(String(body.payment_intent))
      if (!intent) return noSuch('payment_intent', String(body.payment_intent), 'payment_intent')
      charge = intent.latest_charge ? charges.get(intent.latest_charge) : undefined
      // Checked inside the endpoint from here on, so Stripe saves (and replays) these refusals under the key.
      if (!charge || charge.status !== 'succeeded')
        return invalidRequest(`This PaymentIntent (${intent.id}) does not have a successful charge to refund.`, {
          param: 'payment_intent',
          save: true,
        })
    } else {
      charge = charges.get(String(body.charge))
      if (!charge) return noSuch('charge', String(body.charge), 'charge')
      if (charge.status !== 'succeeded') return invalidRequest(`Charge ${charge.id} has not succeeded and cannot be refunded.`, { param: 'charge', save: true })
    }
    if (charge.refunded) return invalidRequest(`Charge ${charge.id} has already been refunded.`, { code: 'charge_already_refunded', save: true })
    const left = charge.amount - charge.amount_refunded
    const refundAmount = amount ?? left
    if (refundAmount > left)
      return invalidRequest(`Refund amount ($${(refundAmount / 100).toFixed(2)}) is greater than unrefunded amount on charge ($${(left / 100).toFixed(2)})`, {
        param: 'amount',
        save: true,
      })

    charge.amount_refunded += refundAmount
    charge.refunded = charge.amount_refunded === charge.amount
    const refund: MockRefund = {
      id: nextId('re_3'),
      object: 'refund',
      amount: refundAmount,
      balance_transaction: nextId('txn_3'),
      charge: charge.id,
      created: seconds(),
      currency: charge.currency,
      metadata: checkedMetadata.metadata,
      payment_intent: charge.payment_intent,
      reason: body.reason !== undefined ? (String(body.reason) as MockRefund['reason']) : null,
      receipt_number: null,
      status: 'succeeded',
    }
    refunds.set(refund.id, refund)
    return { status: 200, body: structuredClone(refund), save: true }
  }

  /** Stripe's 404 for an id it does not know, e.g. `No such payment_intent: 'pi_…'`. */
  function noSuch(object: string, id: string, param: string): Answer {
    return {
      status: 404,
      body: {
        error: {
          type: 'invalid_request_error',
          code: 'resource_missing',
          param,
          message: `No such ${object}: '${id}'`,
          doc_url: 'https://stripe.com/docs/error-codes/resource-missing',
        },
      },
      save: false,
    }
  }

  // -------------------------------------------------------------------------------------------
  // Tax Calculations

  /**
   * Stripe Tax on goods shipped to `customer_details[address]`: the same engine as Checkout's automatic tax, so a
   * calculation and a session taxing the same goods at the same state agree. The mock implements exclusive
   * amounts (Stripe's default) and US addresses only.
   */
  function createTaxCalculation(body: Record<string, unknown>): Answer {
    const unknown = unknownParam(body, TAX_CALCULATION_PARAMS)
    if (unknown) return unknown
    if (body.currency === undefined) return missing('currency')
    const currency = String(body.currency).toLowerCase()
    if (!CURRENCIES.has(currency)) return invalidRequest(`Invalid currency: ${String(body.currency)}.`, { param: 'currency' })
    if (body.customer !== undefined) return invalidRequest(`No such customer: '${String(body.customer)}'`, { param: 'customer', code: 'resource_missing' })

    const lineItems = body.line_items
    if (lineItems === undefined || (Array.isArray(lineItems) && lineItems.length === 0)) return missing('line_items')
    if (!Array.isArray(lineItems)) return invalidArray('line_items')
    const lines: { amount: number; quantity: number; reference: string; taxCode: string; metadata: Record<string, string> | null }[] = []
    const references = new Set<string>()
    for (const [i, raw] of lineItems.entries()) {
      const at = `line_items[${i}]`
      if (!isRecord(raw)) return invalidRequest('Invalid object', { param: at })
      const bad = unknownParam(raw, TAX_LINE_ITEM_PARAMS, at)
      if (bad) return bad
      if (raw.product !== undefined) return invalidRequest(`No such product: '${String(raw.product)}'`, { param: `${at}[product]`, code: 'resource_missing' })
      if (raw.amount === undefined) return missing(`${at}[amount]`)
      const amount = integer(raw.amount)
      if (amount === null || amount < 0) return invalidRequest(`Invalid non-negative integer: ${String(raw.amount)}`, { param: `${at}[amount]` })
      let quantity = 1
      if (raw.quantity !== undefined) {
        const value = integer(raw.quantity)
        if (value === null || value < 1) return invalidRequest(`Invalid positive integer: ${String(raw.quantity)}`, { param: `${at}[quantity]` })
        quantity = value
      }
      const reference = raw.reference === undefined ? `L${i}` : String(raw.reference)
      if (reference.length > 500)
        return invalidRequest('Invalid string: must be at most 500 characters', { param: `${at}[reference]`, code: 'string_length_exceeded' })
      if (references.has(reference))
        return invalidRequest(`The line item reference '${reference}' is used more than once; references must be unique within a calculation.`, {
          param: `${at}[reference]`,
        })
      references.add(reference)
      const refusal = exclusiveOnly(raw.tax_behavior, `${at}[tax_behavior]`) ?? taxCodeRefusal(raw.tax_code, `${at}[tax_code]`)
      if (refusal) return refusal
      const checked = validMetadata(raw.metadata, `${at}[metadata]`)
      if ('refusal' in checked) return checked.refusal
      const taxCode = raw.tax_code === undefined ? 'txcd_99999999' : String(raw.tax_code)
      lines.push({ amount, quantity, reference, taxCode, metadata: raw.metadata === undefined ? null : checked.metadata })
    }

    const details = body.customer_details
    if (details === undefined) return missing('customer_details')
    if (!isRecord(details)) return invalidRequest('Invalid object', { param: 'customer_details' })
    const badDetails = unknownParam(details, TAX_CUSTOMER_DETAILS_PARAMS, 'customer_details')
    if (badDetails) return badDetails
    if (details.address === undefined) return missing('customer_details[address]')
    const raw = details.address
    if (!isRecord(raw)) return invalidRequest('Invalid object', { param: 'customer_details[address]' })
    const badAddress = unknownParam(raw, TAX_ADDRESS_PARAMS, 'customer_details[address]')
    if (badAddress) return badAddress
    if (raw.country === undefined || raw.country === '') return missing('customer_details[address][country]')
    if (details.address_source !== undefined && details.address_source !== 'billing' && details.address_source !== 'shipping')
      return invalidRequest('Invalid customer_details[address_source]: must be one of billing or shipping', { param: 'customer_details[address_source]' })
    const text = (value: unknown) => (value === undefined || value === '' ? null : String(value))
    const address: Address = {
      city: text(raw.city),
      country: String(raw.country).toUpperCase(),
      line1: text(raw.line1),
      line2: text(raw.line2),
      postal_code: text(raw.postal_code),
      state: text(raw.state)?.toUpperCase() ?? null,
    }
    if (address.country !== 'US')
      return invalidRequest(`The Stripe mock implements US addresses only, not ${address.country}.`, { param: 'customer_details[address][country]' })
    // Stripe Tax needs a recognisable US location: a state it knows and a 5-digit ZIP code.
    if (address.state === null || !US_TAX_STATES.has(address.state) || !/^\d{5}(-\d{4})?$/.test(address.postal_code ?? ''))
      return invalidRequest("The customer's address isn't a valid tax location: a US address needs a valid state and a 5-digit postal code.", {
        param: 'customer_details[address]',
        code: 'customer_tax_location_invalid',
      })

    let shipping: { amount: number; taxCode: string } | null = null
    if (body.shipping_cost !== undefined) {
      const cost = body.shipping_cost
      if (!isRecord(cost)) return invalidRequest('Invalid object', { param: 'shipping_cost' })
      const bad = unknownParam(cost, TAX_SHIPPING_COST_PARAMS, 'shipping_cost')
      if (bad) return bad
      if (cost.shipping_rate !== undefined)
        return invalidRequest(`No such shipping rate: '${String(cost.shipping_rate)}'`, { param: 'shipping_cost[shipping_rate]', code: 'resource_missing' })
      if (cost.amount === undefined) return missing('shipping_cost[amount]')
      const amount = integer(cost.amount)
      if (amount === null || amount < 0) return invalidRequest(`Invalid non-negative integer: ${String(cost.amount)}`, { param: 'shipping_cost[amount]' })
      const refusal = exclusiveOnly(cost.tax_behavior, 'shipping_cost[tax_behavior]') ?? taxCodeRefusal(cost.tax_code, 'shipping_cost[tax_code]')
      if (refusal) return refusal
      shipping = { amount, taxCode: cost.tax_code === undefined ? SHIPPING_TAX_CODE : String(cost.tax_code) }
    }
    const expand = body.expand === undefined ? [] : Array.isArray(body.expand) ? body.expand : [body.expand]
    for (const field of expand) if (field !== 'line_items') return invalidRequest(`This property cannot be expanded (${String(field)}).`, { param: 'expand' })

    // The engine Checkout uses: one rounding over the taxable goods, then spread back over the lines it came from.
    const state = address.state
    const taxable = lines.map((line) => (line.taxCode === MOCK_STRIPE_NONTAXABLE_TAX_CODE ? 0 : line.amount))
    const shippingTaxable = shipping && shipping.taxCode !== MOCK_STRIPE_NONTAXABLE_TAX_CODE ? shipping.amount : 0
    const tax = mockStripeTax(
      state,
      taxable.reduce((a, b) => a + b, 0),
      shippingTaxable,
    )
    const lineTaxes = spread(tax.items, taxable)
    const rate = MOCK_STRIPE_TAX_RATES[state] ?? MOCK_STRIPE_TAX_DEFAULT_RATE
    const goods = lines.reduce((sum, line) => sum + line.amount, 0)
    const created = seconds()
    const id = nextId('taxcalc_')
    const items: MockTaxCalculationLineItem[] = lines.map((line, i) => ({
      id: nextId('tax_li_'),
      object: 'tax.calculation_line_item',
      amount: line.amount,
      amount_tax: lineTaxes[i]!,
      livemode: false,
      metadata: line.metadata,
      performance_location: null,
      product: null,
      quantity: line.quantity,
      reference: line.reference,
      tax_behavior: 'exclusive',
      tax_code: line.taxCode,
    }))
    const taxableAmount = taxable.reduce((a, b) => a + b, 0) + (MOCK_STRIPE_TAXED_SHIPPING.has(state) ? shippingTaxable : 0)
    const calculation: MockTaxCalculation = {
      id,
      object: 'tax.calculation',
      amount_total: goods + (shipping?.amount ?? 0) + tax.total,
      currency,
      customer: null,
      customer_details: {
        address,
        address_source: (details.address_source as 'billing' | 'shipping' | undefined) ?? null,
        ip_address: null,
        tax_ids: [],
        taxability_override: 'none',
      },
      expires_at: created + TAX_CALCULATION_TTL_S,
      livemode: false,
      ship_from_details: null,
      shipping_cost: shipping ? { amount: shipping.amount, amount_tax: tax.shipping, tax_behavior: 'exclusive', tax_code: shipping.taxCode } : null,
      tax_amount_exclusive: tax.total,
      tax_amount_inclusive: 0,
      tax_breakdown: [
        {
          amount: tax.total,
          inclusive: false,
          tax_rate_details: {
            country: 'US',
            flat_amount: null,
            percentage_decimal: (rate / 1000).toFixed(4),
            rate_type: 'percentage',
            state,
            tax_type: 'sales_tax',
          },
          taxability_reason: taxableAmount === 0 ? 'product_exempt' : rate === 0 ? 'not_subject_to_tax' : 'standard_rated',
          taxable_amount: taxableAmount,
        },
      ],
      tax_date: created,
    }
    taxCalculations.set(id, calculation)
    taxCalculationLines.set(id, items)
    return { status: 200, body: taxCalculationView(calculation, expand.includes('line_items')), save: true }
  }

  function retrieveTaxCalculation(id: string, query: Record<string, unknown>): Answer {
    const calculation = taxCalculations.get(id)
    if (!calculation || seconds() >= calculation.expires_at) return noSuch('tax.calculation', id, 'calculation')
    const expand = query.expand === undefined ? [] : Array.isArray(query.expand) ? query.expand : [query.expand]
    for (const field of expand)
      if (field !== 'line_items') return invalidRequest(`This property cannot be expanded (${String(field)}).`, { param: 'expand', save: false })
    return { status: 200, body: taxCalculationView(calculation, expand.includes('line_items')), save: false }
  }

  /** The calculation as Stripe answers it: `line_items` only when expanded, as a list object. */
  function taxCalculationView(calculation: MockTaxCalculation, withLines: boolean): Record<string, unknown> {
    const view: Record<string, unknown> = structuredClone(calculation)
    if (withLines)
      view.line_items = {
        object: 'list',
        data: structuredClone(taxCalculationLines.get(calculation.id) ?? []),
        has_more: false,
        url: `/v1/tax/calculations/${calculation.id}/line_items`,
      }
    return view
  }

  // -------------------------------------------------------------------------------------------
  // Coupons

  function createCoupon(body: Record<string, unknown>): Answer {
    const unknown = unknownParam(body, COUPON_PARAMS)
    if (unknown) return unknown
    const hasAmount = body.amount_off !== undefined
    const hasPercent = body.percent_off !== undefined
    if (hasAmount === hasPercent)
      return invalidRequest('You must pass exactly one of `amount_off` or `percent_off`.', { param: hasAmount ? 'percent_off' : 'amount_off' })
    let amountOff: number | null = null
    let currency: string | null = null
    if (hasAmount) {
      amountOff = integer(body.amount_off)
      if (amountOff === null || amountOff < 1) return invalidRequest(`Invalid positive integer: ${String(body.amount_off)}`, { param: 'amount_off' })
      if (body.currency === undefined) return invalidRequest('You must pass currency when passing amount_off', { param: 'currency', code: 'parameter_missing' })
      currency = String(body.currency).toLowerCase()
      if (!CURRENCIES.has(currency)) return invalidRequest(`Invalid currency: ${String(body.currency)}.`, { param: 'currency' })
    }
    let percentOff: number | null = null
    if (hasPercent) {
      percentOff = Number(body.percent_off)
      if (!(percentOff > 0 && percentOff <= 100)) return invalidRequest('Invalid percent_off: must be greater than 0 and at most 100', { param: 'percent_off' })
    }
    const duration = (body.duration ?? 'once') as string
    if (!['once', 'repeating', 'forever'].includes(duration))
      return invalidRequest('Invalid duration: must be one of forever, once, or repeating', { param: 'duration' })
    let maxRedemptions: number | null = null
    if (body.max_redemptions !== undefined) {
      maxRedemptions = integer(body.max_redemptions)
      if (maxRedemptions === null || maxRedemptions < 1)
        return invalidRequest(`Invalid positive integer: ${String(body.max_redemptions)}`, { param: 'max_redemptions' })
    }
    const checkedMetadata = validMetadata(body.metadata, 'metadata')
    if ('refusal' in checkedMetadata) return checkedMetadata.refusal
    const { metadata } = checkedMetadata
    const id = body.id !== undefined ? String(body.id) : nextId('', 8).toUpperCase()
    if (coupons.has(id)) return invalidRequest('Coupon already exists.', { param: 'id', code: 'resource_already_exists', save: true })
    const coupon: MockCoupon = {
      id,
      object: 'coupon',
      amount_off: amountOff,
      created: seconds(),
      currency,
      duration: duration as MockCoupon['duration'],
      duration_in_months: null,
      livemode: false,
      max_redemptions: maxRedemptions,
      metadata,
      name: body.name !== undefined ? String(body.name) : null,
      percent_off: percentOff,
      redeem_by: null,
      times_redeemed: 0,
      valid: true,
    }
    coupons.set(id, coupon)
    return { status: 200, body: structuredClone(coupon), save: true }
  }

  // -------------------------------------------------------------------------------------------
  // The shopper's side and events

  function openSession(sessionId: string): MockCheckoutSession {
    const session = sessions.get(sessionId)
    if (!session) throw new Error(`Stripe mock: no checkout session ${sessionId}`)
    refresh(session)
    return session
  }

  /**
   * The shopper finishes the payment page: `paid` (a card), `unpaid` (a delayed method such as ACH, settled
   * later by `asyncResult`), or `no_payment_required` (a total of 0). `shipping: null` collects no address.
   * `promotionCodeCents`: a promotion code the shopper entered on the page (one the store never offered, so what
   * Stripe charges is not the store's total): like any discount it comes off before tax, in total_details.amount_discount.
   */
  function complete(
    sessionId: string,
    {
      paymentStatus = 'paid',
      shipping = {},
      promotionCodeCents = 0,
    }: { paymentStatus?: 'paid' | 'unpaid' | 'no_payment_required'; shipping?: MockShipping | null; promotionCodeCents?: number } = {},
  ): MockCheckoutSession {
    const session = openSession(sessionId)
    if (session.status !== 'open') throw new Error(`Stripe mock: session ${sessionId} is ${session.status}, not open`)
    if (promotionCodeCents > 0) {
      session.discounts.push({ coupon: null, promotion_code: nextId('promo_') })
      session.total_details.amount_discount += promotionCodeCents
      session.amount_total -= promotionCodeCents
    }
    const details = shipping === null ? null : { ...DEFAULT_SHIPPING, ...shipping }
    const address: Address | null = details && {
      city: details.city,
      country: details.country,
      line1: details.line1,
      line2: details.line2 ?? null,
      postal_code: details.postalCode,
      state: details.state,
    }
    if (session.automatic_tax.enabled && address?.state) {
      // Stripe Tax on the address just collected: the tax joins the total before the payment is taken.
      // The discount spreads over the line items in proportion; lines under the Nontaxable code are taxed at 0.
      const lines = sessionTaxLines.get(session.id) ?? [{ amount: session.amount_subtotal, taxable: true }]
      const discounts = spread(
        session.total_details.amount_discount,
        lines.map((line) => line.amount),
      )
      const taxableItems = lines.reduce((sum, line, i) => (line.taxable ? sum + line.amount - discounts[i]! : sum), 0)
      const tax = mockStripeTax(address.state, taxableItems, session.total_details.amount_shipping)
      session.total_details.amount_tax = tax.total
      session.amount_total += tax.total
      if (session.shipping_cost) {
        session.shipping_cost.amount_tax = tax.shipping
        session.shipping_cost.amount_total = session.shipping_cost.amount_subtotal + tax.shipping
      }
      session.automatic_tax.status = 'complete'
    }
    session.status = 'complete'
    session.payment_status = paymentStatus
    session.url = null
    session.collected_information = {
      business_name: null,
      individual_name: null,
      shipping_details: details && address ? { address, name: details.name } : null,
    }
    session.customer_details = {
      address,
      email: session.customer_email ?? details?.email ?? DEFAULT_SHIPPING.email,
      name: details?.name ?? DEFAULT_SHIPPING.name,
      phone: details?.phone ?? null,
      tax_exempt: 'none',
      tax_ids: [],
    }
    if (paymentStatus !== 'no_payment_required') {
      const data = intentData.get(session.id)
      const paid = paymentStatus === 'paid'
      const intentId = nextId('pi_3')
      // Stripe's charge ids share their PaymentIntent's tail: pi_3Abc… → ch_3Abc….
      const charge: MockCharge = {
        id: `ch_${intentId.slice(3)}`,
        object: 'charge',
        amount: session.amount_total,
        amount_captured: paid ? session.amount_total : 0,
        amount_refunded: 0,
        captured: paid,
        created: seconds(),
        currency: session.currency,
        livemode: false,
        metadata: {},
        paid,
        payment_intent: intentId,
        refunded: false,
        status: paid ? 'succeeded' : 'pending',
      }
      const intent: MockPaymentIntent = {
        id: intentId,
        object: 'payment_intent',
        amount: session.amount_total,
        amount_received: paid ? session.amount_total : 0,
        created: seconds(),
        currency: session.currency,
        description: data?.description ?? null,
        latest_charge: charge.id,
        livemode: false,
        metadata: structuredClone(data?.metadata ?? {}),
        status: paid ? 'succeeded' : 'processing',
      }
      charges.set(charge.id, charge)
      paymentIntents.set(intent.id, intent)
      session.payment_intent = intent.id
    }
    const couponId = session.discounts[0]?.coupon
    const coupon = couponId ? coupons.get(couponId) : undefined
    if (coupon) {
      coupon.times_redeemed++
      if (coupon.max_redemptions !== null && coupon.times_redeemed >= coupon.max_redemptions) coupon.valid = false
    }
    return structuredClone(session)
  }

  /** A delayed payment settles: `succeeded` makes the session paid; `failed` leaves it complete and unpaid. */
  function asyncResult(sessionId: string, result: 'succeeded' | 'failed'): MockCheckoutSession {
    const session = openSession(sessionId)
    const intent = session.payment_intent ? paymentIntents.get(session.payment_intent) : undefined
    if (session.status !== 'complete' || session.payment_status !== 'unpaid' || !intent || intent.status !== 'processing')
      throw new Error(`Stripe mock: session ${sessionId} has no payment in progress`)
    const charge = intent.latest_charge ? charges.get(intent.latest_charge) : undefined
    if (result === 'succeeded') {
      intent.status = 'succeeded'
      intent.amount_received = intent.amount
      session.payment_status = 'paid'
      if (charge) Object.assign(charge, { status: 'succeeded', paid: true, captured: true, amount_captured: charge.amount })
    } else {
      intent.status = 'requires_payment_method'
      if (charge) charge.status = 'failed'
    }
    return structuredClone(session)
  }

  /** Stripe expires the session (its time ran out, or as the expire endpoint does). */
  function expire(sessionId: string): MockCheckoutSession {
    const session = openSession(sessionId)
    if (session.status !== 'open') throw new Error(`Stripe mock: session ${sessionId} is ${session.status}, not open`)
    markExpired(session)
    return structuredClone(session)
  }

  /** An event about a session as Stripe would deliver it to a webhook endpoint, signed with `secret`. */
  function event(
    type: MockEventType,
    sessionId: string,
    { secret = MOCK_STRIPE_WEBHOOK_SECRET, timestamp = seconds() }: { secret?: string; timestamp?: number } = {},
  ) {
    const session = sessions.get(sessionId)
    if (!session) throw new Error(`Stripe mock: no checkout session ${sessionId}`)
    return signedEvent(type, structuredClone(session), secret, timestamp)
  }

  /**
   * An event about a PaymentIntent's charge (its latest), e.g. `charge.refunded` after a refund, as Stripe would
   * deliver it: data.object is the Charge as it is now. Stripe sends `charge.refunded` for partial refunds too.
   */
  function chargeEvent(
    type: MockChargeEventType,
    paymentIntentId: string,
    { secret = MOCK_STRIPE_WEBHOOK_SECRET, timestamp = seconds() }: { secret?: string; timestamp?: number } = {},
  ) {
    const intent = paymentIntents.get(paymentIntentId)
    const charge = intent?.latest_charge ? charges.get(intent.latest_charge) : undefined
    if (!charge) throw new Error(`Stripe mock: no charge for payment intent ${paymentIntentId}`)
    return signedEvent(type, structuredClone(charge), secret, timestamp)
  }

  function signedEvent(type: string, object: unknown, secret: string, timestamp: number) {
    const payload = {
      id: nextId('evt_1'),
      object: 'event',
      api_version: MOCK_STRIPE_API_VERSION,
      created: timestamp,
      data: { object },
      livemode: false,
      pending_webhooks: 1,
      request: { id: null, idempotency_key: null },
      type,
    }
    // Stripe delivers events pretty-printed; verifiers must use these exact bytes.
    const rawBody = JSON.stringify(payload, null, 2)
    const v1 = createHmac('sha256', secret).update(`${timestamp}.${rawBody}`).digest('hex')
    // Test-mode deliveries add a v0 signature made with a secret nobody has; verifiers must ignore it.
    const v0 = createHmac('sha256', 'stripe-test-mode-v0').update(`${timestamp}.${rawBody}`).digest('hex')
    return { event: payload, rawBody, signatureHeader: `t=${timestamp},v1=${v1},v0=${v0}` }
  }

  return {
    fetch: handle,
    listen,
    secretKey,
    calls,
    sessions,
    coupons,
    shippingRates,
    paymentIntents,
    charges,
    refunds,
    taxCalculations,
    /** Calls with this method whose path starts with `pathPrefix`. */
    callsTo(method: string, pathPrefix: string) {
      return calls.filter((c) => c.method === method && c.path.startsWith(pathPrefix))
    },
    /**
     * The next request answers `status` before reaching the endpoint (nothing done, nothing saved under its
     * idempotency key), with Stripe's error shape unless `body` is given; `headers` e.g. Stripe-Should-Retry.
     */
    failNext(status: number, body?: unknown, { headers = {} }: { headers?: Record<string, string> } = {}) {
      faults.push({ kind: 'status', status, body: body ?? defaultErrorBody(status), headers })
    },
    /**
     * The next request fails like a dropped connection. `processed: true` drops it after Stripe did the work and
     * saved the answer under the idempotency key (the case idempotency keys exist for).
     */
    networkErrorNext({ processed = false }: { processed?: boolean } = {}) {
      faults.push({ kind: 'network', processed })
    },
    complete,
    asyncResult,
    expire,
    event,
    chargeEvent,
  }
}

export type StripeMock = ReturnType<typeof createStripeMock>

export type StripeMockServer = {
  /** Spread into the SDK's options (createStripeClient), in place of api.stripe.com:443 over https. */
  endpoint: { host: string; port: number; protocol: 'http' }
  /** The base URL, for raw HTTP requests. */
  url: string
  /** Stops listening and drops open connections; calling it again is harmless. */
  close(): Promise<void>
}

/** What the mock throws (and its server turns into a dropped connection) for an injected network failure. */
class MockNetworkError extends TypeError {
  constructor() {
    super('fetch failed')
  }
}

/** Node's request headers as fetch Headers, without those that describe the connection rather than the request. */
function requestHeaders(raw: IncomingHttpHeaders): Headers {
  const headers = new Headers()
  for (const [name, value] of Object.entries(raw)) {
    if (value === undefined || ['host', 'connection', 'content-length', 'transfer-encoding', 'keep-alive'].includes(name)) continue
    for (const item of Array.isArray(value) ? value : [value]) headers.append(name, item)
  }
  return headers
}

// ---------------------------------------------------------------------------------------------
// Form bodies

/** Parses `a[b][0][c]=v&list[]=x` into nested objects; objects keyed 0..n-1 (or `[]`) become arrays. */
export function parseForm(text: string): Record<string, unknown> {
  const root: Record<string, unknown> = {}
  for (const [key, value] of new URLSearchParams(text)) {
    const match = /^([^[\]]+)((?:\[[^[\]]*\])*)$/.exec(key)
    const path = match ? [match[1]!, ...[...match[2]!.matchAll(/\[([^[\]]*)\]/g)].map((m) => m[1]!)] : [key]
    let node: Record<string, unknown> = root
    for (let i = 0; i < path.length; i++) {
      let part = path[i]!
      if (part === '') part = String(Object.keys(node).length) // `list[]=x` appends
      if (i === path.length - 1) node[part] = value
      else {
        const next = node[part]
        node = (node[part] = isRecord(next) ? next : {}) as Record<string, unknown>
      }
    }
  }
  return arrayify(root) as Record<string, unknown>
}

function arrayify(value: unknown): unknown {
  if (!isRecord(value)) return value
  const keys = Object.keys(value)
  const entries = keys.map((k) => [k, arrayify(value[k])] as const)
  if (keys.length > 0 && keys.every((k) => /^\d+$/.test(k))) {
    const sorted = [...entries].sort((a, b) => Number(a[0]) - Number(b[0]))
    if (sorted.every(([k], i) => Number(k) === i)) return sorted.map(([, v]) => v)
  }
  return Object.fromEntries(entries)
}

// ---------------------------------------------------------------------------------------------
// Stripe-shaped errors and checks

function invalidRequest(message: string, { param, code, save = false }: { param?: string; code?: string; save?: boolean } = {}): Answer {
  const error: Record<string, string> = { type: 'invalid_request_error', message }
  if (code) {
    error.code = code
    error.doc_url = `https://stripe.com/docs/error-codes/${code.replace(/_/g, '-')}`
  }
  if (param) error.param = param
  return { status: 400, body: { error }, save }
}
const missing = (param: string) => invalidRequest(`Missing required param: ${param}.`, { param, code: 'parameter_missing' })
const invalidArray = (param: string) => invalidRequest('Invalid array', { param })
const invalidInteger = (param: string, value: unknown) => invalidRequest(`Invalid integer: ${String(value)}`, { param })
const notFound = (message: string): Answer => ({
  status: 404,
  body: { error: { type: 'invalid_request_error', message } },
  save: false,
})

function unknownParam(body: Record<string, unknown>, known: Set<string>, prefix?: string): Answer | null {
  for (const key of Object.keys(body))
    if (!known.has(key)) {
      const param = prefix ? `${prefix}[${key}]` : key
      return invalidRequest(`Received unknown parameter: ${param}`, { param, code: 'parameter_unknown' })
    }
  return null
}

/** Stripe's metadata limits: at most 50 keys, keys up to 40 characters, string values up to 500. */
function validMetadata(value: unknown, param: string): { metadata: Record<string, string> } | { refusal: Answer } {
  if (value === undefined || value === '') return { metadata: {} }
  if (!isRecord(value)) return { refusal: invalidRequest('Invalid object', { param }) }
  const entries = Object.entries(value)
  if (entries.length > 50) return { refusal: invalidRequest('You can have at most 50 metadata keys.', { param }) }
  for (const [key, item] of entries) {
    const at = `${param}[${key}]`
    if (key.length > 40) return { refusal: invalidRequest(`Metadata keys can be at most 40 characters long: ${key}`, { param: at }) }
    if (typeof item !== 'string') return { refusal: invalidRequest('Invalid string', { param: at }) }
    if (item.length > 500) return { refusal: invalidRequest('Metadata values can be at most 500 characters long.', { param: at }) }
  }
  return { metadata: value as Record<string, string> }
}

/** The mock computes exclusive amounts only (Stripe's default for a calculation). */
function exclusiveOnly(value: unknown, param: string): Answer | null {
  if (value === undefined || value === 'exclusive') return null
  if (value === 'inclusive') return invalidRequest('The Stripe mock implements tax_behavior=exclusive only.', { param })
  return invalidRequest('Invalid tax_behavior: must be one of exclusive or inclusive', { param })
}

function taxCodeRefusal(value: unknown, param: string): Answer | null {
  if (value === undefined || TAX_CODE_PATTERN.test(String(value))) return null
  return invalidRequest(`No such tax code: '${String(value)}'`, { param, code: 'resource_missing' })
}

function defaultErrorBody(status: number) {
  if (status === 409)
    return {
      error: {
        type: 'invalid_request_error',
        code: 'idempotency_key_in_use',
        message:
          'There is currently another in-progress request using this Idempotent Key (that probably means you submitted twice, and the other request is still going through): please try again later.',
      },
    }
  if (status === 429)
    return {
      error: {
        type: 'invalid_request_error',
        code: 'rate_limit',
        message: 'Request rate limit exceeded. Learn more about rate limits here https://stripe.com/docs/rate-limits.',
      },
    }
  if (status >= 500) return { error: { type: 'api_error', message: 'An unknown error occurred' } }
  return { error: { type: 'invalid_request_error', message: `The request failed with HTTP ${status}.` } }
}

/** How Stripe echoes a wrong key: the prefix, stars, and the last four characters. */
function maskKey(key: string) {
  const prefix = /^(sk|rk|pk)_(test|live)_/.exec(key)?.[0] ?? ''
  return `${prefix}${'*'.repeat(Math.max(4, key.length - prefix.length - 4))}${key.slice(-4)}`
}

function integer(value: unknown): number | null {
  const text = typeof value === 'number' ? String(value) : value
  return typeof text === 'string' && /^-?\d+$/.test(text) ? Number(text) : null
}

function isUrl(value: unknown): boolean {
  if (typeof value !== 'string' || !/^https?:\/\//i.test(value) || value.length > 5000) return false
  try {
    new URL(value)
    return true
  } catch {
    return false
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

/** JSON with sorted keys, so the same parameters in another order compare equal (as Stripe compares them). */
function stableJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stableJson).join(',')}]`
  if (isRecord(value))
    return `{${Object.keys(value)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${stableJson(value[k])}`)
      .join(',')}}`
  return JSON.stringify(value)
}
