import { createFileRoute } from '@tanstack/react-router'
import { TermsOfUse } from '~/features/photo-products/TermsOfUse'

export const Route = createFileRoute('/photo-products/tou')({
  head: () => ({ meta: [{ title: 'Terms of use — Keepsake' }] }),
  component: TermsOfUse,
})
