import { createFileRoute } from '@tanstack/react-router'
import { LinkSignInPage } from '~/features/account/SignInPages'
import { linkSearch } from '~/lib/search-params'

export const Route = createFileRoute('/auth/link')({
  validateSearch: linkSearch,
  head: () => ({ meta: [{ title: 'Signing you in — Keepsake' }, { name: 'referrer', content: 'no-referrer' }] }),
  component: function LinkSignInRoute() {
    const { token } = Route.useSearch()
    return <LinkSignInPage token={token} />
  },
})
