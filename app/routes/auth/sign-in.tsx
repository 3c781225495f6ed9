import { createFileRoute } from '@tanstack/react-router'
import { safeRedirectPath } from '~/contract/redirect-path'
import { SignInPage } from '~/features/account/SignInPages'
import { currentUserQuery } from '~/features/account/account.functions'

export const Route = createFileRoute('/auth/sign-in')({
  // ?redirect=: where to land once signed in; only a path on this site is kept (no open redirect).
  validateSearch: (search: Record<string, unknown>): { redirect?: string } => ({ redirect: safeRedirectPath(search.redirect) }),
  loader: ({ context }) => context.queryClient.ensureQueryData(currentUserQuery()),
  head: () => ({ meta: [{ title: 'Sign in — Keepsake' }] }),
  component: function SignInRoute() {
    const { redirect } = Route.useSearch()
    return <SignInPage redirect={redirect} />
  },
})
