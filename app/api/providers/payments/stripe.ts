/**
 * The Stripe payment provider: a small client for Stripe's v1 REST API (https://docs.stripe.com/api), the
 * `PaymentProvider` built on Checkout Sessions, and webhook verification. Server-only; the secret key never
 * leaves this module, not even in error messages.
 *
 * Stripe's rules this follows:
 * - Bodies are form-encoded with bracket notation (`line_items[0][price_data][currency]=usd`).
 * - Every POST carries an Idempotency-Key; Stripe saves the first response for a key (24 h) and replays it,
 *   and answers 400 `idempotency_error` when the key is reused with other parameters. So a retried POST
 *   with the same key never creates a second object.
 * - Retries (as Stripe's own libraries do): network failures, 409 (a request with the same key is still
 *   running), 429 and 5xx; `Stripe-Should-Retry: true|false` overrides the status when Stripe sends it.
 * - Errors are `{ error: { type, code?, param?, message } }`.
 * - Webhooks: `Stripe-Signature: t=<unix>,v1=<hex>[,v1=…][,v0=…]`, v1 = HMAC-SHA256(secret, `${t}.${rawBody}`).
 * - Checkout copies `payment_intent_data.metadata` onto the PaymentIntent it creates, so a refund (whose event
 *   carries a Charge, which names its PaymentIntent) leads back to our checkout session.
 */
import { createHmac, timingSafeEqual } from 'node:crypto'
import type { ShippingAddress } from '../../../contract/cart'
import { PaymentProviderError, type CreatePaymentSessionInput, type PaymentProvider, type PaymentSession, type PaymentState } from './provider'

export type FetchLike = (input: RequestInfo | URL, init?: RequestInit) => Promise<Response>
export type Sleep = (ms: number) => Promise<void>

/** The API version every request pins (Stripe-Version), so Stripe's answers keep the shape read here. */
export const STRIPE_API_VERSION = '2025-07-30.basil'
export const STRIPE_API_BASE = 'https://api.stripe.com'
export const MAX_RETRIES = 3
/** 1 s, 2 s, 4 s. */
export const backoffMs = (retry: number) => 1000 * 2 ** retry
const TIMEOUT_MS = 20_000
/** Stripe: `expires_at` must be 30 minutes to 24 hours after creation. We keep a minute inside both ends. */
const MIN_EXPIRY_S = 30 * 60 + 60
const MAX_EXPIRY_S = 24 * 60 * 60 - 60
/** The coupon's name on Stripe's payment page and receipt (Stripe allows 40 characters). */
export const STRIPE_DISCOUNT_NAME = 'Bundle savings and store credit'
/** Stripe's default and recommended webhook timestamp tolerance. */
export const DEFAULT_WEBHOOK_TOLERANCE_S = 300

// ---------------------------------------------------------------------------------------------
// Stripe's shapes (only the fields we send or read; Stripe answers more).

export type StripeAddress = {
  city: string | null
  country: string | null
  line1: string | null
  line2: string | null
  postal_code: string | null
  state: string | null
}

export type StripeShippingDetails = { address: StripeAddress | null; name: string | null }

export type StripeCheckoutSession = {
  id: string
  object: 'checkout.session'
  status: 'open' | 'complete' | 'expired' | null
  payment_status: 'paid' | 'unpaid' | 'no_payment_required'
  amount_subtotal: number | null
  amount_total: number | null
  currency: string | null
  client_reference_id: string | null
  customer_email: string | null
  customer_details: { email: string | null; name: string | null; phone: string | null; address?: StripeAddress | null } | null
  collected_information?: { shipping_details: StripeShippingDetails | null } | null
  /** Removed in 2025-03-31.basil (moved to collected_information); read as a fallback for older payloads. */
  shipping_details?: StripeShippingDetails | null
  metadata: Record<string, string> | null
  /** A string id, or the object when expanded. */
  payment_intent: string | { id: string; object: 'payment_intent'; status: string } | null
  url: string | null
  expires_at: number
  created: number
  livemode: boolean
}

