/**
 * The states of a cart, a checkout session and an order, and the only moves between them
 * (SPEC.md §4). Services ask `canMove` before every change and refuse the rest with 409.
 */
import type { CartStatus, CheckoutSessionStatus, OrderStatus } from '../../contract/cart'

type Transitions<S extends string> = Record<S, readonly S[]>

/**
 * Cart: abandoned when the shopper cancels or leaves checkout, resumed when they come back. A paid
 * session checks the cart out even when it was abandoned meanwhile (a late payment is never lost).
 */
export const cartTransitions: Transitions<CartStatus> = {
  active: ['abandoned', 'checked_out'],
  abandoned: ['active', 'checked_out'],
  checked_out: [],
}

/**
 * Checkout session: payments only move forward, so a webhook delivered late or twice never undoes a
 * newer state. `processing` is a completed session whose payment (e.g. a bank debit) is still pending.
 * A session we consider expired that the provider says was paid is still paid: money is never dropped.
 */
export const checkoutSessionTransitions: Transitions<CheckoutSessionStatus> = {
  open: ['processing', 'paid', 'failed', 'expired'],
  processing: ['paid', 'failed'],
  paid: [],
  failed: [],
  expired: ['paid'],
}

/**
 * Order: made paid, then moved along by the print provider; a failed submission is retried by hand. Any order can be
 * refunded. The provider may cancel an order it has not shipped (Printify's order:canceled); it is then refunded by hand.
 */
export const orderTransitions: Transitions<OrderStatus> = {
  paid: ['submitted', 'submission_failed', 'refunded'],
  submission_failed: ['submitted', 'refunded'],
  submitted: ['in_production', 'shipped', 'canceled', 'refunded'],
  in_production: ['shipped', 'canceled', 'refunded'],
  shipped: ['refunded'],
  canceled: ['refunded'],
  refunded: [],
}

export function canMove<S extends string>(transitions: Transitions<S>, from: S, to: S): boolean {
  return transitions[from].includes(to)
}
