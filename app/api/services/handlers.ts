/**
 * Who handles what, in one list: the handler of each checkout purpose (what paying for a session
 * does), of each kind of sent e-mail that its sender must hear of, and of each kind of background
 * job. The services name no one above them; this module, on top of them, ties them together, so
 * checkout, e-gifts and mail import each other in no circle (docs/decisions/025-purpose-handlers.md).
 *
 * createApi calls registerHandlers, so every process that makes the API (the store's server,
 * scripts/serve-api.ts, the tests' createTestApi, the operator scripts) has them; the process that
 * runs the job worker hands it `jobHandlers` (server.ts).
 */
import { cartCheckout, registerCheckoutPurposes } from './checkout'
import { egiftCheckout, markEgiftEmailed } from './egifts'
import { fulfilmentJobs } from './fulfilment'
import type { JobHandlers } from './jobs'
import { mailJobs, registerEmailSentHandlers } from './mail'
import { referralJobs } from './referral'

export function registerHandlers() {
  registerCheckoutPurposes({ cart: cartCheckout, egift: egiftCheckout })
  registerEmailSentHandlers({ egift: markEgiftEmailed })
}

/** Every kind of background job this API runs. */
export const jobHandlers: JobHandlers = { ...fulfilmentJobs, ...referralJobs, ...mailJobs }
