import Stripe from 'stripe'
import { afterEach, describe, expect, it } from 'vitest'
import { shippingAddressSchema } from '../../app/contract/cart'
import { PaymentProviderError, type CreatePaymentSessionInput, type TaxCalculationInput } from '../../app/api/providers/payments/provider'
import {
  STRIPE_API_VERSION,
  STRIPE_MAX_NETWORK_RETRIES,
  StripeApiError,
  StripePaymentProvider,
  STRIPE_GOODS_TAX_CODE,
  STRIPE_NONTAXABLE_TAX_CODE,
  STRIPE_SHIPPING_TAX_CODE,
  StripeWebhookError,
  createStripeClient,
  parseStripeWebhook,
  stripeShippingAddress,
  type StripeSessionFields,
} from '../../app/api/providers/payments/stripe'
import { MOCK_STRIPE_SECRET_KEY, MOCK_STRIPE_WEBHOOK_SECRET, createStripeMock, mockStripeTax, type StripeMockServer } from '../support/stripe-mock'

const START = Date.UTC(2025, 0, 15, 12, 0, 0)
const START_S = START / 1000
const SUCCESS_URL = 'https://keepsake.shop/checkout/success?session_id={CHECKOUT_SESSION_ID}&from=stripe'
const CHECKOUT_ID = '7d6c1f0e-3b7a-4d8e-9f21-0c5a6b7e8d90'
const CART_ID = '0f9e8d7c-6b5a-4c3d-8e2f-1a0b9c8d7e6f'

const servers: StripeMockServer[] = []
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()))
})

/**
 * The Stripe double served over HTTP, the SDK pointed at it (host, port, protocol 'http') and the provider on that
 * SDK. One clock for the double and the provider; the SDK's retries wait in real time.
 */
async function setup({ secretKey = MOCK_STRIPE_SECRET_KEY }: { secretKey?: string } = {}) {
  let t = START
  const now = () => t
  const mock = createStripeMock({ now })
  const server = await mock.listen()
  servers.push(server)
  const stripe = createStripeClient({ secretKey, ...server.endpoint })
  const provider = new StripePaymentProvider(stripe, { now })
  return {
    mock,
    server,
    stripe,
    provider,
    advance: (ms: number) => {
      t += ms
    },
  }
}

/** A `Stripe-Signature` header for `payload`, made by the SDK's own test helper. */
const signStripePayload = (payload: string, secret: string, timestamp: number) => Stripe.webhooks.generateTestHeaderString({ payload, secret, timestamp })

function sessionInput(overrides: Partial<CreatePaymentSessionInput> = {}): CreatePaymentSessionInput {
  return {
    checkoutSessionId: CHECKOUT_ID,
    cartId: CART_ID,
    customerEmail: 'ada@example.org',
    lines: [
      {
        name: 'Tree Photo Ornament (pair)',
        unitAmountCents: 2499,
        quantity: 2,
        imageUrl: 'https://cdn.keepsake.shop/previews/ornament.png',
      },
      // Stripe's servers cannot fetch this one, so it is left out.
      { name: 'Photo Mug', unitAmountCents: 1500, quantity: 1, imageUrl: 'http://localhost:3000/previews/mug.png' },
    ],
    shippingCents: 599,
    discountCents: 0,
    successUrl: SUCCESS_URL,
    cancelUrl: 'https://keepsake.shop/cart',
    expiresAt: new Date(START + 60 * 60 * 1000),
    idempotencyKey: `checkout:${CHECKOUT_ID}`,
    ...overrides,
  }
}
/** 2 × 24.99 + 15.00 */
const SUBTOTAL = 6498

/** The goods of sessionInput's lines, as a Tax Calculation's lines (their totals), to a known address. */
function taxInput(overrides: Partial<TaxCalculationInput> = {}): TaxCalculationInput {
  return {
    address: { line1: '11 Congress Ave', city: 'Austin', state: 'TX', postalCode: '78701', country: 'US' },
    lines: [
      { reference: 'parcel-2:ornament', amountCents: 2 * 2499, quantity: 2 },
      { reference: 'parcel-2:mug', amountCents: 1500, quantity: 1 },
    ],
    shippingCents: 599,
    idempotencyKey: `tax:${CHECKOUT_ID}:parcel-2`,
    ...overrides,
  }
}
/** Every attempt the SDK makes before it gives up. */
const ATTEMPTS = STRIPE_MAX_NETWORK_RETRIES + 1

async function failure<E extends Error = PaymentProviderError>(
  promise: Promise<unknown>,
  type: abstract new (...args: never[]) => E = PaymentProviderError as never,
): Promise<E> {
  const error = await promise.then(
    () => {
      throw new Error('expected the call to fail')
    },
    (e: unknown) => e,
  )
  expect(error).toBeInstanceOf(type)
  return error as E
}

function throwsWebhookError(run: () => unknown): StripeWebhookError {
  try {
    run()
  } catch (error) {
    expect(error).toBeInstanceOf(StripeWebhookError)
    return error as StripeWebhookError
  }
  throw new Error('expected the webhook to be refused')
}

describe('the SDK’s requests, as Stripe reads them', () => {
  it('sends the secret as Bearer, the pinned Stripe-Version, a form body and our Idempotency-Key on every POST', async () => {
    const { mock, provider } = await setup()
    const session = await provider.createSession(sessionInput({ discountCents: 500 }))
    await provider.retrieveSession(session.providerSessionId)

    expect(mock.calls.map((c) => `${c.method} ${c.path}`)).toEqual([
      'POST /v1/coupons',
      'POST /v1/checkout/sessions',
      `GET /v1/checkout/sessions/${session.providerSessionId}`,
    ])
    for (const call of mock.calls) {
      expect(call.headers.authorization).toBe(`Bearer ${mock.secretKey}`)
      expect(call.headers['stripe-version']).toBe(STRIPE_API_VERSION)
    }
    const [coupon, create, retrieve] = mock.calls
    expect(coupon!.idempotencyKey).toBe(`checkout:${CHECKOUT_ID}:coupon`)
    expect(create!.idempotencyKey).toBe(`checkout:${CHECKOUT_ID}`)
    expect(create!.headers['content-type']).toBe('application/x-www-form-urlencoded')
    expect(retrieve!.idempotencyKey).toBeNull()
  })

  it('names, metadata and the {CHECKOUT_SESSION_ID} placeholder reach Stripe exactly as given', async () => {
    const { mock, provider } = await setup()
    const name = "Mom's (best) *gift*! Tree & Star [pair] 100% ☃"
    const result = await provider.createSession(sessionInput({ lines: [{ name, unitAmountCents: 2499, quantity: 2 }] }))
    const [create] = mock.callsTo('POST', '/v1/checkout/sessions')
    expect(create!.body.line_items).toEqual([{ quantity: '2', price_data: { currency: 'usd', unit_amount: '2499', product_data: { name } } }])
    expect(create!.body.metadata).toEqual({ checkout_session_id: CHECKOUT_ID })
    // What Stripe keeps is the literal placeholder it will replace with the session id.
    expect(mock.sessions.get(result.providerSessionId)!.success_url).toBe(SUCCESS_URL)
  })
})

