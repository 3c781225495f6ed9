import type { AppConfig } from '../../../../app.config'
import type { Database } from '../../db/client'
import { LocalPaymentProvider } from './local'
import type { PaymentProvider } from './provider'
import { createStripeClient, StripePaymentProvider } from './stripe'

/** Stripe Checkout when STRIPE_SECRET_KEY is set; otherwise our own hosted checkout page. */
export function paymentProviderFor(config: AppConfig, db: Database): PaymentProvider {
  if (!config.stripe) return new LocalPaymentProvider(db)
  return new StripePaymentProvider(createStripeClient({ secretKey: config.stripe.secretKey }))
}
