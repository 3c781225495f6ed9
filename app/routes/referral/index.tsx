import { createFileRoute } from '@tanstack/react-router'
import { ReferralIndexPage } from '~/features/referral/AdvocateDashboard'
import { advocateStateQuery } from '~/features/referral/referral.functions'

export const Route = createFileRoute('/referral/')({
  // Prefetched, not ensured: signed out shows the explainer, a failed load a retry.
  loader: ({ context }) => context.queryClient.prefetchQuery(advocateStateQuery()),
  head: () => ({ meta: [{ title: 'Refer a friend — Keepsake' }] }),
  component: ReferralIndexPage,
})
