import { createFileRoute } from '@tanstack/react-router'
import { loadLanding } from '~/features/referral/landing-loader'
import { ReferralLanding, UnknownInvitePage } from '~/features/referral/ReferralLanding'

export const Route = createFileRoute('/referral/r/$advocateReferralCode')({
  notFoundComponent: (props) => <UnknownInvitePage variant="r" {...props} />,
  loader: ({ context, params }) => loadLanding(context.queryClient, params.advocateReferralCode),
  head: ({ loaderData }) => ({ meta: [{ title: loaderData?.title ?? 'You’re invited to Keepsake' }] }),
  component: function Landing() {
    const { advocateReferralCode } = Route.useParams()
    const { invite } = Route.useLoaderData()
    return <ReferralLanding variant="r" code={advocateReferralCode} invite={invite} />
  },
})
