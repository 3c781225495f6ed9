import { createFileRoute, notFound, redirect } from '@tanstack/react-router'
import { hasMalformedPath, MALFORMED_LINK, MALFORMED_LINK_PAGE } from '~/contract/malformed-path'

/**
 * Every path no page claims: a legacy path redirects (replacing history, SPEC.md §2), anything else is a 404.
 * The server answers a legacy path before any page renders (start.ts); in the browser the table is fetched only
 * when a link leads to a path no page claims, not with every page's first load (decision 049).
 */
/** A path that does not decode: on the server, the page scripts/serve.ts asks for; in the browser, the tab's own address. */
const isMalformedLink = (pathname: string) => pathname === MALFORMED_LINK_PAGE || (typeof window !== 'undefined' && hasMalformedPath(window.location.href))

export const Route = createFileRoute('/$')({
  beforeLoad: async ({ location }) => {
    // A link whose path does not decode is broken, not missing (the server answers it 400, scripts/serve.ts).
    if (isMalformedLink(location.pathname)) throw notFound({ data: MALFORMED_LINK })
    const { resolveLegacyRedirect } = await import('~/lib/redirects')
    const target = resolveLegacyRedirect(location.pathname, location.searchStr)
    if (target) throw redirect({ href: target, replace: true, statusCode: 302 })
    throw notFound()
  },
})
