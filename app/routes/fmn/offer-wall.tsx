import { createFileRoute } from '@tanstack/react-router'
import { OfferWall } from '~/features/fmn/OfferWall'

export const Route = createFileRoute('/fmn/offer-wall')({
  head: () => ({ meta: [{ title: 'Offer wall — Keepsake' }] }),
  component: OfferWall,
})