export type StripePaymentIntent = {
  id: string
  object: 'payment_intent'
  status: string
  amount: number
  currency: string
  /** For a Checkout payment: the session's `payment_intent_data.metadata`. */
  metadata: Record<string, string> | null
  /** A string id, or the object when expanded. */
  latest_charge?: string | { id: string; object: 'charge' } | null
}

export type StripeCoupon = {
  id: string
  object: 'coupon'
  amount_off: number | null
  currency: string | null
  duration: 'once' | 'repeating' | 'forever'
  max_redemptions: number | null
  times_redeemed: number
  valid: boolean
}

/** A value the form encoder accepts: nested objects and arrays become bracket keys; undefined is left out. */
export type FormValue = string | number | boolean | null | undefined | Date | FormValue[] | { [key: string]: FormValue }
export type FormParams = { [key: string]: FormValue }

export type StripeCreateCheckoutSessionParams = FormParams & {
  mode: 'payment'
  success_url: string
  cancel_url?: string
  client_reference_id?: string
  customer_email?: string
  metadata?: Record<string, string>
  /** Stripe passes these to the PaymentIntent it creates for the session (its metadata is copied onto it). */
  payment_intent_data?: { metadata?: Record<string, string> }
  expires_at?: number
  line_items: {
    quantity: number
    price_data: {
      currency: string
      unit_amount: number
      product_data: { name: string; images?: string[] }
    }
  }[]
  shipping_address_collection?: { allowed_countries: string[] }
  shipping_options?: {
    shipping_rate_data: {
      type: 'fixed_amount'
      display_name: string
      fixed_amount: { amount: number; currency: string }
    }
  }[]
  discounts?: { coupon: string }[]
}

export type StripeCreateCouponParams = FormParams & {
  amount_off: number
  currency: string
  duration: 'once'
  max_redemptions?: number
  name?: string
  metadata?: Record<string, string>
}

// ---------------------------------------------------------------------------------------------
// Form encoding

/** Stripe's encoding of a key or value: RFC 3986 percent-encoding, with brackets left literal (as Stripe's libraries do). */
function encodePart(text: string): string {
  return encodeURIComponent(text)
    .replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)
    .replace(/%5B/g, '[')
    .replace(/%5D/g, ']')
}

/**
 * `application/x-www-form-urlencoded` the way Stripe reads it: `a[b][0][c]=v`. Arrays are indexed, Dates
 * become unix seconds, `null` becomes an empty value (Stripe's "unset"), `undefined` is left out.
 * Characters such as `{` `}` are percent-encoded, so `{CHECKOUT_SESSION_ID}` reaches Stripe literally once decoded.
 */
export function encodeForm(params: FormParams): string {
  const pairs: string[] = []
  const add = (key: string, value: FormValue) => {
    if (value === undefined) return
    if (value === null || typeof value !== 'object' || value instanceof Date) {
      const text = value === null ? '' : value instanceof Date ? String(Math.floor(value.getTime() / 1000)) : String(value)
      pairs.push(`${encodePart(key)}=${encodePart(text)}`)
      return
    }
    if (Array.isArray(value)) value.forEach((item, i) => add(`${key}[${i}]`, item))
    else for (const [child, item] of Object.entries(value)) add(`${key}[${child}]`, item)
  }
  for (const [key, value] of Object.entries(params)) add(key, value)
  return pairs.join('&')
}

// ---------------------------------------------------------------------------------------------
// The client

/** A Stripe API error, with Stripe's `type`, `code` and `param` kept for callers that branch on them. */
export class StripeApiError extends PaymentProviderError {
  constructor(
    message: string,
    status: number | undefined,
    readonly type: string | null = null,
    readonly code: string | null = null,
    readonly param: string | null = null,
  ) {
    super(message, status)
    this.name = 'StripeApiError'
  }
}

export type StripeClientOptions = {
  secretKey: string
  fetch?: FetchLike
  /** Waits between retries. Default: a real timer. */
  sleep?: Sleep
  /** Default https://api.stripe.com. */
  apiBase?: string
  /** Default STRIPE_API_VERSION. */
  apiVersion?: string
  /** Per attempt. Default 20 s. */
  timeoutMs?: number
}

type Method = 'GET' | 'POST'

