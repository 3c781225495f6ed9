/**
 * Who handles what, in one list: the handler of each checkout purpose (what paying for a session
 * does), of each kind of sent e-mail that its sender must hear of, and of each kind of background
 * job. The services name no one above them; this module, on top of them, ties them together, so
 * checkout, e-gifts and mail import each other in no circle (docs/decisions/025-purpose-handlers.md).
 *
 * createApi calls registerHandlers, so every process that makes the API (the store's server,
 * scripts/serve-api.ts, the tests' createTestApi, the operator scripts) has them; the process that
 * runs the job worker hands it `jobHandlers` and schedules `recurringJobs` before each drain (server.ts).
 */
import { cartCheckout, closeCheckoutsOfChangedCredit, registerCheckoutPurposes } from './checkout'
import { registerCreditGranted } from './credit'
import type { ApiDeps } from '../env'
import { idempotencyJobs, scheduleIdempotencyPrune } from '../idempotency'
import { egiftCheckout, markEgiftEmailed } from './egifts'
import { fulfilmentJobs } from './fulfilment'
import type { JobHandlers } from './jobs'
import { mailJobs, registerEmailSentHandlers } from './mail'
import { previewRetentionJobs, schedulePreviewRetention } from './preview-retention'
import { printFileJobs } from './print-files'
import { printifyOrderJobs, schedulePrintifyPoll } from './printify-orders'
import { referralJobs } from './referral'
import { signInLinkJobs } from './sign-in-links'

export function registerHandlers() {
  registerCheckoutPurposes({ cart: cartCheckout, egift: egiftCheckout })
  registerEmailSentHandlers({ egift: markEgiftEmailed })
  registerCreditGranted(closeCheckoutsOfChangedCredit)
}

/** Every kind of background job this API runs. */
export const jobHandlers: JobHandlers = {
  ...fulfilmentJobs,
  ...printifyOrderJobs,
  ...referralJobs,
  ...mailJobs,
  ...previewRetentionJobs,
  ...printFileJobs,
  ...signInLinkJobs,
  ...idempotencyJobs,
}

/**
 * The jobs that come back on their own, each enqueued under a key per period (a day; an hour for the idempotency keys' prune;
 * PRINTIFY_POLL_MINUTES for the Printify poll), so however many
 * processes drain the table, each period's run happens once. The worker calls this before each drain.
 */
export async function scheduleRecurringJobs(deps: ApiDeps) {
  await schedulePreviewRetention(deps)
  await schedulePrintifyPoll(deps)
  await scheduleIdempotencyPrune(deps)
}