describe('retries: the SDK’s policy', () => {
  it('retries a create that got a 500 with the same key and body, leaving one session', async () => {
    const { mock, provider } = await setup()
    mock.failNext(500)
    const session = await provider.createSession(sessionInput())

    const creates = mock.callsTo('POST', '/v1/checkout/sessions')
    expect(creates.map((c) => c.status)).toEqual([500, 200])
    expect(creates[1]!.idempotencyKey).toBe(creates[0]!.idempotencyKey)
    expect(creates[1]!.rawBody).toBe(creates[0]!.rawBody)
    expect([...mock.sessions.keys()]).toEqual([session.providerSessionId])
  })

  it('retries a create lost to a dropped connection before Stripe saw it, leaving one session', async () => {
    const { mock, provider } = await setup()
    mock.networkErrorNext()
    const session = await provider.createSession(sessionInput())
    expect(mock.callsTo('POST', '/v1/checkout/sessions').map((c) => c.status)).toEqual([0, 200])
    expect([...mock.sessions.keys()]).toEqual([session.providerSessionId])
  })

  it('gets Stripe’s saved answer when the first answer was lost after Stripe created the session', async () => {
    const { mock, provider } = await setup()
    mock.networkErrorNext({ processed: true })
    const session = await provider.createSession(sessionInput())

    const creates = mock.callsTo('POST', '/v1/checkout/sessions')
    expect(creates.map((c) => [c.status, c.replayed])).toEqual([
      [0, false],
      [200, true],
    ])
    expect(mock.sessions.size).toBe(1)
    expect(mock.sessions.get(session.providerSessionId)).toBeDefined()
  })

  it('retries a 409 (the same key still running); a 429 without Stripe-Should-Retry is answered at once', async () => {
    const { mock, provider } = await setup()
    mock.failNext(409)
    const session = await provider.createSession(sessionInput({ discountCents: 500 }))
    expect(mock.calls.map((c) => `${c.path} ${c.status}`)).toEqual(['/v1/coupons 409', '/v1/coupons 200', '/v1/checkout/sessions 200'])
    expect(mock.coupons.size).toBe(1)
    expect(mock.sessions.get(session.providerSessionId)!.total_details.amount_discount).toBe(500)

    mock.failNext(429)
    const limited = await failure(provider.retrieveSession(session.providerSessionId), StripeApiError)
    expect(limited.status).toBe(429)
    expect(mock.callsTo('GET', '/v1/checkout/sessions/')).toHaveLength(1)
  })

  it(`gives up after ${STRIPE_MAX_NETWORK_RETRIES} retries with Stripe’s message`, async () => {
    const { mock, provider } = await setup()
    for (let i = 0; i < ATTEMPTS; i++) mock.failNext(500)
    const error = await failure(provider.createSession(sessionInput({ discountCents: 500 })))
    expect(mock.calls.map((c) => c.status)).toEqual(Array(ATTEMPTS).fill(500))
    expect(error.status).toBe(500)
    expect(error.message).toBe('Stripe create coupon failed with HTTP 500 (api_error): An unknown error occurred')
    expect(mock.coupons.size).toBe(0)
    expect(mock.sessions.size).toBe(0)
  })

  it('honours Stripe-Should-Retry: false on a 503 and true on a 400', async () => {
    const { mock, provider } = await setup()
    mock.failNext(503, undefined, { headers: { 'Stripe-Should-Retry': 'false' } })
    const error = await failure(provider.createSession(sessionInput({ discountCents: 500 })))
    expect(error.status).toBe(503)
    expect(mock.calls).toHaveLength(1)

    mock.failNext(400, { error: { type: 'invalid_request_error', code: 'lock_timeout', message: 'busy' } }, { headers: { 'Stripe-Should-Retry': 'true' } })
    await provider.createSession(sessionInput({ discountCents: 500 }))
    expect(mock.calls.map((c) => `${c.path} ${c.status}`)).toEqual(['/v1/coupons 503', '/v1/coupons 400', '/v1/coupons 200', '/v1/checkout/sessions 200'])
  })

  it('turns a 4xx into a PaymentProviderError with Stripe’s message, without retrying', async () => {
    const { mock, provider } = await setup()
    const error = await failure(provider.createSession(sessionInput({ customerEmail: 'ada-at-example' })), StripeApiError)
    expect(error.status).toBe(400)
    expect(error.type).toBe('invalid_request_error')
    expect(error.code).toBe('email_invalid')
    expect(error.param).toBe('customer_email')
    expect(error.message).toBe(
      'Stripe create checkout session failed with HTTP 400 (invalid_request_error, email_invalid): Invalid email address: ada-at-example',
    )
    expect(mock.calls).toHaveLength(1)
    expect(mock.sessions.size).toBe(0)
  })

  it('never puts a secret key in an error, whatever Stripe echoes', async () => {
    const wrongKey = 'sk_test_51WrongKeyForTheMockAbCdEfGhIjKlMnOp'
    const wrong = await setup({ secretKey: wrongKey })
    const unauthorised = await failure(wrong.provider.retrieveSession('cs_test_missing'))
    expect(unauthorised.status).toBe(401)
    expect(unauthorised.message).toMatch(/^Stripe retrieve checkout session failed with HTTP 401 \(invalid_request_error\): Invalid API Key provided: sk_test_/)
    expect(unauthorised.message).not.toContain(wrongKey)
    expect(wrong.mock.calls).toHaveLength(1)

    const { mock, provider } = await setup()
    const restricted = 'rk_live_51RestrictedKeyAbCdEfGhIjKlMnOp'
    mock.failNext(400, { error: { type: 'invalid_request_error', message: `Keys ${mock.secretKey} and ${restricted} are not allowed here` } })
    const echoed = await failure(provider.retrieveSession('cs_test_missing'))
    expect(echoed.message).not.toContain(mock.secretKey)
    expect(echoed.message).not.toContain(restricted)
    expect(echoed.message).toContain('sk_test_[redacted] and rk_live_[redacted]')
  })

  it('answers a Stripe it cannot reach, after the retries, as a PaymentProviderError without a status', async () => {
    const { server, provider } = await setup()
    await server.close() // nothing listens on that port any more: every attempt is refused
    const error = await failure(provider.retrieveSession('cs_test_1'), StripeApiError)
    expect(error.status).toBeUndefined()
    expect(error.message).toMatch(/^Stripe retrieve checkout session failed: could not reach Stripe \(/)
    expect(error.message).toContain(`retried ${STRIPE_MAX_NETWORK_RETRIES} times`)
    expect(error.message).toContain('ECONNREFUSED')
    expect(error.message).not.toContain(MOCK_STRIPE_SECRET_KEY)
  })

  it('a key reused with the same parameters replays Stripe’s answer; with others it is refused (idempotency_error)', async () => {
    const { mock, provider } = await setup()
    const first = await provider.createSession(sessionInput({ discountCents: 500 }))
    const again = await provider.createSession(sessionInput({ discountCents: 500 }))
    expect(again).toEqual(first)
    expect(mock.callsTo('POST', '/v1/coupons').map((c) => c.replayed)).toEqual([false, true])

    const error = await failure(provider.createSession(sessionInput({ discountCents: 700 })), StripeApiError)
    expect(error.status).toBe(400)
    expect(error.type).toBe('idempotency_error')
    expect(error.message).toMatch(/can only be used with the same parameters they were first used with/)
    expect(mock.coupons.size).toBe(1)
    expect(mock.sessions.size).toBe(1)
  })
})

describe('Stripe Tax on a checkout session (automaticTax)', () => {
  it('asks Stripe Tax for the tax: tax-exclusive prices, the goods and shipping tax codes, automatic_tax enabled', async () => {
    const { mock, provider } = await setup()
    await provider.createSession(sessionInput({ automaticTax: true, discountCents: 500 }))
    const [create] = mock.callsTo('POST', '/v1/checkout/sessions')
    expect(create!.body.automatic_tax).toEqual({ enabled: 'true' })
    const lines = create!.body.line_items as { price_data: { tax_behavior: string; product_data: { tax_code: string } } }[]
    for (const line of lines) {
      expect(line.price_data.tax_behavior).toBe('exclusive')
      expect(line.price_data.product_data.tax_code).toBe(STRIPE_GOODS_TAX_CODE)
    }
    const [option] = create!.body.shipping_options as { shipping_rate_data: Record<string, unknown> }[]
    expect(option!.shipping_rate_data).toMatchObject({ tax_behavior: 'exclusive', tax_code: STRIPE_SHIPPING_TAX_CODE })
  })

  it('without automaticTax (an e-gift), sends none of it', async () => {
    const { mock, provider } = await setup()
    await provider.createSession(sessionInput())
    const [create] = mock.callsTo('POST', '/v1/checkout/sessions')
    expect(create!.body.automatic_tax).toBeUndefined()
    expect(JSON.stringify(create!.body)).not.toContain('tax_')
  })

  it('answers the tax Stripe added once the address is known, on the retrieve and on the completed event', async () => {
    const { mock, provider } = await setup()
    const { providerSessionId: id } = await provider.createSession(sessionInput({ automaticTax: true, discountCents: 500 }))
    expect((await provider.retrieveSession(id)).taxCents).toBe(0)
    mock.complete(id, { shipping: { state: 'TX', city: 'Austin', postalCode: '78701' } })
    const tax = mockStripeTax('TX', SUBTOTAL - 500, 599)
    expect(tax.shipping).toBeGreaterThan(0)
    const state = await provider.retrieveSession(id)
    expect(state).toMatchObject({ status: 'paid', taxCents: tax.total, amountTotalCents: SUBTOTAL - 500 + 599 + tax.total })
    const { rawBody, signatureHeader } = mock.event('checkout.session.completed', id)
    const event = parseStripeWebhook({ rawBody, signatureHeader, secret: MOCK_STRIPE_WEBHOOK_SECRET, nowSeconds: START_S })
    expect(event.state).toMatchObject({ taxCents: tax.total, amountTotalCents: SUBTOTAL - 500 + 599 + tax.total })
  })
})

describe('Stripe Tax for parcels to other addresses', () => {
  it('sends a line with taxCode under that code, so Stripe Tax charges nothing on it', async () => {
    const { mock, provider } = await setup()
    const { providerSessionId: id } = await provider.createSession(
      sessionInput({
        automaticTax: true,
        lines: [
          { name: 'Tree Photo Ornament (pair)', unitAmountCents: 2499, quantity: 2 },
          { name: 'Photo Mug (to Grandma)', unitAmountCents: 1500, quantity: 1, taxCode: STRIPE_NONTAXABLE_TAX_CODE },
        ],
      }),
    )
    const [create] = mock.callsTo('POST', '/v1/checkout/sessions')
    const lines = create!.body.line_items as { price_data: { tax_behavior: string; product_data: { tax_code: string } } }[]
    expect(lines.map((line) => line.price_data.product_data.tax_code)).toEqual([STRIPE_GOODS_TAX_CODE, STRIPE_NONTAXABLE_TAX_CODE])
    expect(lines.map((line) => line.price_data.tax_behavior)).toEqual(['exclusive', 'exclusive'])

    mock.complete(id, { shipping: { state: 'TX', city: 'Austin', postalCode: '78701' } })
    const tax = mockStripeTax('TX', 2 * 2499, 599)
    expect(tax.total).toBeLessThan(mockStripeTax('TX', SUBTOTAL, 599).total)
    expect(await provider.retrieveSession(id)).toMatchObject({ status: 'paid', taxCents: tax.total, amountTotalCents: SUBTOTAL + 599 + tax.total })
  })

  it('a taxCode without automaticTax is not sent (nothing is taxed)', async () => {
    const { mock, provider } = await setup()
    await provider.createSession(sessionInput({ lines: [{ name: 'Photo Mug', unitAmountCents: 1500, quantity: 1, taxCode: STRIPE_NONTAXABLE_TAX_CODE }] }))
    expect(JSON.stringify(mock.callsTo('POST', '/v1/checkout/sessions')[0]!.body)).not.toContain('tax_')
  })

  it('calculateTax sends Stripe’s documented Tax Calculation and answers tax_amount_exclusive and the id', async () => {
    const { mock, provider } = await setup()
    const result = await provider.calculateTax(taxInput({ address: { ...taxInput().address, line2: 'Suite 300' } }))

    expect(mock.calls.map((c) => `${c.method} ${c.path}`)).toEqual(['POST /v1/tax/calculations'])
    const [call] = mock.calls
    expect(call!.idempotencyKey).toBe(`tax:${CHECKOUT_ID}:parcel-2`)
    expect(call!.headers['content-type']).toBe('application/x-www-form-urlencoded')
    expect(call!.headers['stripe-version']).toBe(STRIPE_API_VERSION)
    expect(call!.body).toEqual({
      currency: 'usd',
      customer_details: {
        address: { line1: '11 Congress Ave', line2: 'Suite 300', city: 'Austin', state: 'TX', postal_code: '78701', country: 'US' },
        address_source: 'shipping',
      },
      line_items: [
        { amount: '4998', quantity: '2', reference: 'parcel-2:ornament', tax_behavior: 'exclusive', tax_code: STRIPE_GOODS_TAX_CODE },
        { amount: '1500', quantity: '1', reference: 'parcel-2:mug', tax_behavior: 'exclusive', tax_code: STRIPE_GOODS_TAX_CODE },
      ],
      shipping_cost: { amount: '599', tax_code: STRIPE_SHIPPING_TAX_CODE, tax_behavior: 'exclusive' },
    })

    const tax = mockStripeTax('TX', SUBTOTAL, 599)
    expect(tax.shipping).toBeGreaterThan(0)
    expect(result).toEqual({ taxCents: tax.total, calculationId: expect.stringMatching(/^taxcalc_/) })
    expect(mock.taxCalculations.get(result.calculationId)).toMatchObject({
      object: 'tax.calculation',
      currency: 'usd',
      amount_total: SUBTOTAL + 599 + tax.total,
      tax_amount_exclusive: tax.total,
      tax_amount_inclusive: 0,
      shipping_cost: { amount: 599, amount_tax: tax.shipping, tax_behavior: 'exclusive', tax_code: STRIPE_SHIPPING_TAX_CODE },
      customer_details: { address_source: 'shipping', address: { state: 'TX', postal_code: '78701', country: 'US' } },
    })
  })

  it('calculateTax leaves out an empty line2, and a retry with the same key gets the same calculation', async () => {
    const { mock, provider } = await setup()
    mock.failNext(500)
    const first = await provider.calculateTax(taxInput({ address: { ...taxInput().address, line2: '' } }))
    const again = await provider.calculateTax(taxInput())
    expect(again).toEqual(first)
    const calls = mock.callsTo('POST', '/v1/tax/calculations')
    expect(calls.map((c) => [c.status, c.replayed])).toEqual([
      [500, false],
      [200, false],
      [200, true],
    ])
    expect(calls[1]!.body.customer_details).toEqual({
      address: { line1: '11 Congress Ave', city: 'Austin', state: 'TX', postal_code: '78701', country: 'US' },
      address_source: 'shipping',
    })
    expect(mock.taxCalculations.size).toBe(1)
  })

  it('a calculation and a checkout session taxing the same goods at the same state charge the same tax', async () => {
    const states = [
      ['TX', 'Austin', '78701'],
      ['NY', 'Brooklyn', '11201'],
      ['CA', 'San Francisco', '94103'],
      ['WA', 'Seattle', '98101'],
      ['OR', 'Portland', '97201'],
      ['CO', 'Denver', '80202'],
    ] as const
    for (const [state, city, postalCode] of states) {
      const { mock, provider } = await setup()
      const { providerSessionId: id } = await provider.createSession(sessionInput({ automaticTax: true }))
      mock.complete(id, { shipping: { line1: '11 Main St', line2: null, state, city, postalCode } })
      const session = await provider.retrieveSession(id)
      const calculation = await provider.calculateTax(taxInput({ address: { line1: '11 Main St', city, state, postalCode, country: 'US' } }))
      expect(calculation.taxCents, state).toBe(session.taxCents)
      expect(calculation.taxCents, state).toBe(mockStripeTax(state, SUBTOTAL, 599).total)
    }
  })

  it('refuses what Stripe refuses, as a StripeApiError with Stripe’s message, without retrying', async () => {
    const { mock, provider } = await setup()
    const error = await failure(
      provider.calculateTax(taxInput({ address: { line1: '1 Nowhere Rd', city: 'Nowhere', state: 'ZZ', postalCode: '00000', country: 'US' } })),
      StripeApiError,
    )
    expect(error).toMatchObject({ status: 400, type: 'invalid_request_error', code: 'customer_tax_location_invalid', param: 'customer_details[address]' })
    expect(error.message).toMatch(/^Stripe create tax calculation failed with HTTP 400 \(invalid_request_error, customer_tax_location_invalid\): /)
    expect(mock.calls).toHaveLength(1)
    expect(mock.taxCalculations.size).toBe(0)

    for (let i = 0; i < ATTEMPTS; i++) mock.failNext(500)
    expect((await failure(provider.calculateTax(taxInput()), StripeApiError)).status).toBe(500)
  })

  it('refuses amounts Stripe cannot tax before calling it', async () => {
    const { mock, provider } = await setup()
    const line = { reference: 'a', amountCents: 100, quantity: 1 }
    for (const input of [
      taxInput({ lines: [] }),
      taxInput({ lines: [{ ...line, amountCents: -1 }] }),
      taxInput({ lines: [{ ...line, amountCents: 10.5 }] }),
      taxInput({ lines: [{ ...line, quantity: 0 }] }),
      taxInput({ lines: [line, { ...line }] }),
      taxInput({ shippingCents: -5 }),
      taxInput({ idempotencyKey: '' }),
    ])
      await failure(provider.calculateTax(input))
    expect(mock.calls).toHaveLength(0)
  })
})

describe('StripePaymentProvider.createSession', () => {
  it('creates the Checkout Session Stripe expects and answers its id and URL', async () => {
    const { mock, provider } = await setup()
    const result = await provider.createSession(sessionInput())

    const [create] = mock.callsTo('POST', '/v1/checkout/sessions')
    expect(create!.body).toEqual({
      mode: 'payment',
      client_reference_id: CART_ID,
      metadata: { checkout_session_id: CHECKOUT_ID },
      payment_intent_data: { metadata: { checkout_session_id: CHECKOUT_ID } },
      customer_email: 'ada@example.org',
      success_url: SUCCESS_URL,
      cancel_url: 'https://keepsake.shop/cart',
      expires_at: String(START_S + 3600),
      line_items: [
        {
          quantity: '2',
          price_data: {
            currency: 'usd',
            unit_amount: '2499',
            product_data: {
              name: 'Tree Photo Ornament (pair)',
              images: ['https://cdn.keepsake.shop/previews/ornament.png'],
            },
          },
        },
        { quantity: '1', price_data: { currency: 'usd', unit_amount: '1500', product_data: { name: 'Photo Mug' } } },
      ],
      shipping_address_collection: { allowed_countries: ['US'] },
      shipping_options: [
        {
          shipping_rate_data: {
            type: 'fixed_amount',
            display_name: 'Standard shipping',
            fixed_amount: { amount: '599', currency: 'usd' },
          },
        },
      ],
    })
    expect(mock.callsTo('POST', '/v1/coupons')).toHaveLength(0)

    const stored = mock.sessions.get(result.providerSessionId)!
    expect(result).toEqual({ providerSessionId: stored.id, url: stored.url })
    expect(result.providerSessionId).toMatch(/^cs_test_/)
    expect(result.url).toMatch(/^https:\/\/checkout\.stripe\.com\/c\/pay\/cs_test_/)
    // What Stripe keeps is the literal placeholder it will replace with the session id.
    expect(stored.success_url).toBe(SUCCESS_URL)
    expect(stored).toMatchObject({
      status: 'open',
      payment_status: 'unpaid',
      amount_subtotal: SUBTOTAL,
      amount_total: SUBTOTAL + 599,
      total_details: { amount_discount: 0, amount_shipping: 599, amount_tax: 0 },
      discounts: [],
      client_reference_id: CART_ID,
      metadata: { checkout_session_id: CHECKOUT_ID },
    })
  })

  it('an e-gift session (collectShipping false) asks for no address and charges no shipping', async () => {
    const { mock, provider } = await setup()
    const result = await provider.createSession(sessionInput({ shippingCents: 0, collectShipping: false }))
    const [create] = mock.callsTo('POST', '/v1/checkout/sessions')
    expect(create!.body).not.toHaveProperty('shipping_address_collection')
    expect(create!.body).not.toHaveProperty('shipping_options')
    expect(mock.sessions.get(result.providerSessionId)).toMatchObject({ amount_total: SUBTOTAL, total_details: { amount_shipping: 0 } })
  })

  it('applies store credit as a one-off coupon made with the `:coupon` key, and only when there is some', async () => {
    const { mock, provider } = await setup()
    const result = await provider.createSession(sessionInput({ discountCents: 1000 }))

    const [couponCall] = mock.callsTo('POST', '/v1/coupons')
    expect(couponCall!.idempotencyKey).toBe(`checkout:${CHECKOUT_ID}:coupon`)
    expect(couponCall!.body).toMatchObject({ amount_off: '1000', currency: 'usd', duration: 'once', max_redemptions: '1' })
    const coupon = [...mock.coupons.values()][0]!
    expect(mock.callsTo('POST', '/v1/checkout/sessions')[0]!.body.discounts).toEqual([{ coupon: coupon.id }])
    expect(mock.sessions.get(result.providerSessionId)).toMatchObject({
      amount_subtotal: SUBTOTAL,
      amount_total: SUBTOTAL - 1000 + 599,
      total_details: { amount_discount: 1000, amount_shipping: 599 },
    })

    await provider.createSession(sessionInput({ discountCents: 0, idempotencyKey: 'checkout:another' }))
    expect(mock.callsTo('POST', '/v1/coupons')).toHaveLength(1)
    expect(mock.callsTo('POST', '/v1/checkout/sessions')[1]!.body).not.toHaveProperty('discounts')
  })

  it('a repeated createSession with the same key reuses Stripe’s coupon and session', async () => {
    const { mock, provider } = await setup()
    const first = await provider.createSession(sessionInput({ discountCents: 250 }))
    const second = await provider.createSession(sessionInput({ discountCents: 250 }))
    expect(second).toEqual(first)
    expect(mock.sessions.size).toBe(1)
    expect(mock.coupons.size).toBe(1)
  })

  it('labels a zero shipping rate “Free shipping”', async () => {
    const { mock, provider } = await setup()
    const result = await provider.createSession(sessionInput({ shippingCents: 0 }))
    expect(mock.callsTo('POST', '/v1/checkout/sessions')[0]!.body.shipping_options).toEqual([
      { shipping_rate_data: { type: 'fixed_amount', display_name: 'Free shipping', fixed_amount: { amount: '0', currency: 'usd' } } },
    ])
    expect(mock.sessions.get(result.providerSessionId)!.amount_total).toBe(SUBTOTAL)
  })

  it('leaves customer_email out when there is none', async () => {
    const { mock, provider } = await setup()
    await provider.createSession(sessionInput({ customerEmail: null }))
    expect(mock.callsTo('POST', '/v1/checkout/sessions')[0]!.body).not.toHaveProperty('customer_email')
  })

  it('moves expires_at inside Stripe’s 30 min to 24 h window, which Stripe enforces', async () => {
    const { mock, stripe, provider } = await setup()
    await provider.createSession(sessionInput({ expiresAt: new Date(START + 10 * 60 * 1000), idempotencyKey: 'a' }))
    await provider.createSession(sessionInput({ expiresAt: new Date(START + 48 * 3600 * 1000), idempotencyKey: 'b' }))
    expect(mock.callsTo('POST', '/v1/checkout/sessions').map((c) => c.body.expires_at)).toEqual([String(START_S + 31 * 60), String(START_S + 24 * 3600 - 60)])

    const tooSoon = await failure(
      stripe.checkout.sessions.create(
        {
          mode: 'payment',
          success_url: SUCCESS_URL,
          expires_at: START_S + 10 * 60,
          line_items: [{ quantity: 1, price_data: { currency: 'usd', unit_amount: 500, product_data: { name: 'Mug' } } }],
        },
        { idempotencyKey: 'c' },
      ),
      Stripe.errors.StripeInvalidRequestError,
    )
    expect(tooSoon).toMatchObject({ statusCode: 400, param: 'expires_at' })
    expect(tooSoon.message).toMatch(/^The `expires_at` timestamp must be at least 30 minutes/)
  })

  it('refuses amounts Stripe cannot charge before calling Stripe', async () => {
    const { mock, provider } = await setup()
    const [line] = sessionInput().lines
    await failure(provider.createSession(sessionInput({ lines: [{ ...line!, unitAmountCents: 24.99 }] })))
    await failure(provider.createSession(sessionInput({ lines: [] })))
    await failure(provider.createSession(sessionInput({ discountCents: -5 })))
    expect(mock.calls).toHaveLength(0)
  })
})

describe('StripePaymentProvider.retrieveSession', () => {
  async function created() {
    const context = await setup()
    const { providerSessionId } = await context.provider.createSession(sessionInput())
    return { ...context, id: providerSessionId }
  }

  it('maps an open session to open, with no address yet, expanding the payment intent', async () => {
    const { mock, provider, id } = await created()
    expect(await provider.retrieveSession(id)).toEqual({
      status: 'open',
      shippingAddress: null,
      amountTotalCents: SUBTOTAL + 599,
      taxCents: 0,
    })
    expect(mock.callsTo('GET', '/v1/checkout/sessions/').at(-1)!.query).toEqual({ expand: ['payment_intent'] })
  })

  it('maps complete + paid to paid, with the collected shipping address in our shape', async () => {
    const { mock, provider, id } = await created()
    mock.complete(id, {
      paymentStatus: 'paid',
      shipping: {
        name: 'Ada Lovelace',
        phone: '+12175550100',
        line1: '12 Main St',
        line2: null,
        city: 'Springfield',
        state: 'il',
        postalCode: '62701',
      },
    })
    const state = await provider.retrieveSession(id)
    expect(state).toEqual({
      status: 'paid',
      amountTotalCents: SUBTOTAL + 599,
      taxCents: 0,
      shippingAddress: {
        name: 'Ada Lovelace',
        email: 'ada@example.org',
        phone: '+12175550100',
        line1: '12 Main St',
        line2: '',
        city: 'Springfield',
        state: 'IL',
        postalCode: '62701',
        country: 'US',
      },
    })
    expect(shippingAddressSchema.safeParse(state.shippingAddress).success).toBe(true)
  })

  it('maps complete + unpaid to processing, then to paid or failed as the delayed payment settles', async () => {
    const { mock, provider, id } = await created()
    mock.complete(id, { paymentStatus: 'unpaid' })
    expect((await provider.retrieveSession(id)).status).toBe('processing')
    mock.asyncResult(id, 'failed')
    expect((await provider.retrieveSession(id)).status).toBe('failed')

    const other = await provider.createSession(sessionInput({ idempotencyKey: 'second' }))
    mock.complete(other.providerSessionId, { paymentStatus: 'unpaid' })
    mock.asyncResult(other.providerSessionId, 'succeeded')
    expect((await provider.retrieveSession(other.providerSessionId)).status).toBe('paid')
  })

  it('maps an expired session to expired, including one whose expires_at simply passed', async () => {
    const { mock, provider, advance, id } = await created()
    mock.expire(id)
    expect(await provider.retrieveSession(id)).toMatchObject({ status: 'expired', shippingAddress: null })

    const other = await provider.createSession(sessionInput({ idempotencyKey: 'second' }))
    advance(3600 * 1000)
    expect((await provider.retrieveSession(other.providerSessionId)).status).toBe('expired')
  })

  it('maps a fully discounted session (no_payment_required) to paid', async () => {
    const { mock, provider, id } = await created()
    mock.complete(id, { paymentStatus: 'no_payment_required' })
    expect((await provider.retrieveSession(id)).status).toBe('paid')
  })

  it('reads the legacy top-level shipping_details when collected_information has none', () => {
    const session = {
      id: 'cs_test_legacy',
      object: 'checkout.session',
      status: 'complete',
      payment_status: 'paid',
      customer_email: null,
      customer_details: { email: 'grace@example.org', name: 'Grace Hopper', phone: null },
      collected_information: null,
      shipping_details: {
        name: 'Grace Hopper',
        address: { line1: '1 Navy Way', line2: null, city: 'Arlington', state: 'VA', postal_code: '22202', country: 'US' },
      },
    } as unknown as StripeSessionFields
    expect(stripeShippingAddress(session)).toEqual({
      name: 'Grace Hopper',
      email: 'grace@example.org',
      phone: '',
      line1: '1 Navy Way',
      line2: '',
      city: 'Arlington',
      state: 'VA',
      postalCode: '22202',
      country: 'US',
    })
    expect(stripeShippingAddress({ ...session, shipping_details: null })).toBeNull()
  })

  it('answers a Stripe 404 for an unknown session as a PaymentProviderError', async () => {
    const { provider } = await setup()
    const error = await failure(provider.retrieveSession('cs_test_nope'))
    expect(error.status).toBe(404)
    expect(error.message).toBe(
      "Stripe retrieve checkout session failed with HTTP 404 (invalid_request_error, resource_missing): No such checkout.session: 'cs_test_nope'",
    )
  })
})

describe('StripePaymentProvider.expireSession', () => {
  it('expires an open session with a key derived from its id', async () => {
    const { mock, provider } = await setup()
    const { providerSessionId: id } = await provider.createSession(sessionInput())
    await provider.expireSession(id)
    expect(mock.sessions.get(id)).toMatchObject({ status: 'expired', url: null })
    expect(mock.callsTo('POST', `/v1/checkout/sessions/${id}/expire`)[0]!.idempotencyKey).toBe(`expire:${id}`)
  })

  it('is idempotent: expiring twice, or a session Stripe already expired, is not a failure', async () => {
    const { mock, provider } = await setup()
    const { providerSessionId: id } = await provider.createSession(sessionInput())
    await provider.expireSession(id)
    await provider.expireSession(id)

    const other = await provider.createSession(sessionInput({ idempotencyKey: 'second' }))
    mock.expire(other.providerSessionId)
    await provider.expireSession(other.providerSessionId)
    const refused = mock.callsTo('POST', `/v1/checkout/sessions/${other.providerSessionId}/expire`)
    expect(refused.map((c) => c.status)).toEqual([400]) // Stripe: only open sessions can be expired…
    expect(mock.callsTo('GET', `/v1/checkout/sessions/${other.providerSessionId}`)).toHaveLength(1) // …so it looked
  })

  it('does not pass off a completed (paid) session as expired', async () => {
    const { mock, provider } = await setup()
    const { providerSessionId: id } = await provider.createSession(sessionInput())
    mock.complete(id)
    const error = await failure(provider.expireSession(id))
    expect(error.status).toBe(409)
    expect(error.message).toMatch(/already complete \(payment paid\)/)
  })

  it('throws other errors, such as an unknown session', async () => {
    const { provider } = await setup()
    const error = await failure(provider.expireSession('cs_test_nope'))
    expect(error.status).toBe(404)
  })
})

describe('parseStripeWebhook: signatures', () => {
  async function delivered() {
    const context = await setup()
    const { providerSessionId } = await context.provider.createSession(sessionInput())
    context.mock.complete(providerSessionId)
    const delivery = context.mock.event('checkout.session.completed', providerSessionId)
    return { ...context, id: providerSessionId, ...delivery }
  }
  const verify = (rawBody: string | Uint8Array, signatureHeader: string | null | undefined, overrides = {}) =>
    parseStripeWebhook({ rawBody, signatureHeader, secret: MOCK_STRIPE_WEBHOOK_SECRET, nowSeconds: START_S, ...overrides })

  it('accepts a genuine delivery (ignoring test mode’s v0 signature)', async () => {
    const { rawBody, signatureHeader, event, id } = await delivered()
    expect(signatureHeader).toMatch(/^t=\d+,v1=[0-9a-f]{64},v0=[0-9a-f]{64}$/)
    expect(verify(rawBody, signatureHeader)).toMatchObject({ eventId: event.id, providerSessionId: id })
    expect(verify(Buffer.from(rawBody, 'utf8'), signatureHeader).eventId).toBe(event.id)
  })

  it('rejects a tampered body', async () => {
    const { rawBody, signatureHeader } = await delivered()
    const tampered = rawBody.replace('"payment_status": "paid"', '"payment_status": "paid" ')
    expect(tampered).not.toBe(rawBody)
    expect(throwsWebhookError(() => verify(tampered, signatureHeader)).message).toMatch(/does not verify: No signatures found matching the expected signature/)
    // Re-serialising the parsed JSON changes the bytes too: verifiers need the raw body.
    expect(() => verify(JSON.stringify(JSON.parse(rawBody)), signatureHeader)).toThrow(StripeWebhookError)
  })

  it('rejects a delivery signed with another secret', async () => {
    const { rawBody, signatureHeader } = await delivered()
    expect(() => verify(rawBody, signatureHeader, { secret: 'whsec_someoneElse' })).toThrow(StripeWebhookError)
  })

  it('rejects a timestamp outside the tolerance, and accepts one inside it', async () => {
    const { rawBody } = await delivered()
    const stale = signStripePayload(rawBody, MOCK_STRIPE_WEBHOOK_SECRET, START_S - 301)
    expect(throwsWebhookError(() => verify(rawBody, stale)).message).toMatch(/does not verify: Timestamp outside the tolerance zone/)
    const future = signStripePayload(rawBody, MOCK_STRIPE_WEBHOOK_SECRET, START_S + 301)
    expect(throwsWebhookError(() => verify(rawBody, future)).message).toMatch(/301 s ahead, outside the 300 s tolerance/)
    expect(verify(rawBody, signStripePayload(rawBody, MOCK_STRIPE_WEBHOOK_SECRET, START_S + 299)).type).toBe('checkout.session.completed')
    const recent = signStripePayload(rawBody, MOCK_STRIPE_WEBHOOK_SECRET, START_S - 299)
    expect(verify(rawBody, recent).type).toBe('checkout.session.completed')
    expect(verify(rawBody, stale, { toleranceSeconds: 600 }).type).toBe('checkout.session.completed')
  })

  it('accepts a header with several v1 signatures when one matches (a secret being rolled)', async () => {
    const { rawBody } = await delivered()
    const good = signStripePayload(rawBody, MOCK_STRIPE_WEBHOOK_SECRET, START_S).split('v1=')[1]!
    const old = signStripePayload(rawBody, 'whsec_oldSecret', START_S).split('v1=')[1]!
    expect(verify(rawBody, `t=${START_S},v1=${old},v1=${good}`).type).toBe('checkout.session.completed')
    expect(() => verify(rawBody, `t=${START_S},v1=${old},v1=${'0'.repeat(64)}`)).toThrow(StripeWebhookError)
  })

  it('rejects a missing or malformed header', async () => {
    const { rawBody } = await delivered()
    const v1 = signStripePayload(rawBody, MOCK_STRIPE_WEBHOOK_SECRET, START_S).split('v1=')[1]!
    expect(throwsWebhookError(() => verify(rawBody, undefined)).message).toMatch(/missing/)
    expect(throwsWebhookError(() => verify(rawBody, '')).message).toMatch(/missing/)
    expect(throwsWebhookError(() => verify(rawBody, 'garbage')).message).toMatch(/Unable to extract timestamp and signatures/)
    expect(throwsWebhookError(() => verify(rawBody, `t=soon,v1=${v1}`)).message).toMatch(/No signatures found matching/)
    expect(throwsWebhookError(() => verify(rawBody, `v1=${v1}`)).message).toMatch(/Unable to extract timestamp and signatures/)
    expect(throwsWebhookError(() => verify(rawBody, `t=${START_S}`)).message).toMatch(/No signatures found with expected scheme/)
    expect(throwsWebhookError(() => verify(rawBody, `t=${START_S},v0=${v1}`)).message).toMatch(/No signatures found with expected scheme/)
    expect(throwsWebhookError(() => verify(rawBody, `t=${START_S},v1=${v1.slice(0, 40)}`)).message).toMatch(/No signatures found matching/)
  })

  it('refuses to verify without a configured secret', async () => {
    const { rawBody, signatureHeader } = await delivered()
    expect(throwsWebhookError(() => verify(rawBody, signatureHeader, { secret: '' })).message).toMatch(/secret/)
  })
})

describe('parseStripeWebhook: events', () => {
  const read = ({ rawBody, signatureHeader }: { rawBody: string; signatureHeader: string }) =>
    parseStripeWebhook({ rawBody, signatureHeader, secret: MOCK_STRIPE_WEBHOOK_SECRET, nowSeconds: START_S })

  it('maps checkout.session.completed like a retrieve: paid (with the address) or processing', async () => {
    const { mock, provider } = await setup()
    const card = await provider.createSession(sessionInput())
    mock.complete(card.providerSessionId, { shipping: { name: 'Ada Lovelace' } })
    const paid = read(mock.event('checkout.session.completed', card.providerSessionId))
    expect(paid).toEqual({
      eventId: expect.stringMatching(/^evt_/),
      type: 'checkout.session.completed',
      providerSessionId: card.providerSessionId,
      checkoutSessionId: CHECKOUT_ID,
      state: {
        status: 'paid',
        amountTotalCents: SUBTOTAL + 599,
        taxCents: 0,
        shippingAddress: expect.objectContaining({ name: 'Ada Lovelace', email: 'ada@example.org', country: 'US' }),
      },
    })

    const ach = await provider.createSession(sessionInput({ idempotencyKey: 'ach' }))
    mock.complete(ach.providerSessionId, { paymentStatus: 'unpaid' })
    expect(read(mock.event('checkout.session.completed', ach.providerSessionId)).state!.status).toBe('processing')
  })

  it('maps async_payment_succeeded to paid and async_payment_failed to failed', async () => {
    const { mock, provider } = await setup()
    const one = await provider.createSession(sessionInput())
    mock.complete(one.providerSessionId, { paymentStatus: 'unpaid' })
    mock.asyncResult(one.providerSessionId, 'succeeded')
    expect(read(mock.event('checkout.session.async_payment_succeeded', one.providerSessionId))).toMatchObject({
      type: 'checkout.session.async_payment_succeeded',
      providerSessionId: one.providerSessionId,
      checkoutSessionId: CHECKOUT_ID,
      state: { status: 'paid' },
    })

    const two = await provider.createSession(sessionInput({ idempotencyKey: 'two' }))
    mock.complete(two.providerSessionId, { paymentStatus: 'unpaid' })
    mock.asyncResult(two.providerSessionId, 'failed')
    const failed = read(mock.event('checkout.session.async_payment_failed', two.providerSessionId))
    expect(failed.state).toMatchObject({ status: 'failed' })
    expect(failed.state!.shippingAddress).not.toBeNull()
  })

  it('maps checkout.session.expired to expired', async () => {
    const { mock, provider } = await setup()
    const { providerSessionId } = await provider.createSession(sessionInput())
    mock.expire(providerSessionId)
    expect(read(mock.event('checkout.session.expired', providerSessionId))).toMatchObject({
      providerSessionId,
      checkoutSessionId: CHECKOUT_ID,
      state: { status: 'expired', shippingAddress: null, amountTotalCents: SUBTOTAL + 599 },
    })
  })

  it('answers null for metadata it did not set', async () => {
    const { mock, stripe } = await setup()
    const session = await stripe.checkout.sessions.create(
      {
        mode: 'payment',
        success_url: SUCCESS_URL,
        line_items: [{ quantity: 1, price_data: { currency: 'usd', unit_amount: 900, product_data: { name: 'Mug' } } }],
      },
      { idempotencyKey: 'no-metadata' },
    )
    mock.expire(session.id)
    expect(read(mock.event('checkout.session.expired', session.id)).checkoutSessionId).toBeNull()
  })

  it('acknowledges other event types without acting on them', async () => {
    const rawBody = JSON.stringify({
      id: 'evt_1Other',
      object: 'event',
      type: 'payment_intent.created',
      data: { object: { id: 'pi_123', object: 'payment_intent', status: 'requires_payment_method' } },
    })
    const signatureHeader = signStripePayload(rawBody, MOCK_STRIPE_WEBHOOK_SECRET, START_S)
    expect(read({ rawBody, signatureHeader })).toEqual({
      eventId: 'evt_1Other',
      type: 'payment_intent.created',
      providerSessionId: null,
      checkoutSessionId: null,
      state: null,
    })
  })

  /** A paid session at the mock and what Stripe answered for a refund of `amount` (all that is left when omitted). */
  async function refunded(amount?: number) {
    const context = await setup()
    const { providerSessionId } = await context.provider.createSession(sessionInput())
    context.mock.complete(providerSessionId)
    const paymentIntentId = context.mock.sessions.get(providerSessionId)!.payment_intent!
    // What the Dashboard (or an operator's script) does, through the SDK.
    const refund = await context.stripe.refunds.create(
      { payment_intent: paymentIntentId, amount },
      { idempotencyKey: `refund:${paymentIntentId}:${amount ?? 'all'}` },
    )
    expect(refund).toMatchObject({ object: 'refund', status: 'succeeded', payment_intent: paymentIntentId })
    return { ...context, paymentIntentId, chargeId: context.mock.paymentIntents.get(paymentIntentId)!.latest_charge! }
  }

  it('maps charge.refunded for a full refund, with the charge’s payment intent and no session state', async () => {
    const { mock, paymentIntentId, chargeId } = await refunded()
    expect(chargeId).toMatch(/^ch_3/)
    expect(read(mock.chargeEvent('charge.refunded', paymentIntentId))).toEqual({
      eventId: expect.stringMatching(/^evt_/),
      type: 'charge.refunded',
      providerSessionId: null,
      checkoutSessionId: null,
      state: null,
      refund: {
        chargeId,
        paymentIntentId,
        fullyRefunded: true,
        amountCents: SUBTOTAL + 599,
        amountRefundedCents: SUBTOTAL + 599,
      },
    })
  })

  it('maps charge.refunded for a partial refund as not fully refunded', async () => {
    const { mock, paymentIntentId } = await refunded(500)
    expect(read(mock.chargeEvent('charge.refunded', paymentIntentId)).refund).toEqual({
      chargeId: expect.stringMatching(/^ch_/),
      paymentIntentId,
      fullyRefunded: false,
      amountCents: SUBTOTAL + 599,
      amountRefundedCents: 500,
    })
  })

  it('rejects a charge.refunded that carries no well-formed charge', async () => {
    const { mock, paymentIntentId } = await refunded()
    const charge = mock.chargeEvent('charge.refunded', paymentIntentId).event.data.object as Record<string, unknown>
    const signed = (object: unknown) => {
      const rawBody = JSON.stringify({ id: 'evt_1Refund', object: 'event', type: 'charge.refunded', data: { object } })
      return { rawBody, signatureHeader: signStripePayload(rawBody, MOCK_STRIPE_WEBHOOK_SECRET, START_S) }
    }
    expect(read(signed(charge)).refund!.fullyRefunded).toBe(true)
    for (const object of [
      undefined,
      null,
      { ...charge, object: 'payment_intent' },
      { ...charge, id: '' },
      { ...charge, refunded: 'true' },
      { ...charge, refunded: undefined },
      { ...charge, amount_refunded: '100' },
      { ...charge, amount: -1 },
      { ...charge, amount: 10.5 },
      { ...charge, payment_intent: 42 },
    ])
      expect(throwsWebhookError(() => read(signed(object))).message).toMatch(/charge\.refunded event carries/)
    // A charge made without a PaymentIntent is well-formed; it just leads nowhere.
    expect(read(signed({ ...charge, payment_intent: null })).refund!.paymentIntentId).toBeNull()
  })

  it('rejects a signed body that is not a Stripe event', () => {
    for (const rawBody of ['not json', JSON.stringify({ hello: 'world' })]) {
      const signatureHeader = signStripePayload(rawBody, MOCK_STRIPE_WEBHOOK_SECRET, START_S)
      expect(() => read({ rawBody, signatureHeader })).toThrow(StripeWebhookError)
    }
  })
})

describe('payment intents', () => {
  it('carries the checkout session id Checkout copied from payment_intent_data, found by the provider', async () => {
    const { mock, stripe, provider } = await setup()
    const { providerSessionId } = await provider.createSession(sessionInput())
    mock.complete(providerSessionId)
    const paymentIntentId = mock.sessions.get(providerSessionId)!.payment_intent!
    const intent = await stripe.paymentIntents.retrieve(paymentIntentId)
    expect(intent).toMatchObject({
      id: paymentIntentId,
      object: 'payment_intent',
      status: 'succeeded',
      amount: SUBTOTAL + 599,
      metadata: { checkout_session_id: CHECKOUT_ID },
      latest_charge: expect.stringMatching(/^ch_3/),
    })
    expect(await provider.checkoutSessionIdOfPaymentIntent(paymentIntentId)).toBe(CHECKOUT_ID)
    const [call] = mock.callsTo('GET', '/v1/payment_intents/')
    expect(call!.headers['stripe-version']).toBe(STRIPE_API_VERSION)
  })

  it('answers null for a payment intent Stripe does not know or one without our metadata', async () => {
    const { mock, stripe, provider } = await setup()
    expect(await provider.checkoutSessionIdOfPaymentIntent('pi_3Nope')).toBeNull()
    const [lookup] = mock.callsTo('GET', '/v1/payment_intents/pi_3Nope')
    expect(lookup!.status).toBe(404)
    const error = await failure(stripe.paymentIntents.retrieve('pi_3Nope'), Stripe.errors.StripeInvalidRequestError)
    expect(error).toMatchObject({ statusCode: 404, rawType: 'invalid_request_error', code: 'resource_missing', param: 'intent' })
    expect(error.message).toMatch(/No such payment_intent: 'pi_3Nope'/)

    const session = await stripe.checkout.sessions.create(
      {
        mode: 'payment',
        success_url: SUCCESS_URL,
        line_items: [{ quantity: 1, price_data: { currency: 'usd', unit_amount: 900, product_data: { name: 'Mug' } } }],
      },
      { idempotencyKey: 'no-intent-metadata' },
    )
    mock.complete(session.id)
    expect(await provider.checkoutSessionIdOfPaymentIntent(mock.sessions.get(session.id)!.payment_intent!)).toBeNull()
  })

  it('throws when Stripe cannot answer, so the caller can try again', async () => {
    const { mock, provider } = await setup()
    for (let i = 0; i < ATTEMPTS; i++) mock.failNext(500)
    const error = await failure(provider.checkoutSessionIdOfPaymentIntent('pi_3Any'), StripeApiError)
    expect(error.status).toBe(500)
    expect(mock.calls).toHaveLength(ATTEMPTS)
  })
})

describe('the Stripe mock', () => {
  it('validates a Checkout Session create like Stripe (missing params, unknown params, bad amounts)', async () => {
    const { mock, server } = await setup()
    let key = 0
    const post = async (body: string) => {
      const response = await fetch(`${server.url}/v1/checkout/sessions`, {
        method: 'POST',
        headers: {
          Authorization: `Bearer ${mock.secretKey}`,
          'Content-Type': 'application/x-www-form-urlencoded',
          'Idempotency-Key': `validation-${++key}`,
        },
        body,
      })
      return { status: response.status, body: (await response.json()) as { error: Record<string, string> } }
    }
    const line = 'line_items[0][quantity]=1&line_items[0][price_data][currency]=usd&line_items[0][price_data][product_data][name]=Mug'
    const base = `mode=payment&success_url=${encodeURIComponent(SUCCESS_URL)}`

    expect(await post(`success_url=${encodeURIComponent(SUCCESS_URL)}`)).toEqual({
      status: 400,
      body: {
        error: expect.objectContaining({
          type: 'invalid_request_error',
          code: 'parameter_missing',
          param: 'mode',
          message: 'Missing required param: mode.',
        }),
      },
    })
    expect((await post(`mode=payment&${line}&line_items[0][price_data][unit_amount]=5`)).body.error.param).toBe('success_url')
    expect((await post(base)).body.error.param).toBe('line_items')
    expect((await post(`${base}&${line}&line_items[0][price_data][unit_amount]=12.5`)).body.error).toMatchObject({
      param: 'line_items[0][price_data][unit_amount]',
      message: 'Invalid non-negative integer: 12.5',
    })
    expect((await post(`${base}&${line}&line_items[0][price_data][unit_amount]=-1`)).status).toBe(400)
    expect(
      (await post(`${base}&line_items[0][quantity]=1&line_items[0][price_data][unit_amount]=500&line_items[0][price_data][product_data][name]=Mug`)).body.error
        .param,
    ).toBe('line_items[0][price_data][currency]')
    expect((await post(`${base}&${line}&line_items[0][price_data][unit_amount]=500&colour=red`)).body.error).toMatchObject({
      code: 'parameter_unknown',
      message: 'Received unknown parameter: colour',
    })
    expect((await post(`${base}&${line}&line_items[0][price_data][unit_amount]=500&discounts[0][coupon]=NOPE`)).body.error).toMatchObject({
      code: 'resource_missing',
      message: "No such coupon: 'NOPE'",
    })
    expect(mock.sessions.size).toBe(0)
    expect((await post(`${base}&${line}&line_items[0][price_data][unit_amount]=500`)).status).toBe(200)
    expect(mock.sessions.size).toBe(1)
  })

  it('validates a Tax Calculation like Stripe (currency, address, amounts, tax location) and answers Stripe’s shape', async () => {
    const { mock, server } = await setup()
    let key = 0
    const post = async (body: string) => {
      const response = await fetch(`${server.url}/v1/tax/calculations`, {
        method: 'POST',
        headers: {
          Authorization: `Bearer ${mock.secretKey}`,
          'Content-Type': 'application/x-www-form-urlencoded',
          'Idempotency-Key': `calculation-${++key}`,
        },
        body,
      })
      return { status: response.status, body: (await response.json()) as Record<string, unknown> & { error: Record<string, string> } }
    }
    const address =
      'customer_details[address][line1]=11 Main St&customer_details[address][city]=Austin&customer_details[address][postal_code]=78701&customer_details[address][country]=US'
    const line = 'line_items[0][amount]=1000&line_items[0][reference]=a&line_items[0][tax_code]=txcd_99999999'
    const valid = `currency=usd&${address}&customer_details[address][state]=TX&customer_details[address_source]=shipping&${line}`

    expect(await post(`${address}&customer_details[address][state]=TX&${line}`)).toEqual({
      status: 400,
      body: {
        error: expect.objectContaining({
          type: 'invalid_request_error',
          code: 'parameter_missing',
          param: 'currency',
          message: 'Missing required param: currency.',
        }),
      },
    })
    expect((await post(`currency=usd&${line}`)).body.error).toMatchObject({ code: 'parameter_missing', param: 'customer_details' })
    expect((await post(`currency=usd&customer_details[address_source]=shipping&${line}`)).body.error).toMatchObject({
      code: 'parameter_missing',
      param: 'customer_details[address]',
    })
    const negative = await post(valid.replace('line_items[0][amount]=1000', 'line_items[0][amount]=-1'))
    expect(negative).toMatchObject({ status: 400, body: { error: { type: 'invalid_request_error', param: 'line_items[0][amount]' } } })
    expect((await post(`${valid}&shipping_cost[amount]=-5`)).body.error).toMatchObject({ param: 'shipping_cost[amount]' })
    const unknownState = await post(valid.replace('[state]=TX', '[state]=ZZ'))
    expect(unknownState).toMatchObject({ status: 400, body: { error: { code: 'customer_tax_location_invalid', param: 'customer_details[address]' } } })
    expect((await post(`${valid}&line_items[1][amount]=5&line_items[1][reference]=a`)).body.error).toMatchObject({ param: 'line_items[1][reference]' })
    expect((await post(`${valid}&line_items[0][colour]=red`)).body.error).toMatchObject({ code: 'parameter_unknown' })
    expect(mock.taxCalculations.size).toBe(0)

    const ok = await post(
      `${valid}&line_items[1][amount]=500&line_items[1][reference]=b&line_items[1][tax_code]=${STRIPE_NONTAXABLE_TAX_CODE}&shipping_cost[amount]=599`,
    )
    const tax = mockStripeTax('TX', 1000, 599)
    expect(ok.status).toBe(200)
    expect(ok.body).toMatchObject({
      id: expect.stringMatching(/^taxcalc_/),
      object: 'tax.calculation',
      amount_total: 1000 + 500 + 599 + tax.total,
      currency: 'usd',
      tax_amount_exclusive: tax.total,
      tax_amount_inclusive: 0,
      shipping_cost: { amount: 599, amount_tax: tax.shipping, tax_code: STRIPE_SHIPPING_TAX_CODE, tax_behavior: 'exclusive' },
      customer_details: { address: { state: 'TX', postal_code: '78701', country: 'US', line2: null }, address_source: 'shipping' },
    })
    // Line items come only when expanded, as a list object.
    expect(ok.body).not.toHaveProperty('line_items')
    const expanded = await post(`${valid}&expand[]=line_items`)
    expect(expanded.body.line_items).toMatchObject({
      object: 'list',
      has_more: false,
      data: [{ object: 'tax.calculation_line_item', amount: 1000, amount_tax: mockStripeTax('TX', 1000, 0).items, reference: 'a', quantity: 1 }],
    })
    expect(mock.taxCalculations.size).toBe(2)
  })

  it('refuses requests without the secret key, in Stripe’s error shape', async () => {
    const { server } = await setup()
    const response = await fetch(`${server.url}/v1/checkout/sessions/cs_test_1`)
    expect(response.status).toBe(401)
    expect(await response.json()).toEqual({
      error: { type: 'invalid_request_error', message: expect.stringMatching(/^You did not provide an API key/) },
    })
  })

  it('refunds like Stripe: by payment intent, partly then the rest, never more, idempotently', async () => {
    const { mock, server, provider } = await setup()
    const { providerSessionId } = await provider.createSession(sessionInput())
    mock.complete(providerSessionId)
    const paymentIntentId = mock.sessions.get(providerSessionId)!.payment_intent!
    const chargeId = mock.paymentIntents.get(paymentIntentId)!.latest_charge!
    const total = SUBTOTAL + 599
    const refund = async (params: Record<string, string | number>, key: string) => {
      const response = await fetch(`${server.url}/v1/refunds`, {
        method: 'POST',
        headers: {
          Authorization: `Bearer ${mock.secretKey}`,
          'Content-Type': 'application/x-www-form-urlencoded',
          'Idempotency-Key': key,
        },
        body: new URLSearchParams(Object.entries(params).map(([name, value]) => [name, String(value)])).toString(),
      })
      return {
        status: response.status,
        replayed: response.headers.get('idempotent-replayed') === 'true',
        body: (await response.json()) as Record<string, unknown> & { error?: Record<string, string> },
      }
    }

    const first = await refund({ payment_intent: paymentIntentId, amount: 500 }, 'r1')
    expect(first.body).toMatchObject({
      id: expect.stringMatching(/^re_/),
      object: 'refund',
      amount: 500,
      charge: chargeId,
      payment_intent: paymentIntentId,
      currency: 'usd',
      status: 'succeeded',
    })
    expect(mock.charges.get(chargeId)).toMatchObject({ amount: total, amount_refunded: 500, refunded: false })
    const replay = await refund({ payment_intent: paymentIntentId, amount: 500 }, 'r1')
    expect(replay).toMatchObject({ status: 200, replayed: true, body: { id: first.body.id } })
    expect(mock.refunds.size).toBe(1)

    const tooMuch = await refund({ payment_intent: paymentIntentId, amount: total }, 'r2')
    expect(tooMuch.status).toBe(400)
    expect(tooMuch.body.error).toMatchObject({ type: 'invalid_request_error', param: 'amount' })
    expect(tooMuch.body.error!.message).toMatch(/greater than unrefunded amount/)

    const rest = await refund({ charge: chargeId }, 'r3')
    expect(rest.body.amount).toBe(total - 500)
    expect(mock.charges.get(chargeId)).toMatchObject({ amount_refunded: total, refunded: true })

    const again = await refund({ payment_intent: paymentIntentId }, 'r4')
    expect(again.status).toBe(400)
    expect(again.body.error).toMatchObject({ code: 'charge_already_refunded', message: `Charge ${chargeId} has already been refunded.` })

    const unknown = await refund({ payment_intent: 'pi_3Nope' }, 'r5')
    expect(unknown.status).toBe(404)
    expect(unknown.body.error).toMatchObject({ code: 'resource_missing', param: 'payment_intent', message: "No such payment_intent: 'pi_3Nope'" })
    expect((await refund({ amount: 100 }, 'r6')).body.error).toMatchObject({ code: 'parameter_missing' })
    expect((await refund({ payment_intent: paymentIntentId, amount: 0 }, 'r7')).body.error).toMatchObject({ param: 'amount' })
    expect((await refund({ payment_intent: paymentIntentId, colour: 'red' }, 'r8')).body.error).toMatchObject({ code: 'parameter_unknown' })
    expect(mock.refunds.size).toBe(2)
  })

  it('refuses to refund a payment that has not succeeded', async () => {
    const { mock, stripe, provider } = await setup()
    const { providerSessionId } = await provider.createSession(sessionInput())
    mock.complete(providerSessionId, { paymentStatus: 'unpaid' })
    const paymentIntentId = mock.sessions.get(providerSessionId)!.payment_intent!
    const error = await failure(
      stripe.refunds.create({ payment_intent: paymentIntentId }, { idempotencyKey: 'pending' }),
      Stripe.errors.StripeInvalidRequestError,
    )
    expect(error).toMatchObject({ statusCode: 400, param: 'payment_intent' })
    expect(mock.refunds.size).toBe(0)
  })
})
