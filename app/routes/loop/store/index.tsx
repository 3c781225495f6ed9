import { createFileRoute } from '@tanstack/react-router'
import { campaignHead } from '~/features/loop/campaign-titles'
import { campaignPhotosQuery } from '~/features/loop/loop.functions'
import { StorePage } from '~/features/loop/StorePage'
import { photoProductQuery } from '~/features/photo-products/photo-products.functions'

export const Route = createFileRoute('/loop/store/')({
  loader: ({ context: { queryClient } }) => Promise.all([queryClient.ensureQueryData(photoProductQuery()), queryClient.prefetchQuery(campaignPhotosQuery())]),
  head: () => campaignHead('store'),
  component: StorePage,
})
