import { createFileRoute } from '@tanstack/react-router'
import { RedeemEgiftPage } from '~/features/egifts/RedeemEgiftPage'
import { currentUserQuery } from '~/features/account/account.functions'

/** What a code may look like in a link: the API forgives case, spaces and dashes, so they are kept as sent. */
const CODE = /^[A-Za-z0-9 -]{1,40}$/

export const Route = createFileRoute('/egifts/redeem')({
  // ?code=: the link in the recipient's e-mail fills the code in.
  validateSearch: (search: Record<string, unknown>): { code?: string } => ({
    code: typeof search.code === 'string' && CODE.test(search.code.trim()) ? search.code.trim().toUpperCase() : undefined,
  }),
  loader: ({ context }) => context.queryClient.prefetchQuery(currentUserQuery()),
  head: () => ({ meta: [{ title: 'Redeem an e-gift — Keepsake' }, { name: 'robots', content: 'noindex' }] }),
  component: function RedeemEgiftRoute() {
    const { code } = Route.useSearch()
    return <RedeemEgiftPage key={code ?? ''} code={code} />
  },
})
