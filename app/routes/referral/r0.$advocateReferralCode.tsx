import { createFileRoute } from '@tanstack/react-router'
import { loadLanding } from '~/features/referral/landing-loader'
import { ReferralLanding, UnknownInvitePage } from '~/features/referral/ReferralLanding'

export const Route = createFileRoute('/referral/r0/$advocateReferralCode')({
  notFoundComponent: (props) => <UnknownInvitePage variant="r0" {...props} />,
  loader: ({ context, params }) => loadLanding(context.queryClient, params.advocateReferralCode),
  head: ({ loaderData }) => ({ meta: [{ title: loaderData?.title ?? 'You’re invited to Keepsake' }] }),
  component: function Landing() {
    const { advocateReferralCode } = Route.useParams()
    const { invite } = Route.useLoaderData()
    return <ReferralLanding variant="r0" code={advocateReferralCode} invite={invite} />
  },
})
