/**
 * The Stripe payment provider: the `PaymentProvider` built on Checkout Sessions with the official SDK (`stripe`),
 * and webhook verification. Server-only; the secret key never leaves this module, not even in error messages.
 *
 * The SDK does the wire work: form encoding, auth, the pinned Stripe-Version, retries with backoff (network
 * failures, 409, 5xx, and whatever `Stripe-Should-Retry` says), timeouts, and webhook signatures. What stays ours
 * (docs/decisions/028-stripe-sdk.md): mapping Stripe's session onto our statuses and address, clamping
 * `expires_at`, one coupon for all discounts, our idempotency keys, and turning Stripe's errors into
 * PaymentProviderError (the API answers 502 with its message).
 *
 * Stripe's rules this relies on:
 * - Stripe saves the first answer for an Idempotency-Key (24 h) and replays it, and answers 400
 *   `idempotency_error` when the key is reused with other parameters. Our keys derive from our checkout session,
 *   so a repeated create (ours, or the SDK's retry, which re-sends the same key) never makes a second object.
 * - Checkout copies `payment_intent_data.metadata` onto the PaymentIntent it creates, so a refund (whose event
 *   carries a Charge, which names its PaymentIntent) leads back to our checkout session.
 */
import Stripe from 'stripe'
import type { ShippingAddress } from '../../../contract/cart'
import {
  PaymentProviderError,
  type CreatePaymentSessionInput,
  type PaymentProvider,
  type PaymentSession,
  type PaymentState,
  type TaxCalculation,
  type TaxCalculationInput,
} from './provider'

/**
 * The API version every request pins. The SDK's types describe exactly this version, so it is the SDK's own:
 * an SDK upgrade that moves it fails the typecheck here until someone has read Stripe's changelog.
 */
export const STRIPE_API_VERSION = '2026-10-28.endive' satisfies Stripe.LatestApiVersion
/** Retries after the first attempt, with the SDK's backoff (0.5 s, then 1 s, jittered). */
export const STRIPE_MAX_NETWORK_RETRIES = 2
/** Per attempt: a shopper is waiting on checkout, so far below the SDK's default 80 s. */
export const STRIPE_TIMEOUT_MS = 20_000
/** Stripe: `expires_at` must be 30 minutes to 24 hours after creation. We keep a minute inside both ends. */
const MIN_EXPIRY_S = 30 * 60 + 60
const MAX_EXPIRY_S = 24 * 60 * 60 - 60
/** The coupon's name on Stripe's payment page and receipt (Stripe allows 40 characters). */
export const STRIPE_DISCOUNT_NAME = 'Bundle savings and store credit'
/** Stripe Tax's product tax code for the ornaments: General - Tangible Goods. */
export const STRIPE_GOODS_TAX_CODE = 'txcd_99999999'
/** Stripe Tax's "Nontaxable" product tax code: a line taxed at 0 (its tax was calculated elsewhere). */
export const STRIPE_NONTAXABLE_TAX_CODE = 'txcd_00000000'
/** Stripe Tax's tax code for a shipping charge: Shipping (taxed where the destination state taxes it). */
export const STRIPE_SHIPPING_TAX_CODE = 'txcd_92010001'
/** Stripe's default and recommended webhook timestamp tolerance. */
export const DEFAULT_WEBHOOK_TOLERANCE_S = 300

export type StripeClientOptions = {
  secretKey: string
  /** Where the API is; by default the SDK's https://api.stripe.com. Tests point these at the Stripe double. */
  host?: string
  port?: number
  protocol?: 'http' | 'https'
}

/** An SDK client with our API version, retry and timeout policy. */
export function createStripeClient({ secretKey, host, port, protocol }: StripeClientOptions): Stripe {
  if (!secretKey) throw new PaymentProviderError('Stripe is not configured: the secret key is empty.')
  return new Stripe(secretKey, {
    apiVersion: STRIPE_API_VERSION,
    maxNetworkRetries: STRIPE_MAX_NETWORK_RETRIES,
    timeout: STRIPE_TIMEOUT_MS,
    appInfo: { name: 'Keepsake' },
    ...(host === undefined ? {} : { host }),
    ...(port === undefined ? {} : { port }),
    ...(protocol === undefined ? {} : { protocol }),
  })
}

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

/** One SDK call; Stripe's errors (API refusals, and failures to reach Stripe after the SDK's retries) become StripeApiError. */
async function stripeCall<T>(call: string, request: () => Promise<T>): Promise<T> {
  try {
    return await request()
  } catch (error) {
    throw stripeFailure(call, error)
  }
}

