import { createFileRoute } from '@tanstack/react-router'
import { PastReferralsPage } from '~/features/referral/PastReferralsPage'
import { advocateStateQuery } from '~/features/referral/referral.functions'

export const Route = createFileRoute('/referral/advocate/$advocateReferralCode/redemptions/$redemptionId/past')({
  loader: ({ context }) => context.queryClient.prefetchQuery(advocateStateQuery()),
  head: () => ({ meta: [{ title: 'Past referrals — Keepsake' }, { name: 'robots', content: 'noindex' }] }),
  component: function PastReferralsRoute() {
    const { advocateReferralCode, redemptionId } = Route.useParams()
    return <PastReferralsPage code={advocateReferralCode} redemptionId={redemptionId} />
  },
})
