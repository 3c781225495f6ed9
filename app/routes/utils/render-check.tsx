import { createFileRoute } from '@tanstack/react-router'
import { RenderCheck } from '~/features/render-check/RenderCheck'

export const Route = createFileRoute('/utils/render-check')({
  head: () => ({ meta: [{ title: 'Preview render check — Keepsake' }, { name: 'robots', content: 'noindex' }] }),
  component: RenderCheck,
})
