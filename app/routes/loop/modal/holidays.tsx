import { createFileRoute } from '@tanstack/react-router'
import { CampaignPage } from '~/features/loop/CampaignPage'
import { campaignHead } from '~/features/loop/campaign-titles'
import { campaignPhotosQuery } from '~/features/loop/loop.functions'

export const Route = createFileRoute('/loop/modal/holidays')({
  staticData: { sheet: true },
  // Prefetched, not ensured: signed out shows the sign-in prompt, a failed load a retry.
  loader: ({ context }) => context.queryClient.prefetchQuery(campaignPhotosQuery()),
  head: () => campaignHead('modal-holidays'),
  component: () => <CampaignPage id="modal-holidays" />,
})