export class StripeClient {
  readonly apiVersion: string
  private readonly secretKey: string
  private readonly fetch: FetchLike
  private readonly sleep: Sleep
  private readonly apiBase: string
  private readonly timeoutMs: number

  constructor(options: StripeClientOptions) {
    if (!options.secretKey) throw new PaymentProviderError('Stripe is not configured: the secret key is empty.')
    this.secretKey = options.secretKey
    this.fetch = options.fetch ?? ((input, init) => globalThis.fetch(input, init))
    this.sleep = options.sleep ?? ((ms) => new Promise((resolve) => setTimeout(resolve, ms)))
    this.apiBase = (options.apiBase ?? STRIPE_API_BASE).replace(/\/+$/, '')
    this.apiVersion = options.apiVersion ?? STRIPE_API_VERSION
    this.timeoutMs = options.timeoutMs ?? TIMEOUT_MS
  }

  async createCheckoutSession(params: StripeCreateCheckoutSessionParams, idempotencyKey: string): Promise<StripeCheckoutSession> {
    const session = await this.request<StripeCheckoutSession>('create checkout session', 'POST', '/v1/checkout/sessions', params, idempotencyKey)
    return requireId('create checkout session', session)
  }

  /** `expand` e.g. ['payment_intent'] answers that field as an object instead of an id. */
  async retrieveCheckoutSession(id: string, { expand = [] as string[] } = {}): Promise<StripeCheckoutSession> {
    const query = expand.length > 0 ? `?${encodeForm({ expand })}` : ''
    const session = await this.request<StripeCheckoutSession>('retrieve checkout session', 'GET', `/v1/checkout/sessions/${encodeURIComponent(id)}${query}`)
    return requireId('retrieve checkout session', session)
  }

  /** Stripe expires only `open` sessions; any other status answers 400 invalid_request_error. */
  async expireCheckoutSession(id: string, idempotencyKey: string): Promise<StripeCheckoutSession> {
    const session = await this.request<StripeCheckoutSession>(
      'expire checkout session',
      'POST',
      `/v1/checkout/sessions/${encodeURIComponent(id)}/expire`,
      {},
      idempotencyKey,
    )
    return requireId('expire checkout session', session)
  }

  async retrievePaymentIntent(id: string): Promise<StripePaymentIntent> {
    const intent = await this.request<StripePaymentIntent>('retrieve payment intent', 'GET', `/v1/payment_intents/${encodeURIComponent(id)}`)
    return requireId('retrieve payment intent', intent)
  }

  async createCoupon(params: StripeCreateCouponParams, idempotencyKey: string): Promise<StripeCoupon> {
    const coupon = await this.request<StripeCoupon>('create coupon', 'POST', '/v1/coupons', params, idempotencyKey)
    return requireId('create coupon', coupon)
  }

  /**
   * One API call with Stripe's retry rules. POSTs always carry the idempotency key, and the same key is re-sent
   * on every attempt, so a retry after an unclear failure replays Stripe's saved answer instead of acting twice.
   */
  private async request<T>(call: string, method: Method, path: string, params?: FormParams, idempotencyKey?: string): Promise<T> {
    const headers: Record<string, string> = {
      Authorization: `Bearer ${this.secretKey}`,
      'Stripe-Version': this.apiVersion,
      Accept: 'application/json',
    }
    let body: string | undefined
    if (method === 'POST') {
      if (!idempotencyKey) throw this.error(`Stripe ${call} needs an idempotency key.`)
      if (idempotencyKey.length > 255) throw this.error(`Stripe ${call}: idempotency keys are at most 255 characters.`)
      headers['Content-Type'] = 'application/x-www-form-urlencoded'
      headers['Idempotency-Key'] = idempotencyKey
      body = encodeForm(params ?? {})
    }

    for (let retry = 0; ; retry++) {
      const canRetry = retry < MAX_RETRIES
      let response: Response
      try {
        response = await this.fetch(`${this.apiBase}${path}`, {
          method,
          headers,
          body,
          signal: AbortSignal.timeout(this.timeoutMs),
        })
      } catch (error) {
        // Safe for POSTs too: the retry carries the same idempotency key.
        if (canRetry) {
          await this.sleep(backoffMs(retry))
          continue
        }
        throw this.error(this.networkMessage(call, error, retry))
      }

      if (response.ok) {
        const parsed = await readJson(response)
        if (!isRecord(parsed)) throw this.error(`Stripe ${call} answered HTTP ${response.status} without a JSON object.`, response.status)
        return parsed as T
      }

      if (canRetry && shouldRetry(response)) {
        await response.body?.cancel().catch(() => {})
        await this.sleep(backoffMs(retry))
        continue
      }

      const error = stripeError(await readJson(response))
      const retried = retry > 0 ? ` after ${retry} ${retry === 1 ? 'retry' : 'retries'}` : ''
      const kind = [error.type, error.code].filter(Boolean).join(', ')
      throw new StripeApiError(
        this.redact(`Stripe ${call} failed with HTTP ${response.status}${retried}${kind ? ` (${kind})` : ''}: ${error.message}`),
        response.status,
        error.type,
        error.code,
        error.param,
      )
    }
  }

