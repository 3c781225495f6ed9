import { createFileRoute, notFound, redirect } from '@tanstack/react-router'
import { checkoutSessionQuery } from '~/features/cart/cart.functions'
import { LocalCheckoutPage } from '~/features/cart/LocalCheckoutPage'
import { currentUserQuery } from '~/features/account/account.functions'
import { idParam } from '~/lib/search-params'

/** The local payment provider's hosted page: the `url` of a local checkout session. */
export const Route = createFileRoute('/utils/checkout/$sessionId')({
  beforeLoad: ({ params }) => {
    if (!idParam.safeParse(params.sessionId).success) throw notFound()
  },
  loader: async ({ context: { queryClient }, params }) => {
    const [session] = await Promise.all([queryClient.fetchQuery(checkoutSessionQuery(params.sessionId)), queryClient.prefetchQuery(currentUserQuery())])
    // Paid (or being paid) already: the shopper belongs on the return page.
    if (session.ok && (session.data.status === 'paid' || session.data.status === 'processing')) {
      // An e-gift's one line is the gift: its own return page follows it.
      const giftId = session.data.purpose === 'egift' ? session.data.lines[0]?.cartItemId : undefined
      if (giftId) throw redirect({ to: '/egifts/complete', search: { gift: giftId }, replace: true })
      throw redirect({ to: '/photo-products/checkout/complete', search: { checkout: params.sessionId }, replace: true })
    }
  },
  head: () => ({ meta: [{ title: 'Checkout — Keepsake' }, { name: 'robots', content: 'noindex' }] }),
  component: function LocalCheckoutRoute() {
    const { sessionId } = Route.useParams()
    return <LocalCheckoutPage sessionId={sessionId} />
  },
})
