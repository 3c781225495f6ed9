import { createFileRoute } from '@tanstack/react-router'
import { SignInPage } from '~/features/account/SignInPages'
import { currentUserQuery } from '~/features/account/account.functions'
import { redirectSearch } from '~/lib/search-params'

export const Route = createFileRoute('/auth/sign-in')({
  // ?redirect=: where to land once signed in; only a path on this site is kept (no open redirect).
  validateSearch: redirectSearch,
  loader: ({ context }) => context.queryClient.ensureQueryData(currentUserQuery()),
  head: () => ({ meta: [{ title: 'Sign in — Keepsake' }] }),
  component: function SignInRoute() {
    const { redirect } = Route.useSearch()
    return <SignInPage redirect={redirect} />
  },
})
