/**
 * Money rules of the cart, in whole cents. The server computes every total with these; the client
 * only shows what the server answered.
 */
export const SHIPPING_CENTS = 599
/** Orders whose sale-price subtotal reaches this ship free. */
export const FREE_SHIPPING_THRESHOLD_CENTS = 5000

export const toCents = (dollars: number) => Math.round(dollars * 100)

export type PricedLine = { priceCents: number; salePriceCents: number; quantity: number }

export function cartTotals(lines: PricedLine[], availableCreditCents = 0) {
  const subtotalCents = lines.reduce((sum, l) => sum + l.priceCents * l.quantity, 0)
  const saleSubtotal = lines.reduce((sum, l) => sum + Math.min(l.salePriceCents, l.priceCents) * l.quantity, 0)
  const itemCount = lines.reduce((sum, l) => sum + l.quantity, 0)
  const shippingCents = itemCount === 0 || saleSubtotal >= FREE_SHIPPING_THRESHOLD_CENTS ? 0 : SHIPPING_CENTS
  const beforeCredit = saleSubtotal + shippingCents
  const creditsCents = Math.max(0, Math.min(availableCreditCents, beforeCredit))
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