  private networkMessage(call: string, error: unknown, retries: number) {
    const retried = retries > 0 ? ` after ${retries} ${retries === 1 ? 'retry' : 'retries'}` : ''
    if (error instanceof Error && error.name === 'TimeoutError') return `Stripe ${call} timed out after ${this.timeoutMs / 1000} s${retried}.`
    const reason = error instanceof Error ? error.message : String(error)
    return `Stripe ${call} failed${retried}: could not reach Stripe (${reason.slice(0, 200)}).`
  }

  /** Every message passes here, so nothing Stripe or the network echoes can leak the key (or any other key). */
  private redact(message: string) {
    return message
      .split(this.secretKey)
      .join('[redacted]')
      .replace(/\b(sk|rk)_(live|test)_[A-Za-z0-9]+/g, '$1_$2_[redacted]')
  }

  private error(message: string, status?: number) {
    return new StripeApiError(this.redact(message), status)
  }
}

/** Stripe's own libraries' rule: Stripe-Should-Retry decides when present; otherwise 409, 429 and 5xx retry. */
function shouldRetry(response: Response): boolean {
  const advice = response.headers.get('stripe-should-retry')
  if (advice === 'false') return false
  if (advice === 'true') return true
  return response.status === 409 || response.status === 429 || response.status >= 500
}

function stripeError(body: unknown): { message: string; type: string | null; code: string | null; param: string | null } {
  const error = isRecord(body) && isRecord(body.error) ? body.error : {}
  const text = (value: unknown) => (typeof value === 'string' && value !== '' ? value : null)
  return {
    message: (text(error.message) ?? 'no error message').slice(0, 500),
    type: text(error.type),
    code: text(error.code),
    param: text(error.param),
  }
}

function requireId<T extends { id?: unknown }>(call: string, value: T): T & { id: string } {
  if (typeof value.id !== 'string' || value.id === '') throw new PaymentProviderError(`Stripe ${call} answered without an id.`)
  return value as T & { id: string }
}

async function readJson(response: Response): Promise<unknown> {
  try {
    const text = await response.text()
    return text === '' ? undefined : (JSON.parse(text) as unknown)
  } catch {
    return undefined
  }
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value)

// ---------------------------------------------------------------------------------------------
// Mapping Stripe's session onto ours

/** Payment intent statuses that mean an attempted (async) payment failed and the session will not be paid. */
const FAILED_INTENT_STATUSES = new Set(['requires_payment_method', 'canceled'])

/**
 * open → open; complete + paid/no_payment_required → paid; complete + unpaid → processing (a delayed method
 * such as ACH), or failed when the expanded payment intent says the attempt failed; expired → expired.
 */
export function stripeSessionState(session: StripeCheckoutSession): PaymentState {
  const status = stripeSessionStatus(session)
  if (status === null) throw new PaymentProviderError(`Stripe answered checkout session ${session.id} with an unknown status (${String(session.status)}).`)
  return { status, ...stripeSessionDetails(session) }
}

