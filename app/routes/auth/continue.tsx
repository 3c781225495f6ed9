import { createFileRoute } from '@tanstack/react-router'
import { ContinueRefusedPage } from '~/features/account/SignInPages'
import { continueSearch } from '~/lib/search-params'

/**
 * /auth/continue?code=…&redirect=…: the album app's way in (SPEC.md §7 transition code). A full page
 * load with a code is exchanged by the request middleware (app/auth-continue.server.ts) before the
 * router runs; the router only ever shows the refusal, without the code.
 */
export const Route = createFileRoute('/auth/continue')({
  validateSearch: continueSearch,
  head: () => ({ meta: [{ title: 'Sign in — Keepsake' }, { name: 'referrer', content: 'no-referrer' }] }),
  component: function ContinueRoute() {
    const { failed, redirect } = Route.useSearch()
    return <ContinueRefusedPage reason={failed} redirect={redirect} />
  },
})
