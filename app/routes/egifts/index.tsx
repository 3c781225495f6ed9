import { createFileRoute } from '@tanstack/react-router'
import { useCallback } from 'react'
import { cancelledSearch } from '~/lib/search-params'
import { egiftPurchasesQuery } from '~/features/egifts/egifts.functions'
import { EgiftsLanding } from '~/features/egifts/EgiftsLanding'
import { PurchaseForm, SentGifts } from '~/features/egifts/landing-parts'
import { currentUserQuery } from '~/features/account/account.functions'

export const Route = createFileRoute('/egifts/')({
  // ?cancelled=<gift id>: the cancel URL the API gives the payment provider.
  validateSearch: cancelledSearch,
  // Prefetched, not ensured: a load that fails is shown on the page with a retry. The form and the sent gifts, which a
  // signed-in shopper sees, come with the page (their code is not part of a signed-out visitor's first load).
  loader: async ({ context: { queryClient } }) => {
    await Promise.all([queryClient.prefetchQuery(currentUserQuery()), queryClient.prefetchQuery(egiftPurchasesQuery())])
    const parts = [
      queryClient.getQueryData(currentUserQuery().queryKey) ? PurchaseForm : null,
      queryClient.getQueryData(egiftPurchasesQuery().queryKey)?.length ? SentGifts : null,
    ]
    // A part that failed to load is fetched again when it renders, and fails there on the route's error page.
    await Promise.all(parts.map((part) => part?.preload().catch(() => undefined)))
  },
  head: () => ({ meta: [{ title: 'E-gifts — Keepsake' }] }),
  component: EgiftsRoute,
})

function EgiftsRoute() {
  const { cancelled } = Route.useSearch()
  const navigate = Route.useNavigate()
  const onDismissCancelled = useCallback(() => void navigate({ to: '/egifts', search: {}, replace: true, resetScroll: false }), [navigate])
  return <EgiftsLanding cancelledGiftId={cancelled} onDismissCancelled={onDismissCancelled} />
}
