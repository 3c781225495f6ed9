import { createFileRoute } from '@tanstack/react-router'
import { egiftCompleteSearch } from '~/lib/search-params'
import { ErrorPage } from '~/components/ui/ErrorPage'
import { EgiftCompletePage } from '~/features/egifts/EgiftCompletePage'
import { egiftPurchaseQuery } from '~/features/egifts/egifts.functions'

export const Route = createFileRoute('/egifts/complete')({
  // The success URL the API gives the provider: ?gift=<our gift id>&session_id=<the provider's id>.
  validateSearch: egiftCompleteSearch,
  loaderDeps: ({ search }) => ({ gift: search.gift }),
  loader: ({ context, deps }) => (deps.gift ? context.queryClient.prefetchQuery(egiftPurchaseQuery(deps.gift)) : undefined),
  head: () => ({ meta: [{ title: 'Your e-gift — Keepsake' }, { name: 'robots', content: 'noindex' }] }),
  component: EgiftCompleteRoute,
})

function EgiftCompleteRoute() {
  const { gift } = Route.useSearch()
  if (!gift) {
    return <ErrorPage title="We can’t find this gift" message="The link is missing its gift reference. Gifts you’ve bought are listed on the e-gifts page." />
  }
  return <EgiftCompletePage key={gift} giftId={gift} />
}
