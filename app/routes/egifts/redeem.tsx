import { createFileRoute } from '@tanstack/react-router'
import { RedeemEgiftPage } from '~/features/egifts/RedeemEgiftPage'
import { currentUserQuery } from '~/features/account/account.functions'
import { egiftRedeemSearch } from '~/lib/search-params'

export const Route = createFileRoute('/egifts/redeem')({
  // ?code=: the link in the recipient's e-mail fills the code in.
  validateSearch: egiftRedeemSearch,
  loader: ({ context }) => context.queryClient.prefetchQuery(currentUserQuery()),
  head: () => ({ meta: [{ title: 'Redeem an e-gift — Keepsake' }, { name: 'robots', content: 'noindex' }] }),
  component: function RedeemEgiftRoute() {
    const { code } = Route.useSearch()
    return <RedeemEgiftPage key={code ?? ''} code={code} />
  },
})
