import { createFileRoute } from '@tanstack/react-router'
import { MyDesignsPage } from '~/features/designer/MyDesignsPage'
import { savedDesignsQuery } from '~/features/designer/api/saved-designs.functions'

export const Route = createFileRoute('/photo-products/designs')({
  // Prefetched, not ensured: designs that fail to load are shown on the page with a retry.
  loader: ({ context }) => context.queryClient.prefetchQuery(savedDesignsQuery()),
  head: () => ({ meta: [{ title: 'My designs — Keepsake' }] }),
  component: MyDesignsPage,
})