function stripeSessionDetails(session: StripeCheckoutSession): Omit<PaymentState, 'status'> {
  return {
    shippingAddress: stripeShippingAddress(session),
    amountTotalCents: typeof session.amount_total === 'number' ? session.amount_total : null,
  }
}

function stripeSessionStatus(session: StripeCheckoutSession): PaymentState['status'] | null {
  switch (session.status) {
    case 'expired':
      return 'expired'
    case 'complete': {
      if (session.payment_status === 'paid' || session.payment_status === 'no_payment_required') return 'paid'
      const intent = session.payment_intent
      if (isRecord(intent) && typeof intent.status === 'string' && FAILED_INTENT_STATUSES.has(intent.status)) return 'failed'
      return 'processing'
    }
    case 'open':
      return 'open'
    default:
      return null
  }
}

/** The collected shipping address in our shape; null when Stripe has none (or one we cannot ship to). */
export function stripeShippingAddress(session: StripeCheckoutSession): ShippingAddress | null {
  const details = session.collected_information?.shipping_details ?? session.shipping_details ?? null
  const address = details?.address
  if (!details || !address) return null
  const country = (address.country ?? '').trim().toUpperCase()
  if (country !== 'US') return null // we only collect US addresses; anything else cannot be shipped
  const customer = session.customer_details
  return {
    name: (details.name ?? customer?.name ?? '').trim(),
    email: (customer?.email ?? session.customer_email ?? '').trim(),
    phone: (customer?.phone ?? '').trim(),
    line1: (address.line1 ?? '').trim(),
    line2: (address.line2 ?? '').trim(),
    city: (address.city ?? '').trim(),
    state: (address.state ?? '').trim().toUpperCase(),
    postalCode: (address.postal_code ?? '').trim(),
    country: 'US',
  }
}

// ---------------------------------------------------------------------------------------------
// The provider

export type StripePaymentProviderOptions = {
  /** Clock for clamping `expires_at`. Default Date.now. */
  now?: () => number
}

export class StripePaymentProvider implements PaymentProvider {
  readonly name = 'stripe' as const
  private readonly now: () => number

  constructor(
    readonly client: StripeClient,
    options: StripePaymentProviderOptions = {},
  ) {
    this.now = options.now ?? Date.now
  }

  async createSession(input: CreatePaymentSessionInput): Promise<PaymentSession> {
    validateInput(input)
    // Bundle savings and store credit travel as one coupon: a session takes a single discount, and amount_off
    // coupons discount the line items only, so the charge equals our totals (pricing.ts keeps shipping out of both).
    let coupon: StripeCoupon | null = null
    if (input.discountCents > 0)
      coupon = await this.client.createCoupon(
        {
          amount_off: input.discountCents,
          currency: 'usd',
          duration: 'once',
          max_redemptions: 1,
          name: STRIPE_DISCOUNT_NAME,
          metadata: { checkout_session_id: input.checkoutSessionId },
        },
        `${input.idempotencyKey}:coupon`,
      )

    const session = await this.client.createCheckoutSession(
      {
        mode: 'payment',
        client_reference_id: input.cartId,
        metadata: { checkout_session_id: input.checkoutSessionId },
        payment_intent_data: { metadata: { checkout_session_id: input.checkoutSessionId } },
        customer_email: input.customerEmail ?? undefined,
        success_url: input.successUrl,
        cancel_url: input.cancelUrl,
        expires_at: this.expiresAt(input.expiresAt),
        line_items: input.lines.map((line) => ({
          quantity: line.quantity,
          price_data: {
            currency: 'usd',
            unit_amount: line.unitAmountCents,
            product_data: {
              name: line.name,
              images: line.imageUrl && isHttps(line.imageUrl) ? [line.imageUrl] : undefined,
            },
          },
        })),
        ...(input.collectShipping === false
          ? {}
          : {
              shipping_address_collection: { allowed_countries: ['US'] },
              shipping_options: [
                {
                  shipping_rate_data: {
                    type: 'fixed_amount' as const,
                    display_name: input.shippingCents > 0 ? 'Standard shipping' : 'Free shipping',
                    fixed_amount: { amount: input.shippingCents, currency: 'usd' as const },
                  },
                },
              ],
            }),
        discounts: coupon ? [{ coupon: coupon.id }] : undefined,
      },
      input.idempotencyKey,
    )
    if (typeof session.url !== 'string' || session.url === '')
      throw new PaymentProviderError(`Stripe created checkout session ${session.id} without a payment page URL.`)
    return { providerSessionId: session.id, url: session.url }
  }

