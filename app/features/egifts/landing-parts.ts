import { lazyPart } from '~/lib/lazy-part'

/**
 * The parts of /egifts that only a signed-in shopper sees: the purchase form, and the gifts they have sent. A signed-out
 * visitor's first load does not carry their code (decision 049); the route's loader fetches it beside the page when the
 * shopper is signed in, and a page the server painted them on fetches it before it hydrates.
 */
export const PurchaseForm = lazyPart('egift-purchase-form', () => import('./PurchaseForm').then((m) => m.PurchaseForm))
export const SentGifts = lazyPart('sent-gifts', () => import('./SentGifts').then((m) => m.SentGifts))
