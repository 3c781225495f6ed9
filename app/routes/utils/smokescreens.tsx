import { createFileRoute, notFound } from '@tanstack/react-router'
import { getSmokescreenReport } from '~/features/utils/smokescreen-report.functions'
import { SmokescreenReport } from '~/features/utils/SmokescreenReport'

export const Route = createFileRoute('/utils/smokescreens')({
  loader: async () => {
    const report = await getSmokescreenReport()
    // Absent, not merely hidden, when demo mode is off.
    if (!report) throw notFound()
    return report
  },
  head: () => ({ meta: [{ title: 'Smokescreen report — Keepsake' }, { name: 'robots', content: 'noindex' }] }),
  component: function SmokescreenReportRoute() {
    const { products, readAt } = Route.useLoaderData()
    return <SmokescreenReport products={products} readAt={readAt} />
  },
})