function stripeFailure(call: string, error: unknown): unknown {
  if (!(error instanceof Stripe.errors.StripeError)) return error
  if (error instanceof Stripe.errors.StripeConnectionError || error.statusCode === undefined) {
    const detail = error.detail instanceof Error ? `: ${error.detail.message}` : ''
    return new StripeApiError(redact(`Stripe ${call} failed: could not reach Stripe (${error.message}${detail}).`.slice(0, 700)), undefined)
  }
  const kind = [error.rawType, error.code].filter(Boolean).join(', ')
  return new StripeApiError(
    redact(`Stripe ${call} failed with HTTP ${error.statusCode}${kind ? ` (${kind})` : ''}: ${(error.message || 'no error message').slice(0, 500)}`),
    error.statusCode,
    error.rawType ?? null,
    error.code ?? null,
    error.param ?? null,
  )
}

/** Every message passes here, so nothing Stripe or the network echoes can leak a key (app.config.ts accepts only sk_… keys). */
function redact(message: string) {
  return message.replace(/\b(sk|rk)_(live|test)_[A-Za-z0-9]+/g, '$1_$2_[redacted]').replace(/\bwhsec_[A-Za-z0-9]+/g, 'whsec_[redacted]')
}

const isWholeCents = (value: unknown): value is number => typeof value === 'number' && Number.isInteger(value) && value >= 0
const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value)

/**
 * The Checkout Session fields the mapping reads: a retrieved session, or an event's, whose shape follows the
 * webhook endpoint's API version rather than the SDK's.
 */
export type StripeSessionFields = Pick<Stripe.Checkout.Session, 'id' | 'status' | 'payment_status' | 'amount_total' | 'customer_email' | 'metadata'> & {
  /** With Stripe Tax, amount_tax is the tax it added to amount_total. */
  total_details?: { amount_tax?: number | null } | null
  customer_details: { email: string | null; name: string | null; phone: string | null } | null
  collected_information?: { shipping_details: StripeShippingDetails | null } | null
  /** Before 2025-03-31.basil (collected_information since); an older webhook endpoint still sends it. */
  shipping_details?: StripeShippingDetails | null
  /** An id, or the PaymentIntent when expanded. */
  payment_intent: string | { status: string } | null
}

type StripeShippingDetails = { address: Stripe.Address | null; name: string | null }

/** Payment intent statuses that mean an attempted (async) payment failed and the session will not be paid. */
const FAILED_INTENT_STATUSES = new Set(['requires_payment_method', 'canceled'])

/**
 * open → open; complete + paid/no_payment_required → paid; complete + unpaid → processing (a delayed method
 * such as ACH), or failed when the expanded payment intent says the attempt failed; expired → expired.
 */
export function stripeSessionState(session: StripeSessionFields): PaymentState {
  const status = stripeSessionStatus(session)
  if (status === null) throw new PaymentProviderError(`Stripe answered checkout session ${session.id} with an unknown status (${String(session.status)}).`)
  return { status, ...stripeSessionDetails(session) }
}

function stripeSessionDetails(session: StripeSessionFields): Omit<PaymentState, 'status'> {
  return {
    shippingAddress: stripeShippingAddress(session),
    amountTotalCents: typeof session.amount_total === 'number' ? session.amount_total : null,
    taxCents: isWholeCents(session.total_details?.amount_tax) ? session.total_details.amount_tax : null,
  }
}

