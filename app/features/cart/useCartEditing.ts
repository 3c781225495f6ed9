import { useQueryClient, type QueryClient } from '@tanstack/react-query'
import { useCallback, useRef, useState } from 'react'
import type { Cart, CartItem } from '~/contract/cart'
import { bundlesQuery } from '~/features/bundles/bundles-query'
import { cartTotals, OWN_PARCEL, toCents, type BundleRule } from '~/catalogue/pricing'
import { shippingMethodIds, shippingMethods, type ShippingMethodId } from '~/catalogue/shipping'
import { useSignInAction } from '~/lib/sign-in-action'
import { notify } from '~/lib/toast'
import { CART_PAID_MESSAGE } from '~/catalogue/cart-terms'
import { addCartItem, cartQuery, removeCartItem, setCartShipping, updateCartItemQuantity } from './cart.functions'
import { unreachable, type ApiFailure, type ApiOutcome } from '../../lib/api-outcome'

/**
 * The cart as it will look once a change lands: lines and totals from the catalogue prices the lines
 * carry, with the bundles the page has loaded (none yet: the server's answer adds their savings).
 */
export function withItems(cart: Cart, items: CartItem[], bundles: readonly BundleRule[], shippingMethod = cart.totals.shippingMethod): Cart {
  // A cart shipping to several addresses is priced parcel by parcel on the server (decision 055): its totals wait for the answer.
  if (cart.parcels.some((p) => p.addressId)) return { ...cart, items }
  // Shipping the print provider quotes (decision 072) is the server's to price: when the cart's own options are not
  // the table's, the totals wait for the answer too.
  if (JSON.stringify(tableShippingOptions(linesOf(cart.items), bundles)) !== JSON.stringify(cart.shippingOptions)) return { ...cart, items }
  const lines = linesOf(items)
  const totals = cartTotals(lines, cart.availableCreditCents, bundles, shippingMethod)
  const shippingOptions = tableShippingOptions(lines, bundles)
  const ownItems = items.map((i) => ({ cartItemId: i.id, quantity: i.quantity }))
  const parcels = cart.parcels.map((p) => (p.key === OWN_PARCEL ? { ...p, items: ownItems, shippingMethod, shippingOptions } : p))
  return { ...cart, items, totals, shippingOptions, parcels }
}

const linesOf = (items: CartItem[]) =>
  items.map((i) => ({
    priceCents: toCents(i.metadata.price),
    salePriceCents: toCents(i.metadata.salePrice),
    quantity: i.quantity,
    variantId: i.metadata.variantId,
  }))

/** Every method at the store's table price for these lines (what the server answers without quotes). */
const tableShippingOptions = (lines: ReturnType<typeof linesOf>, bundles: readonly BundleRule[]) =>
  shippingMethodIds.map((method) => ({ method, priceCents: cartTotals(lines, 0, bundles, method).shippingCents }))

function withQuantity(item: CartItem, quantity: number): CartItem {
  return {
    ...item,
    quantity,
    lineTotalCents: toCents(item.metadata.price) * quantity,
    lineSaleTotalCents: toCents(item.metadata.salePrice) * quantity,
  }
}

const { queryKey } = cartQuery()

/** The cart the page shows, named on each change so a cart paid in another tab refuses it (CART_ID_HEADER). */
const shownCartId = (queryClient: QueryClient) => queryClient.getQueryData(queryKey)?.id
const bundlesKey = bundlesQuery('').queryKey

/**
 * Changes to the cart, shown at once and sent one after another, so the API sees them in the order
 * the shopper made them. When the last one lands the cart shows what the server answered; a refused
 * change is thereby rolled back, and said so in a toast.
 */
