import { createFileRoute } from '@tanstack/react-router'
import { SessionInfo } from '~/features/utils/SessionInfo'

export const Route = createFileRoute('/utils/session')({
  head: () => ({ meta: [{ title: 'Your session — Keepsake' }] }),
  component: SessionInfo,
})
