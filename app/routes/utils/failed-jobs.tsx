import { createFileRoute, notFound } from '@tanstack/react-router'
import { getFailedJobs } from '~/features/utils/failed-jobs.functions'
import { FailedJobsPage } from '~/features/utils/FailedJobsPage'

export const Route = createFileRoute('/utils/failed-jobs')({
  loader: async () => {
    const failed = await getFailedJobs()
    // Absent, not merely hidden, when demo mode is off.
    if (!failed) throw notFound()
    return failed
  },
  head: () => ({ meta: [{ title: 'Failed jobs — Keepsake' }, { name: 'robots', content: 'noindex' }] }),
  component: function FailedJobsRoute() {
    const { jobs, total } = Route.useLoaderData()
    return <FailedJobsPage jobs={jobs} total={total} />
  },
})
