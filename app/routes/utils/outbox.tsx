import { createFileRoute, notFound } from '@tanstack/react-router'
import { outboxQuery } from '~/features/utils/outbox.functions'
import { OutboxPage } from '~/features/utils/OutboxPage'

export const Route = createFileRoute('/utils/outbox')({
  loader: async ({ context }) => {
    // A load that fails is shown on the page with a retry; only "no such endpoint" means demo mode is off.
    const emails = await context.queryClient.fetchQuery(outboxQuery()).catch(() => undefined)
    // Absent, not merely hidden, when demo mode is off.
    if (emails === null) throw notFound()
  },
  head: () => ({ meta: [{ title: 'Outbox — Keepsake' }, { name: 'robots', content: 'noindex' }] }),
  component: OutboxPage,
})
