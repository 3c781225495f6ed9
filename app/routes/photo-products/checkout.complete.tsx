import { createFileRoute } from '@tanstack/react-router'
import { checkoutCompleteSearch } from '~/lib/search-params'
import { ErrorPage } from '~/components/ui/ErrorPage'
import { checkoutSessionQuery } from '~/features/cart/cart.functions'
import { CheckoutCompletePage } from '~/features/cart/CheckoutCompletePage'

export const Route = createFileRoute('/photo-products/checkout/complete')({
  // The success URL the API gives the provider: ?checkout=<our session id>&session_id=<the provider's id>.
  validateSearch: checkoutCompleteSearch,
  loaderDeps: ({ search }) => ({ checkout: search.checkout }),
  loader: ({ context, deps }) => (deps.checkout ? context.queryClient.prefetchQuery(checkoutSessionQuery(deps.checkout)) : undefined),
  head: () => ({ meta: [{ title: 'Your order — Keepsake' }, { name: 'robots', content: 'noindex' }] }),
  component: CheckoutCompleteRoute,
})

function CheckoutCompleteRoute() {
  const { checkout } = Route.useSearch()
  if (!checkout) {
    return <ErrorPage title="We can’t find this checkout" message="The link is missing its checkout reference. If you paid, your order is under Orders." />
  }
  return <CheckoutCompletePage key={checkout} sessionId={checkout} />
}
