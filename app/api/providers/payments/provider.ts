/**
 * A payment provider, as checkout sees it. Two implementations: `local` (our own hosted checkout page
 * under /utils/checkout/$sessionId with test cards; default) and `stripe` (STRIPE_SECRET_KEY).
 * Prices, shipping and discounts are always decided by the server and passed in here in whole cents.
 */
import type { ShippingAddress } from '../../../contract/cart'

export type PaymentLine = {
  /** What the shopper sees on the payment page, e.g. "Tree Photo Ornament (pair)". */
  name: string
  /** Whole cents, the price actually charged per unit (the sale price when one applies). */
  unitAmountCents: number
  quantity: number
  /** An absolute https/http URL of the line's preview image, shown by hosted pages that can fetch it. */
  imageUrl?: string
  /**
   * With automaticTax, the Stripe Tax product tax code for this line instead of the goods code (STRIPE_GOODS_TAX_CODE),
   * e.g. STRIPE_NONTAXABLE_TAX_CODE for parcels going to another address whose tax was calculated separately
   * (calculateTax) and is charged as its own line.
   */
  taxCode?: string
}

export type CreatePaymentSessionInput = {
  /** Our checkout session id; Stripe keeps it as metadata.checkout_session_id. */
  checkoutSessionId: string
  /** The cart being paid for; Stripe keeps it as client_reference_id. */
  cartId: string
  customerEmail: string | null
  lines: PaymentLine[]
  shippingCents: number
  /** The chosen shipping method's name ("Standard", "Express") and its promise in business days, for the payment page. */
  shippingMethod?: { label: string; businessDays: number }
  /**
   * Bundle savings and store credit taken off the ornaments, whole cents (0 for none). Never more than
   * the lines cost, and never off shipping: Stripe applies it as a one-off coupon (amount_off).
   */
  discountCents: number
  /** Whether the payment page asks for a shipping address (default true); an e-gift ships nothing. */
  collectShipping?: boolean
  /**
   * Whether the provider computes and charges sales tax on the address it collects (Stripe Tax; default false).
   * Goods and shipping are then priced tax-exclusive; the tax it charged comes back in PaymentState.taxCents.
   */
  automaticTax?: boolean
  /** Absolute URLs. Stripe's success URL carries {CHECKOUT_SESSION_ID}. */
  successUrl: string
  cancelUrl: string
  expiresAt: Date
  /** Every create call carries this, so a retried create never makes a second session. */
  idempotencyKey: string
}

export type PaymentSession = {
  providerSessionId: string
  /** Where to send the shopper to pay. */
  url: string
}

/** The provider's view of a session, mapped onto our checkout session statuses. */
export type PaymentState = {
  status: 'open' | 'processing' | 'paid' | 'failed' | 'expired'
  shippingAddress: ShippingAddress | null
  /** What the provider says it charged, whole cents; null when unknown. */
  amountTotalCents: number | null
  /** The sales tax the provider computed and charged (Stripe Tax), whole cents; null when it computes none (local). */
  taxCents?: number | null
}

/**
 * The sales tax on goods shipped to one known address, for parcels that do not go to the address the payment page
 * collects. Amounts are whole cents and tax-exclusive.
 */
export type TaxCalculationInput = {
  address: { line1: string; line2?: string; city: string; state: string; postalCode: string; country: 'US' }
  /** `reference` is unique within the calculation; `amountCents` is the line's total (all units, after discounts). */
  lines: { reference: string; amountCents: number; quantity: number }[]
  shippingCents: number
  /** A retried calculation with the same key gets the same answer (and calculation id). */
  idempotencyKey: string
}

export type TaxCalculation = {
  /** The tax on the lines and shipping, whole cents. */
  taxCents: number
  /** The provider's id for the calculation (Stripe: taxcalc_…). */
  calculationId: string
}

export interface PaymentProvider {
  readonly name: 'local' | 'stripe'
  createSession(input: CreatePaymentSessionInput): Promise<PaymentSession>
  retrieveSession(providerSessionId: string): Promise<PaymentState>
  /** Ends an open session so it can no longer be paid (a newer session replaced it, or the shopper cancelled). */
  expireSession(providerSessionId: string): Promise<void>
  /**
   * The sales tax for goods shipped to `input.address` (Stripe Tax Calculations). Optional: the local provider has
   * none, and callers fall back to the state table.
   */
  calculateTax?(input: TaxCalculationInput): Promise<TaxCalculation>
}

/** The provider could not do what was asked; the API answers 502 with this message. */
export class PaymentProviderError extends Error {
  constructor(
    message: string,
    readonly status?: number,
  ) {
    super(message)
    this.name = 'PaymentProviderError'
  }
}
