import { eq } from 'drizzle-orm'
import type { Database } from '../../db/client'
import { checkoutSessions } from '../../db/schema'
import { PaymentProviderError, type CreatePaymentSessionInput, type PaymentProvider, type PaymentSession, type PaymentState } from './provider'

/**
 * The embedded payment provider: our own hosted checkout page (/utils/checkout/$sessionId) with test
 * cards. Its sessions are our checkout session rows, so their state is read from the database. Its page
 * is on our own site, so its URL is root-relative: the shopper stays on the host name they came by.
 */
export class LocalPaymentProvider implements PaymentProvider {
  readonly name = 'local' as const

  constructor(private readonly db: Database) {}

  async createSession(input: CreatePaymentSessionInput): Promise<PaymentSession> {
    return { providerSessionId: `local_${input.checkoutSessionId}`, url: `/utils/checkout/${input.checkoutSessionId}` }
  }

  async retrieveSession(providerSessionId: string): Promise<PaymentState> {
    const [row] = await this.db.select().from(checkoutSessions).where(eq(checkoutSessions.providerSessionId, providerSessionId))
    if (!row) throw new PaymentProviderError(`No local checkout session ${providerSessionId}`, 404)
    return { status: row.status, shippingAddress: row.shippingAddress ?? null, amountTotalCents: row.totals.totalCents }
  }

  async expireSession(): Promise<void> {
    // The checkout service marks the row expired; there is nothing else to end.
  }
}
