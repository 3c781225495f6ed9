import { createFileRoute } from '@tanstack/react-router'
import { useCallback } from 'react'
import { cancelledSearch } from '~/lib/search-params'
import { cartQuery } from '~/features/cart/cart.functions'
import { CartPage } from '~/features/cart/CartPage'
import { shippingCalendarQuery } from '~/features/cart/shipping.functions'

export const Route = createFileRoute('/photo-products/cart')({
  // ?cancelled=<checkout session id>: the cancel URL the API gives the payment provider.
  validateSearch: cancelledSearch,
  // Prefetched, not ensured: a cart that fails to load is shown on the page with a retry.
  loader: ({ context }) => Promise.all([context.queryClient.prefetchQuery(cartQuery()), context.queryClient.prefetchQuery(shippingCalendarQuery())]),
  head: () => ({ meta: [{ title: 'Your cart — Keepsake' }] }),
  component: CartRoute,
})

function CartRoute() {
  const { cancelled } = Route.useSearch()
  const navigate = Route.useNavigate()
  const onCancelledHandled = useCallback(() => void navigate({ search: {}, replace: true }), [navigate])
  return <CartPage cancelledSessionId={cancelled} onCancelledHandled={onCancelledHandled} />
}