  async retrieveSession(providerSessionId: string): Promise<PaymentState> {
    const session = await this.client.retrieveCheckoutSession(providerSessionId, { expand: ['payment_intent'] })
    return stripeSessionState(session)
  }

  /**
   * Expires an open session. Stripe refuses any session that is not open (400); then this looks the session up:
   * already expired is success (expiring is idempotent), but a completed session was paid (or is being paid),
   * which the caller must not lose, so that throws a PaymentProviderError with status 409.
   */
  async expireSession(providerSessionId: string): Promise<void> {
    try {
      await this.client.expireCheckoutSession(providerSessionId, `expire:${providerSessionId}`)
    } catch (error) {
      if (!(error instanceof StripeApiError) || error.status !== 400 || error.type !== 'invalid_request_error') throw error
      const session = await this.client.retrieveCheckoutSession(providerSessionId)
      if (session.status === 'expired') return
      if (session.status === 'complete')
        throw new PaymentProviderError(
          `Stripe checkout session ${providerSessionId} is already complete (payment ${session.payment_status}); it cannot be expired.`,
          409,
        )
      throw error
    }
  }

  /**
   * Our checkout session id for a Stripe PaymentIntent (its metadata.checkout_session_id, copied there from the
   * session's payment_intent_data), or null when Stripe has no such PaymentIntent or it does not carry one.
   * Other failures (network, 5xx, auth) throw, so a webhook answers non-2xx and Stripe delivers it again.
   */
  async checkoutSessionIdOfPaymentIntent(paymentIntentId: string): Promise<string | null> {
    let intent: StripePaymentIntent
    try {
      intent = await this.client.retrievePaymentIntent(paymentIntentId)
    } catch (error) {
      if (error instanceof StripeApiError && error.status === 404 && error.code === 'resource_missing') return null
      throw error
    }
    const metadata = isRecord(intent.metadata) ? intent.metadata : {}
    const id = metadata.checkout_session_id
    return typeof id === 'string' && id !== '' ? id : null
  }

  /** Stripe accepts 30 min to 24 h ahead; a value outside is moved just inside, so the create never fails on it. */
  private expiresAt(at: Date): number {
    const now = Math.floor(this.now() / 1000)
    const wanted = Math.floor(at.getTime() / 1000)
    return Math.min(Math.max(wanted, now + MIN_EXPIRY_S), now + MAX_EXPIRY_S)
  }
}

function validateInput(input: CreatePaymentSessionInput) {
  const wholeCents = (value: number) => Number.isInteger(value) && value >= 0
  if (input.lines.length === 0) throw new PaymentProviderError('Stripe needs at least one line to charge for.')
  for (const line of input.lines) {
    if (!wholeCents(line.unitAmountCents)) throw new PaymentProviderError(`Stripe needs whole, non-negative cents, not ${line.unitAmountCents}.`)
    if (!Number.isInteger(line.quantity) || line.quantity < 1) throw new PaymentProviderError(`Stripe needs a whole, positive quantity, not ${line.quantity}.`)
    if (line.name.trim() === '') throw new PaymentProviderError('Stripe needs a name for every line.')
  }
  if (!wholeCents(input.shippingCents)) throw new PaymentProviderError(`Stripe needs whole, non-negative shipping cents, not ${input.shippingCents}.`)
  if (!wholeCents(input.discountCents)) throw new PaymentProviderError(`Stripe needs whole, non-negative discount cents, not ${input.discountCents}.`)
  if (!input.idempotencyKey) throw new PaymentProviderError('Stripe session creation needs an idempotency key.')
}

function isHttps(raw: string): boolean {
  try {
    return new URL(raw).protocol === 'https:'
  } catch {
    return false
  }
}

// ---------------------------------------------------------------------------------------------
// Webhooks

