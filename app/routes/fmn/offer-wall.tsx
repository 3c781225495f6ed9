import { createFileRoute } from '@tanstack/react-router'
import { OfferWall } from '~/features/fmn/OfferWall'
import { offersQuery } from '~/features/fmn/offers.functions'

export const Route = createFileRoute('/fmn/offer-wall')({
  // Prefetched, not ensured: offers that fail to load are shown on the page with a retry.
  loader: ({ context }) => context.queryClient.prefetchQuery(offersQuery()),
  head: () => ({ meta: [{ title: 'Offer wall — Keepsake' }] }),
  component: OfferWall,
})
