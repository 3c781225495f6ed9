import { createFileRoute } from '@tanstack/react-router'
import { lookupReferralInvite, referredStateQuery } from '~/features/referral/referral.functions'
import { RedeemPage } from '~/features/referral/RedeemPage'
import { referralRedeemSearch } from '~/lib/search-params'

export const Route = createFileRoute('/referral/redeem')({
  // ?code=: the invite the landing came from, so it is shown (and remembered again) even without the cookie.
  validateSearch: referralRedeemSearch,
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
