import { createFileRoute } from '@tanstack/react-router'
import { getStatusSummary } from '~/features/utils/status.functions'
import { StatusPage } from '~/features/utils/StatusPage'

export const Route = createFileRoute('/utils/status')({
  loader: () => getStatusSummary(),
  head: () => ({ meta: [{ title: 'Engine status — Keepsake' }, { name: 'robots', content: 'noindex' }] }),
  component: function StatusRoute() {
    return <StatusPage summary={Route.useLoaderData()} />
  },
})
