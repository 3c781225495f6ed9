import { createFileRoute, notFound } from '@tanstack/react-router'
import { currentUserQuery, getDemoUsers } from '~/features/account/account.functions'
import { DemoSignIn } from '~/features/utils/DemoSignIn'
import { safeRedirectPath } from '~/contract/redirect-path'

export const Route = createFileRoute('/utils/demo-sign-in')({
  // ?redirect=: where to go once signed in; only a path on this site is kept (no open redirect).
  // An unsafe value is set to undefined, not left out: the router would otherwise keep the raw one.
  validateSearch: (search: Record<string, unknown>): { redirect?: string } => ({ redirect: safeRedirectPath(search.redirect) }),
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
