import { createFileRoute } from '@tanstack/react-router'
import { ReferralAccountPage } from '~/features/referral/ReferralAccountPage'

export const Route = createFileRoute('/referral/advocate/$advocateReferralCode/redemptions/$redemptionId/')({
  head: () => ({ meta: [{ title: 'Your referral reward — Keepsake' }] }),
  component: () => (
    <ReferralAccountPage eyebrow="Refer a friend" title="Your referral reward">
      <p>Rewards belong to the family that shared the invite. Open the Keepsake app, signed in as that family, to see this friend’s progress and the credit you earned.</p>
    </ReferralAccountPage>
  ),
})