/** The webhook request is not a genuine, fresh Stripe event; the route answers 400. */
export class StripeWebhookError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'StripeWebhookError'
  }
}

export const STRIPE_CHECKOUT_EVENT_TYPES = [
  'checkout.session.completed',
  'checkout.session.async_payment_succeeded',
  'checkout.session.async_payment_failed',
  'checkout.session.expired',
] as const

/** Events about a charge's refunds; `charge.refunded` fires for partial refunds too. */
export const STRIPE_REFUND_EVENT_TYPES = ['charge.refunded'] as const

/** What a `charge.refunded` event says about the charge. */
export type StripeChargeRefund = {
  chargeId: string
  /** Null for a charge made without a PaymentIntent (never the case for Checkout). */
  paymentIntentId: string | null
  /** The charge's `refunded`: true only once the whole amount has been refunded. */
  fullyRefunded: boolean
  amountCents: number
  /** All refunds so far, whole cents. */
  amountRefundedCents: number
}

export type StripeWebhookEvent = {
  eventId: string
  type: string
  /** Null for event types we ignore (acknowledge with 200 and do nothing), and for refund events. */
  providerSessionId: string | null
  /** Our checkout session id (the session's metadata.checkout_session_id), null when absent. */
  checkoutSessionId: string | null
  state: PaymentState | null
  /** Present only for refund events (STRIPE_REFUND_EVENT_TYPES); their `state` is null. */
  refund?: StripeChargeRefund
}

export type ParseStripeWebhookInput = {
  /** The request body exactly as received: parsing and re-serialising it breaks the signature. */
  rawBody: string | Uint8Array
  signatureHeader: string | null | undefined
  /** The endpoint's signing secret, `whsec_…`. */
  secret: string
  /** Default: now. */
  nowSeconds?: number
  /** Default 300 s, as Stripe's libraries. */
  toleranceSeconds?: number
}

/** HMAC-SHA256 hex of `${timestamp}.${payload}` with the signing secret, Stripe's v1 scheme. */
export function computeStripeSignature(payload: string | Uint8Array, secret: string, timestampSeconds: number): string {
  return createHmac('sha256', secret)
    .update(`${timestampSeconds}.`, 'utf8')
    .update(typeof payload === 'string' ? Buffer.from(payload, 'utf8') : payload)
    .digest('hex')
}

/** A `Stripe-Signature` header value for `payload`, as Stripe would send it: `t=<unix>,v1=<hex>`. */
export function signStripePayload(payload: string, secret: string, timestampSeconds: number): string {
  return `t=${timestampSeconds},v1=${computeStripeSignature(payload, secret, timestampSeconds)}`
}

/**
 * Verifies the signature (any v1 may match: Stripe sends several while a secret is rolled; other schemes such as
 * test mode's v0 are ignored), then the timestamp's freshness, then maps the event. Throws StripeWebhookError.
 */
