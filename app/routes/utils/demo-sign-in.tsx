import { createFileRoute, notFound } from '@tanstack/react-router'
import { currentUserQuery } from '~/features/account/account.functions'
import { getDemoUsers } from '~/features/account/demo-sign-in.functions'
import { DemoSignIn } from '~/features/utils/DemoSignIn'
import { redirectSearch } from '~/lib/search-params'

export const Route = createFileRoute('/utils/demo-sign-in')({
  // ?redirect=: where to go once signed in; only a path on this site is kept (no open redirect).
  validateSearch: redirectSearch,
  loader: async ({ context }) => {
    const [demo] = await Promise.all([getDemoUsers(), context.queryClient.ensureQueryData(currentUserQuery())])
    // Absent, not merely hidden, when demo mode is off.
    if (!demo) throw notFound()
    return demo
  },
  head: () => ({ meta: [{ title: 'Demo sign-in — Keepsake' }] }),
  component: function DemoSignInRoute() {
    const { users } = Route.useLoaderData()
    const { redirect } = Route.useSearch()
    return <DemoSignIn users={users} redirect={redirect} />
  },
})
