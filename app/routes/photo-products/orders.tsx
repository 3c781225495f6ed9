import { createFileRoute } from '@tanstack/react-router'
import { ordersQuery } from '~/features/cart/cart.functions'
import { OrdersPage } from '~/features/cart/OrdersPage'

export const Route = createFileRoute('/photo-products/orders')({
  // Prefetched, not ensured: orders that fail to load are shown on the page with a retry.
  loader: ({ context }) => context.queryClient.prefetchQuery(ordersQuery()),
  head: () => ({ meta: [{ title: 'Your orders — Keepsake' }] }),
  component: OrdersPage,
})
