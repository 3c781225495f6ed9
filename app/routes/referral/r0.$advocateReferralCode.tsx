import { createFileRoute } from '@tanstack/react-router'
import { ReferralLanding } from '~/features/referral/ReferralLanding'

export const Route = createFileRoute('/referral/r0/$advocateReferralCode')({
  head: () => ({ meta: [{ title: 'You’re invited to Keepsake' }] }),
  component: function Landing() {
    const { advocateReferralCode } = Route.useParams()
    return <ReferralLanding variant="r0" code={advocateReferralCode} />
  },
})
