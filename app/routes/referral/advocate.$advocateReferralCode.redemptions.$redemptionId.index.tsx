import { createFileRoute } from '@tanstack/react-router'
import { advocateRedemptionQuery } from '~/features/referral/referral.functions'
import { RedemptionPage } from '~/features/referral/RedemptionPage'
import { idParam } from '~/lib/search-params'

export const Route = createFileRoute('/referral/advocate/$advocateReferralCode/redemptions/$redemptionId/')({
  // Prefetched, not ensured: a redemption that fails to load is shown on the page with a retry.
  loader: ({ context, params }) =>
    idParam.safeParse(params.redemptionId).success ? context.queryClient.prefetchQuery(advocateRedemptionQuery(params.redemptionId)) : undefined,
  head: () => ({ meta: [{ title: 'Your referral reward — Keepsake' }, { name: 'robots', content: 'noindex' }] }),
  component: function RedemptionRoute() {
    const { advocateReferralCode, redemptionId } = Route.useParams()
    return <RedemptionPage code={advocateReferralCode} redemptionId={redemptionId} />
  },
})
