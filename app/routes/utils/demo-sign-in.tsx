import { createFileRoute, notFound } from '@tanstack/react-router'
import { currentUserQuery, getDemoUsers } from '~/features/utils/account.functions'
import { DemoSignIn } from '~/features/utils/DemoSignIn'

export const Route = createFileRoute('/utils/demo-sign-in')({
  loader: async ({ context }) => {
    const [demo] = await Promise.all([getDemoUsers(), context.queryClient.ensureQueryData(currentUserQuery())])
    // Absent, not merely hidden, when demo mode is off.
    if (!demo) throw notFound()
    return demo
  },
  head: () => ({ meta: [{ title: 'Demo sign-in — Keepsake' }] }),
  component: function DemoSignInRoute() {
    const { users } = Route.useLoaderData()
    return <DemoSignIn users={users} />
  },
})
