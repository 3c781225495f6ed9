import { createFileRoute } from '@tanstack/react-router'
import * as z from 'zod/mini'
import { ErrorPage } from '~/components/ui/ErrorPage'
import { EgiftCompletePage } from '~/features/egifts/EgiftCompletePage'
import { egiftPurchaseQuery } from '~/features/egifts/egifts.functions'

// The success URL the API gives the provider: ?gift=<our gift id>&session_id=<the provider's id>.
const searchSchema = z.object({
  gift: z.catch(z.optional(z.uuid()), undefined),
  session_id: z.catch(z.optional(z.string().check(z.maxLength(255))), undefined),
})

export const Route = createFileRoute('/egifts/complete')({
  validateSearch: searchSchema,
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
