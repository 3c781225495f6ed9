import { createFileRoute } from '@tanstack/react-router'
import { UtilsIndex } from '~/features/utils/UtilsIndex'

export const Route = createFileRoute('/utils/')({
  head: () => ({ meta: [{ title: 'Help and tools — Keepsake' }] }),
  component: UtilsIndex,
})
