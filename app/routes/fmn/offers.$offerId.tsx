import { createFileRoute } from '@tanstack/react-router'
import { OfferDetail } from '~/features/fmn/OfferDetail'
import { OFFER_ID, offerQuery } from '~/features/fmn/offers.functions'

export const Route = createFileRoute('/fmn/offers/$offerId')({
  // Prefetched, not ensured: an unknown offer or a failed load is shown on the page.
  loader: async ({ context: { queryClient }, params }) => {
    if (!OFFER_ID.test(params.offerId)) return { title: 'Offer not found' }
    const outcome = await queryClient.ensureQueryData(offerQuery(params.offerId)).catch(() => null)
    if (!outcome) return { title: 'Partner offer' }
    return { title: outcome.ok ? `${outcome.data.title} — ${outcome.data.partner}` : 'Offer not found' }
  },
  head: ({ loaderData }) => ({ meta: [{ title: `${loaderData?.title ?? 'Partner offer'} — Keepsake` }] }),
  component: function OfferDetailRoute() {
    const { offerId } = Route.useParams()
    return <OfferDetail offerId={offerId} />
  },
})
