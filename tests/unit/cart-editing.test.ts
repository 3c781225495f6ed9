import { describe, expect, it } from 'vitest'
import type { Cart, CartItem } from '../../app/contract/cart'
import { withItems } from '../../app/features/cart/useCartEditing'

/** The cart page's optimistic view (useCartEditing): it never prices shipping the server priced from a quote. */
const item = (quantity: number) =>
  ({
    id: 'line-1',
    quantity,
    metadata: { price: 29.99, salePrice: 24.99, variantId: 72965 },
    lineTotalCents: 2999 * quantity,
    lineSaleTotalCents: 2499 * quantity,
  }) as unknown as CartItem

function cartShipping(options: { method: 'standard' | 'express'; priceCents: number }[]): Cart {
  const items = [item(1)]
  return {
    items,
    availableCreditCents: 0,
    totals: { shippingMethod: 'standard', shippingCents: options[0]!.priceCents, totalCents: 2499 + options[0]!.priceCents },
    shippingOptions: options,
    parcels: [{ key: 'own', addressId: null, shippingMethod: 'standard', items: [{ cartItemId: 'line-1', quantity: 1 }], shippingOptions: options }],
  } as unknown as Cart
}

describe('withItems', () => {
  it('prices a quantity change from the table while the server priced shipping from the table', () => {
    const cart = cartShipping([
      { method: 'standard', priceCents: 599 },
      { method: 'express', priceCents: 1499 },
    ])
    expect(withItems(cart, [item(2)], []).totals.shippingCents).toBe(599)
    expect(withItems(cart, [item(2)], []).totals.subtotalCents).toBe(2 * 2999)
  })

  it('waits for the server when it priced shipping from Printify’s quote (decision 072)', () => {
    const cart = cartShipping([
      { method: 'standard', priceCents: 450 },
      { method: 'express', priceCents: 1250 },
    ])
    const next = withItems(cart, [item(2)], [])
    expect(next.items[0]!.quantity).toBe(2)
    expect(next.totals).toBe(cart.totals)
    expect(next.shippingOptions).toBe(cart.shippingOptions)
  })
})
