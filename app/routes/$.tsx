import { createFileRoute, notFound, redirect } from '@tanstack/react-router'
import { resolveLegacyRedirect } from '~/lib/redirects'

/** Every path no page claims: a legacy path redirects (replacing history, SPEC.md §2), anything else is a 404. */
export const Route = createFileRoute('/$')({
  beforeLoad: ({ location }) => {
    const target = resolveLegacyRedirect(location.pathname, location.searchStr)
    if (target) throw redirect({ href: target, replace: true, statusCode: 302 })
    throw notFound()
  },
})
