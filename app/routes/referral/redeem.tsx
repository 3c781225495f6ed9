import { createFileRoute } from '@tanstack/react-router'
import { lookupReferralInvite, referredStateQuery } from '~/features/referral/referral.functions'
import { RedeemPage } from '~/features/referral/RedeemPage'

const CODE = /^[A-Za-z0-9-]{1,32}$/

export const Route = createFileRoute('/referral/redeem')({
  // ?code=: the invite the landing came from, so it is shown (and remembered again) even without the cookie.
  validateSearch: (search: Record<string, unknown>): { code?: string } => ({
    code: typeof search.code === 'string' && CODE.test(search.code) ? search.code.toUpperCase() : undefined,
  }),
  loaderDeps: ({ search }) => ({ code: search.code }),
  loader: async ({ context, deps }) => {
    const [lookedUp] = await Promise.all([
      deps.code ? lookupReferralInvite({ data: { code: deps.code } }) : null,
      context.queryClient.prefetchQuery(referredStateQuery()),
    ])
    return { lookedUp }
  },
  head: () => ({ meta: [{ title: 'Redeem an invite — Keepsake' }, { name: 'robots', content: 'noindex' }] }),
  component: function RedeemRoute() {
    const { code } = Route.useSearch()
    const { lookedUp } = Route.useLoaderData()
    return <RedeemPage code={code} lookedUp={lookedUp} />
  },
})
