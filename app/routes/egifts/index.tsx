import { createFileRoute } from '@tanstack/react-router'
import { useCallback } from 'react'
import { cancelledSearch } from '~/lib/search-params'
import { egiftPurchasesQuery } from '~/features/egifts/egifts.functions'
import { EgiftsLanding } from '~/features/egifts/EgiftsLanding'
import { currentUserQuery } from '~/features/account/account.functions'

export const Route = createFileRoute('/egifts/')({
  // ?cancelled=<gift id>: the cancel URL the API gives the payment provider.
  validateSearch: cancelledSearch,
  // Prefetched, not ensured: a load that fails is shown on the page with a retry.
  loader: ({ context }) => Promise.all([context.queryClient.prefetchQuery(currentUserQuery()), context.queryClient.prefetchQuery(egiftPurchasesQuery())]),
  head: () => ({ meta: [{ title: 'E-gifts — Keepsake' }] }),
  component: EgiftsRoute,
})

function EgiftsRoute() {
  const { cancelled } = Route.useSearch()
  const navigate = Route.useNavigate()
  const onDismissCancelled = useCallback(() => void navigate({ to: '/egifts', search: {}, replace: true, resetScroll: false }), [navigate])
  return <EgiftsLanding cancelledGiftId={cancelled} onDismissCancelled={onDismissCancelled} />
}