export function useCartEditing() {
  const queryClient = useQueryClient()
  const signIn = useSignInAction()
  const chain = useRef<Promise<void>>(Promise.resolve())
  const pending = useRef(0)
  const confirmed = useRef<Cart | null>(null)
  const paidElsewhere = useRef(false)
  const [saving, setSaving] = useState(false)

  const withItemsNow = useCallback((cart: Cart, items: CartItem[]) => withItems(cart, items, queryClient.getQueryData(bundlesKey) ?? []), [queryClient])

  const change = useCallback(
    (show: (cart: Cart) => Cart, send: () => Promise<ApiOutcome<Cart>>, refused: (failure: ApiFailure) => void) => {
      const current = queryClient.getQueryData(queryKey)
      if (!current) return
      void queryClient.cancelQueries({ queryKey })
      if (pending.current === 0) confirmed.current = current
      pending.current += 1
      setSaving(true)
      queryClient.setQueryData(queryKey, show(current))
      const step = chain.current.then(async () => {
        const outcome = await send().catch(unreachable)
        if (outcome.ok) confirmed.current = outcome.data
        else {
          refused(outcome.error)
          // Another tab paid this cart (issue 43, item 8): the page shows the cart as it is now, the order's lines gone.
          if (outcome.error.message === CART_PAID_MESSAGE) paidElsewhere.current = true
        }
      })
      chain.current = step
      void step.finally(() => {
        pending.current -= 1
        if (pending.current > 0) return
        if (confirmed.current) queryClient.setQueryData(queryKey, confirmed.current)
        if (paidElsewhere.current) {
          paidElsewhere.current = false
          void queryClient.invalidateQueries({ queryKey })
        }
        setSaving(false)
      })
    },
    [queryClient],
  )

  const setQuantity = useCallback(
    (item: CartItem, quantity: number) =>
      change(
        (cart) =>
          withItemsNow(
            cart,
            cart.items.map((i) => (i.id === item.id ? withQuantity(i, quantity) : i)),
          ),
        () => updateCartItemQuantity({ data: { id: item.id, quantity, cartId: shownCartId(queryClient) } }),
        (failure) => notify.error(`We couldn’t change the quantity of your ${item.metadata.title}: ${failure.message}`, signIn(failure)),
      ),
    [change, queryClient, signIn, withItemsNow],
  )

  const putBack = useCallback(
    (item: CartItem, at: number) =>
      change(
        (cart) => {
          const items = cart.items.filter((i) => i.itemIdentifier !== item.itemIdentifier)
          items.splice(Math.min(at, items.length), 0, item)
          return withItemsNow(cart, items)
        },
        async () => {
          // The same line again: its identifier, design and quantity.
          const outcome = await addCartItem({
            data: { itemIdentifier: item.itemIdentifier, provider: item.provider, metadata: item.metadata, quantity: item.quantity },
          })
          return outcome.ok ? { ok: true, data: outcome.data.cart } : outcome
        },
        (failure) => notify.error(`We couldn’t put your ${item.metadata.title} back: ${failure.message}`, signIn(failure)),
      ),
    [change, signIn, withItemsNow],
  )

  const remove = useCallback(
    (item: CartItem) => {
      const at = queryClient.getQueryData(queryKey)?.items.findIndex((i) => i.id === item.id) ?? 0
      let refused = false
      change(
        (cart) =>
          withItemsNow(
            cart,
            cart.items.filter((i) => i.id !== item.id),
          ),
        () => removeCartItem({ data: { id: item.id, cartId: shownCartId(queryClient) } }),
        (failure) => {
          refused = true
          notify.error(`We couldn’t remove your ${item.metadata.title}: ${failure.message}`, signIn(failure))
        },
      )
      notify.success(`Removed your ${item.metadata.title}`, {
        label: 'Undo',
        onClick: () => {
          if (!refused) putBack(item, at)
        },
      })
    },
    [change, putBack, queryClient, signIn, withItemsNow],
  )

  const setShipping = useCallback(
    (method: ShippingMethodId) =>
      change(
        (cart) => withItems(cart, cart.items, queryClient.getQueryData(bundlesKey) ?? [], method),
        () => setCartShipping({ data: { method, cartId: shownCartId(queryClient) } }),
        (failure) => notify.error(`We couldn’t switch to ${shippingMethods[method].label.toLowerCase()} shipping: ${failure.message}`, signIn(failure)),
      ),
    [change, queryClient, signIn],
  )

  return { saving, setQuantity, remove, setShipping }
}
