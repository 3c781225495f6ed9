import { createFileRoute } from '@tanstack/react-router'
import { ReferralHome } from '~/features/referral/ReferralHome'

export const Route = createFileRoute('/referral/')({
  head: () => ({ meta: [{ title: 'Refer a friend — Keepsake' }] }),
  component: ReferralHome,
})