export function parseStripeWebhook({
  rawBody,
  signatureHeader,
  secret,
  nowSeconds = Math.floor(Date.now() / 1000),
  toleranceSeconds = DEFAULT_WEBHOOK_TOLERANCE_S,
}: ParseStripeWebhookInput): StripeWebhookEvent {
  if (!secret) throw new StripeWebhookError('The Stripe webhook signing secret is not configured.')
  if (typeof signatureHeader !== 'string' || signatureHeader.trim() === '') throw new StripeWebhookError('The Stripe-Signature header is missing.')

  let timestamp: number | null = null
  const signatures: string[] = []
  for (const part of signatureHeader.split(',')) {
    const at = part.indexOf('=')
    if (at <= 0) throw new StripeWebhookError('The Stripe-Signature header is malformed.')
    const key = part.slice(0, at).trim()
    const value = part.slice(at + 1).trim()
    if (key === 't') {
      if (!/^\d{1,12}$/.test(value) || timestamp !== null) throw new StripeWebhookError('The Stripe-Signature header has a malformed timestamp.')
      timestamp = Number(value)
    } else if (key === 'v1') signatures.push(value)
  }
  if (timestamp === null) throw new StripeWebhookError('The Stripe-Signature header has no timestamp.')
  if (signatures.length === 0) throw new StripeWebhookError('The Stripe-Signature header has no v1 signature.')

  const expected = Buffer.from(computeStripeSignature(rawBody, secret, timestamp), 'hex')
  let matched = false
  for (const signature of signatures) {
    if (!/^[0-9a-f]{64}$/i.test(signature)) continue
    if (timingSafeEqual(expected, Buffer.from(signature, 'hex'))) matched = true
  }
  if (!matched) throw new StripeWebhookError('No Stripe-Signature v1 signature matches the payload.')
  if (Math.abs(nowSeconds - timestamp) > toleranceSeconds)
    throw new StripeWebhookError(`The Stripe-Signature timestamp is outside the ${toleranceSeconds} s tolerance (possible replay).`)

  let event: unknown
  try {
    event = JSON.parse(typeof rawBody === 'string' ? rawBody : Buffer.from(rawBody).toString('utf8'))
  } catch {
    throw new StripeWebhookError('The Stripe event body is not JSON.')
  }
  if (!isRecord(event) || typeof event.id !== 'string' || typeof event.type !== 'string') throw new StripeWebhookError('The Stripe event has no id or type.')
  const eventId = event.id
  const type = event.type
  const ignored = { eventId, type, providerSessionId: null, checkoutSessionId: null, state: null }
  if ((STRIPE_REFUND_EVENT_TYPES as readonly string[]).includes(type))
    return { ...ignored, refund: stripeChargeRefund(type, isRecord(event.data) ? event.data.object : undefined) }
  if (!(STRIPE_CHECKOUT_EVENT_TYPES as readonly string[]).includes(type)) return ignored

  const session = isRecord(event.data) ? event.data.object : undefined
  if (!isRecord(session) || session.object !== 'checkout.session' || typeof session.id !== 'string')
    throw new StripeWebhookError(`The Stripe ${type} event carries no checkout session.`)
  const checkout = session as unknown as StripeCheckoutSession
  // A completed session maps like a retrieve (paid, or processing for a delayed method); the others say what happened.
  const status: PaymentState['status'] | null =
    type === 'checkout.session.async_payment_succeeded'
      ? 'paid'
      : type === 'checkout.session.async_payment_failed'
        ? 'failed'
        : type === 'checkout.session.expired'
          ? 'expired'
          : stripeSessionStatus(checkout)
  if (status === null) throw new StripeWebhookError(`The Stripe ${type} event carries a session with an unknown status.`)
  const metadata = isRecord(checkout.metadata) ? checkout.metadata : {}
  const checkoutSessionId = typeof metadata.checkout_session_id === 'string' ? metadata.checkout_session_id : null
  return { eventId, type, providerSessionId: checkout.id, checkoutSessionId, state: { status, ...stripeSessionDetails(checkout) } }
}

/** Reads a refund event's Charge; anything that is not one throws StripeWebhookError. */
function stripeChargeRefund(type: string, charge: unknown): StripeChargeRefund {
  if (!isRecord(charge) || charge.object !== 'charge' || typeof charge.id !== 'string' || charge.id === '')
    throw new StripeWebhookError(`The Stripe ${type} event carries no charge.`)
  const cents = (value: unknown) => typeof value === 'number' && Number.isInteger(value) && value >= 0
  if (!cents(charge.amount) || !cents(charge.amount_refunded) || typeof charge.refunded !== 'boolean')
    throw new StripeWebhookError(`The Stripe ${type} event carries charge ${charge.id} without its amounts.`)
  const intent = charge.payment_intent
  const paymentIntentId =
    typeof intent === 'string' && intent !== '' ? intent : isRecord(intent) && typeof intent.id === 'string' && intent.id !== '' ? intent.id : null
  if (intent !== null && intent !== undefined && paymentIntentId === null)
    throw new StripeWebhookError(`The Stripe ${type} event carries charge ${charge.id} with a malformed payment_intent.`)
  return {
    chargeId: charge.id,
    paymentIntentId,
    fullyRefunded: charge.refunded,
    amountCents: charge.amount as number,
    amountRefundedCents: charge.amount_refunded as number,
  }
}
