import type { AppConfig } from '../../app.config'
import type { Database } from './db/client'
import type { MediaUrls } from './media/urls'
import type { PaymentProvider } from './providers/payments/provider'
import type { PrintProvider } from './providers/print/provider'
import type { RateLimiter } from './rate-limit'
import type { RenderSlots } from './render-slot'
import type { ObjectStorage } from './storage/storage'

export type ApiDeps = {
  db: Database
  config: AppConfig
  storage: ObjectStorage
  media: MediaUrls
  print: PrintProvider
  payments: PaymentProvider
  /** In-process by default, Redis when REDIS_URL is set. */
  rateLimiter: RateLimiter
  /** One preview render per shopper at a time: in-process by default, Redis when REDIS_URL is set. */
  renderSlots: RenderSlots
  /** The API's clock; tests inject their own. */
  now: () => Date
}

export type SessionUser = {
  id: string
  email: string
  firstName: string
  lastName: string
}

export type ApiEnv = {
  Variables: {
    deps: ApiDeps
    requestId: string
    user: SessionUser | null
    sessionToken: string | null
    timezone: string
    clientVersion: string | null
    /** The answer an endpoint's handler made (endpoint.ts), for idempotency.ts when it comes after the deadline's 503. */
    answer: Response | undefined
  }
}
