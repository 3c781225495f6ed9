import { createFileRoute } from '@tanstack/react-router'
import { ReferralAccountPage } from '~/features/referral/ReferralAccountPage'

export const Route = createFileRoute('/referral/advocate/$advocateReferralCode/redemptions/$redemptionId/past')({
  head: () => ({ meta: [{ title: 'Past referrals — Keepsake' }] }),
  component: () => (
    <ReferralAccountPage eyebrow="Refer a friend" title="Your past referrals">
      <p>Your referral history lives with your account. Open the Keepsake app, signed in, to see every friend you invited and each reward’s state.</p>
    </ReferralAccountPage>
  ),
})
