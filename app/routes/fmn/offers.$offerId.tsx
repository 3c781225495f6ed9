import { createFileRoute, notFound } from '@tanstack/react-router'
import { OfferDetail } from '~/features/fmn/OfferDetail'
import { offerQuery } from '~/features/fmn/offers.functions'
import { offerIdParam } from '~/lib/search-params'

export const Route = createFileRoute('/fmn/offers/$offerId')({
  // A failed load is shown on the page; an unknown offer is the same friendly page answered 404 (issue 15, bug 8).
  loader: async ({ context: { queryClient }, params }) => {
    if (!offerIdParam.safeParse(params.offerId).success) throw notFound()
    const outcome = await queryClient.ensureQueryData(offerQuery(params.offerId)).catch(() => null)
    if (!outcome) return { title: 'Partner offer' }
    if (!outcome.ok && outcome.error.status === 404) throw notFound()
    return { title: outcome.ok ? `${outcome.data.title} — ${outcome.data.partner}` : 'Partner offer' }
  },
  notFoundComponent: function UnknownOffer() {
    const { offerId } = Route.useParams()
    return <OfferDetail offerId={offerId} />
  },
  // No loader data: the loader answered not-found.
  head: ({ loaderData }) => ({ meta: [{ title: `${loaderData?.title ?? 'Offer not found'} — Keepsake` }] }),
  component: function OfferDetailRoute() {
    const { offerId } = Route.useParams()
    return <OfferDetail offerId={offerId} />
  },
})
