import { createFileRoute } from '@tanstack/react-router'
import { loadLanding } from '~/features/referral/landing-loader'
import { ReferralLanding, UnknownInvitePage } from '~/features/referral/ReferralLanding'

export const Route = createFileRoute('/referral/refer/$advocateReferralCode')({
  notFoundComponent: (props) => <UnknownInvitePage variant="refer" {...props} />,
  loader: ({ context, params }) => loadLanding(context.queryClient, params.advocateReferralCode),
  head: ({ loaderData }) => ({ meta: [{ title: loaderData?.title ?? 'You’re invited to Keepsake' }] }),
  component: function Landing() {
    const { advocateReferralCode } = Route.useParams()
    const { invite } = Route.useLoaderData()
    return <ReferralLanding variant="refer" code={advocateReferralCode} invite={invite} />
  },
})
