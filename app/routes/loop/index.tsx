import { createFileRoute } from '@tanstack/react-router'
import { LoopLanding } from '~/features/loop/LoopLanding'

export const Route = createFileRoute('/loop/')({
  head: () => ({ meta: [{ title: 'Offers and promotions — Keepsake' }] }),
  component: LoopLanding,
})
