import { createFileRoute, notFound } from '@tanstack/react-router'
import { SHARE_TOKEN } from '~/catalogue/design-share-terms'
import { SharedDesignPage } from '~/features/designer/SharedDesignPage'
import { sharedDesignQuery } from '~/features/designer/api/shared-design.functions'

export const Route = createFileRoute('/photo-products/shared/$token')({
  // Not a public link: a token that is not one, a stopped share, or a shopper outside the family is the store's 404.
  // Signed out, the page asks to sign in first (the API answers 401 before it looks at the token).
  loader: async ({ context: { queryClient }, params }) => {
    if (!SHARE_TOKEN.test(params.token)) throw notFound()
    const outcome = await queryClient.ensureQueryData(sharedDesignQuery(params.token)).catch(() => null)
    if (outcome && !outcome.ok && outcome.error.status === 404) throw notFound()
  },
  head: () => ({
    meta: [{ title: 'A design from your family — Keepsake' }, { name: 'robots', content: 'noindex, nofollow' }, { name: 'referrer', content: 'no-referrer' }],
  }),
  component: function SharedDesignRoute() {
    const { token } = Route.useParams()
    return <SharedDesignPage token={token} />
  },
})
