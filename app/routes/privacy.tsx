import { createFileRoute } from '@tanstack/react-router'
import { getRetention } from '~/features/privacy/privacy.functions'
import { PrivacyPage } from '~/features/privacy/PrivacyPage'

export const Route = createFileRoute('/privacy')({
  loader: () => getRetention(),
  // The periods are constants of the running server: one read per tab is enough.
  staleTime: Infinity,
  head: () => ({ meta: [{ title: 'Privacy — Keepsake' }] }),
  component: function PrivacyRoute() {
    return <PrivacyPage retention={Route.useLoaderData()} />
  },
})
