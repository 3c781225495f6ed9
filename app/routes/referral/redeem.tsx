import { createFileRoute } from '@tanstack/react-router'
import { ReferralAccountPage } from '~/features/referral/ReferralAccountPage'

export const Route = createFileRoute('/referral/redeem')({
  head: () => ({ meta: [{ title: 'Redeem an invite — Keepsake' }] }),
  component: () => (
    <ReferralAccountPage eyebrow="Redeem an invite" title="Claim your friend’s gift">
      <p>Invites are redeemed by the family that was invited, signed in to Keepsake. Open the Keepsake app on your phone and we will apply your credit to your first photo product.</p>
    </ReferralAccountPage>
  ),
})