function stripeSessionStatus(session: StripeSessionFields): PaymentState['status'] | null {
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
export function stripeShippingAddress(session: StripeSessionFields): ShippingAddress | null {
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

export type StripePaymentProviderOptions = {
  /** Clock for clamping `expires_at`. Default Date.now. */
  now?: () => number
}

export class StripePaymentProvider implements PaymentProvider {
  readonly name = 'stripe' as const
  private readonly now: () => number

  constructor(
    readonly stripe: Stripe,
    options: StripePaymentProviderOptions = {},
  ) {
    this.now = options.now ?? Date.now
  }

  async createSession(input: CreatePaymentSessionInput): Promise<PaymentSession> {
    validateInput(input)
    // Bundle savings and store credit travel as one coupon: a session takes a single discount, and amount_off
    // coupons discount the line items only, so the charge equals our totals (pricing.ts keeps shipping out of both).
    let coupon: Stripe.Coupon | null = null
    if (input.discountCents > 0)
      coupon = await stripeCall('create coupon', () =>
        this.stripe.coupons.create(
          {
            amount_off: input.discountCents,
            currency: 'usd',
            duration: 'once',
            max_redemptions: 1,
            name: STRIPE_DISCOUNT_NAME,
            metadata: { checkout_session_id: input.checkoutSessionId },
          },
          { idempotencyKey: `${input.idempotencyKey}:coupon` },
        ),
      )

    const params: Stripe.Checkout.SessionCreateParams = {
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
          ...(input.automaticTax ? { tax_behavior: 'exclusive' as const } : {}),
          product_data: {
            name: line.name,
            ...(input.automaticTax ? { tax_code: line.taxCode ?? STRIPE_GOODS_TAX_CODE } : {}),
            // Stripe's servers fetch the image, so only a public https URL is worth sending.
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
                  type: 'fixed_amount',
                  display_name: input.shippingCents > 0 ? `${input.shippingMethod?.label ?? 'Standard'} shipping` : 'Free shipping',
                  fixed_amount: { amount: input.shippingCents, currency: 'usd' },
                  ...(input.automaticTax ? { tax_behavior: 'exclusive' as const, tax_code: STRIPE_SHIPPING_TAX_CODE } : {}),
                  ...(input.shippingMethod
                    ? { delivery_estimate: { maximum: { unit: 'business_day' as const, value: input.shippingMethod.businessDays } } }
                    : {}),
                },
              },
            ],
          }),
      discounts: coupon ? [{ coupon: coupon.id }] : undefined,
      // Stripe Tax on the address Checkout collects: the tax is added to the total and reported in total_details.
      ...(input.automaticTax ? { automatic_tax: { enabled: true } } : {}),
    }
    const session = await stripeCall('create checkout session', () => this.stripe.checkout.sessions.create(params, { idempotencyKey: input.idempotencyKey }))
    if (typeof session.url !== 'string' || session.url === '')
      throw new PaymentProviderError(`Stripe created checkout session ${session.id} without a payment page URL.`)
    return { providerSessionId: session.id, url: session.url }
  }

  async retrieveSession(providerSessionId: string): Promise<PaymentState> {
    // Expanded, so a complete but unpaid session can tell a failed delayed payment from one still processing.
    const session = await stripeCall('retrieve checkout session', () =>
      this.stripe.checkout.sessions.retrieve(providerSessionId, { expand: ['payment_intent'] }),
    )
    return stripeSessionState(session)
  }

  /**
   * Expires an open session. Stripe refuses any session that is not open (400); then this looks the session up:
   * already expired is success (expiring is idempotent), but a completed session was paid (or is being paid),
   * which the caller must not lose, so that throws a PaymentProviderError with status 409.
   */
  async expireSession(providerSessionId: string): Promise<void> {
    try {
      await stripeCall('expire checkout session', () =>
        this.stripe.checkout.sessions.expire(providerSessionId, undefined, { idempotencyKey: `expire:${providerSessionId}` }),
      )
    } catch (error) {
      if (!(error instanceof StripeApiError) || error.status !== 400 || error.type !== 'invalid_request_error') throw error
      const session = await stripeCall('retrieve checkout session', () => this.stripe.checkout.sessions.retrieve(providerSessionId))
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
   * Stripe Tax on goods shipped to a known address (POST /v1/tax/calculations), all tax-exclusive: the lines as
   * goods, the shipping as shipping. Stripe keeps the calculation (its id) for 90 days.
   */
  async calculateTax(input: TaxCalculationInput): Promise<TaxCalculation> {
    validateTaxInput(input)
    const { address } = input
    const params: Stripe.Tax.CalculationCreateParams = {
      currency: 'usd',
      customer_details: {
        address: {
          line1: address.line1,
          ...(address.line2 ? { line2: address.line2 } : {}),
          city: address.city,
          state: address.state,
          postal_code: address.postalCode,
          country: address.country,
        },
        address_source: 'shipping',
      },
      line_items: input.lines.map((line) => ({
        amount: line.amountCents,
        quantity: line.quantity,
        reference: line.reference,
        tax_behavior: 'exclusive',
        tax_code: STRIPE_GOODS_TAX_CODE,
      })),
      shipping_cost: { amount: input.shippingCents, tax_code: STRIPE_SHIPPING_TAX_CODE, tax_behavior: 'exclusive' },
    }
    const calculation = await stripeCall('create tax calculation', () => this.stripe.tax.calculations.create(params, { idempotencyKey: input.idempotencyKey }))
    if (!isWholeCents(calculation.tax_amount_exclusive))
      throw new PaymentProviderError(`Stripe answered tax calculation ${String(calculation.id)} without a tax amount.`)
    if (typeof calculation.id !== 'string' || calculation.id === '') throw new PaymentProviderError('Stripe answered a tax calculation without an id.')
    return { taxCents: calculation.tax_amount_exclusive, calculationId: calculation.id }
  }

  /**
   * Our checkout session id for a Stripe PaymentIntent (its metadata.checkout_session_id, copied there from the
   * session's payment_intent_data), or null when Stripe has no such PaymentIntent or it does not carry one.
   * Other failures (network, 5xx, auth) throw, so a webhook answers non-2xx and Stripe delivers it again.
   */
  async checkoutSessionIdOfPaymentIntent(paymentIntentId: string): Promise<string | null> {
    let intent: Stripe.PaymentIntent
    try {
      intent = await stripeCall('retrieve payment intent', () => this.stripe.paymentIntents.retrieve(paymentIntentId))
    } catch (error) {
      if (error instanceof StripeApiError && error.status === 404 && error.code === 'resource_missing') return null
      throw error
    }
    const id = isRecord(intent.metadata) ? intent.metadata.checkout_session_id : undefined
    return typeof id === 'string' && id !== '' ? id : null
  }

  /** Stripe accepts 30 min to 24 h ahead; a value outside is moved just inside, so the create never fails on it. */
  private expiresAt(at: Date): number {
    const now = Math.floor(this.now() / 1000)
    const wanted = Math.floor(at.getTime() / 1000)
    return Math.min(Math.max(wanted, now + MIN_EXPIRY_S), now + MAX_EXPIRY_S)
  }
}

/** Refused before calling Stripe: amounts Stripe cannot charge would otherwise cost a round trip (and a retry) each. */
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

/** Refused before calling Stripe, as validateInput. */
function validateTaxInput(input: TaxCalculationInput) {
  const wholeCents = (value: number) => Number.isInteger(value) && value >= 0
  if (input.lines.length === 0) throw new PaymentProviderError('Stripe Tax needs at least one line to calculate tax on.')
  const references = new Set<string>()
  for (const line of input.lines) {
    if (!wholeCents(line.amountCents)) throw new PaymentProviderError(`Stripe Tax needs whole, non-negative cents, not ${line.amountCents}.`)
    if (!Number.isInteger(line.quantity) || line.quantity < 1)
      throw new PaymentProviderError(`Stripe Tax needs a whole, positive quantity, not ${line.quantity}.`)
    if (line.reference === '' || references.has(line.reference))
      throw new PaymentProviderError(`Stripe Tax needs a unique, non-empty reference for every line, not "${line.reference}".`)
    references.add(line.reference)
  }
  if (!wholeCents(input.shippingCents)) throw new PaymentProviderError(`Stripe Tax needs whole, non-negative shipping cents, not ${input.shippingCents}.`)
  if (!input.idempotencyKey) throw new PaymentProviderError('Stripe tax calculation needs an idempotency key.')
}

function isHttps(raw: string): boolean {
  try {
    return new URL(raw).protocol === 'https:'
  } catch {
    return false
  }
}

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

/**
 * Verifies the signature with the SDK (`Stripe-Signature: t=…,v1=…`; any v1 may match while a secret is rolled,
 * other schemes such as test mode's v0 are ignored) and the timestamp's age, refuses a timestamp as far in the
 * future, then maps the event. Throws StripeWebhookError.
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

  let event: unknown
  try {
    event = Stripe.webhooks.constructEvent(rawBody, signatureHeader, secret, toleranceSeconds, undefined, nowSeconds * 1000)
  } catch (error) {
    if (error instanceof Stripe.errors.StripeSignatureVerificationError)
      throw new StripeWebhookError(`The Stripe-Signature header does not verify: ${error.message.split('\n')[0]!.trim()}`)
    if (error instanceof SyntaxError) throw new StripeWebhookError('The Stripe event body is not JSON.')
    throw error
  }
  // The SDK bounds only the age; a timestamp from the future is refused by the same tolerance, as a replay guard.
  const signedAt = signatureTimestamp(signatureHeader)
  if (signedAt - nowSeconds > toleranceSeconds)
    throw new StripeWebhookError(`The Stripe-Signature timestamp is ${signedAt - nowSeconds} s ahead, outside the ${toleranceSeconds} s tolerance.`)

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
  const checkout = session as unknown as StripeSessionFields
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

/** The header's `t`, read as the SDK reads it (the last `t=` wins); the SDK has already verified it is signed. */
function signatureTimestamp(header: string): number {
  let timestamp = Number.NaN
  for (const part of header.split(',')) {
    const [key, value] = part.split('=')
    if (key === 't') timestamp = Number.parseInt(value ?? '', 10)
  }
  return timestamp
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
