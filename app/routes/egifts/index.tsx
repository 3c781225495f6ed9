import { createFileRoute } from '@tanstack/react-router'
import { EgiftsLanding } from '~/features/egifts/EgiftsLanding'

export const Route = createFileRoute('/egifts/')({
  head: () => ({ meta: [{ title: 'E-gifts — Keepsake' }] }),
  component: EgiftsLanding,
})
