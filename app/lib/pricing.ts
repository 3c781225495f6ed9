/**
 * Money rules of the cart, in whole cents. The server computes every total with these; the client
 * only shows what the server answered.
 */
export const SHIPPING_CENTS = 599
/** Orders whose sale-price subtotal reaches this ship free. */
export const FREE_SHIPPING_THRESHOLD_CENTS = 5000

export const toCents = (dollars: number) => Math.round(dollars * 100)

/** Store credit never takes a payment below this (Stripe's smallest US charge), so every checkout has a payment to take. */
export const MIN_CHARGE_CENTS = 50

export type PricedLine = { priceCents: number; salePriceCents: number; quantity: number }

/**
 * Store credit pays for ornaments, not shipping (Stripe's coupons cannot discount shipping, and one
 * rule for every checkout keeps the totals the shopper sees equal to what they are charged), and it
 * leaves at least MIN_CHARGE_CENTS to pay.
 */
export function cartTotals(lines: PricedLine[], availableCreditCents = 0) {
  const subtotalCents = lines.reduce((sum, l) => sum + l.priceCents * l.quantity, 0)
  const saleSubtotal = lines.reduce((sum, l) => sum + Math.min(l.salePriceCents, l.priceCents) * l.quantity, 0)
  const itemCount = lines.reduce((sum, l) => sum + l.quantity, 0)
  const shippingCents = itemCount === 0 || saleSubtotal >= FREE_SHIPPING_THRESHOLD_CENTS ? 0 : SHIPPING_CENTS
  const beforeCredit = saleSubtotal + shippingCents
  const creditable = Math.min(saleSubtotal, beforeCredit - MIN_CHARGE_CENTS)
  const creditsCents = Math.max(0, Math.min(availableCreditCents, creditable))
  return {
    currency: 'usd' as const,
    itemCount,
    subtotalCents,
    saleSavingsCents: subtotalCents - saleSubtotal,
    shippingCents,
    creditsCents,
    totalCents: beforeCredit - creditsCents,
    freeShippingRemainingCents: itemCount === 0 ? FREE_SHIPPING_THRESHOLD_CENTS : Math.max(0, FREE_SHIPPING_THRESHOLD_CENTS - saleSubtotal),
  }
}
