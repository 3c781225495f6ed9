import { createFileRoute } from '@tanstack/react-router'
import { FmnLanding } from '~/features/fmn/FmnLanding'

export const Route = createFileRoute('/fmn/')({
  head: () => ({ meta: [{ title: 'Partner offers — Keepsake' }] }),
  component: FmnLanding,
})
