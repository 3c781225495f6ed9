import { createFileRoute } from '@tanstack/react-router'
import { ChoosePhotosPage } from '~/features/photos/ChoosePhotosPage'
import { albumSummaryQuery } from '~/features/photos/photos.functions'

export const Route = createFileRoute('/photo-products/photos')({
  loader: ({ context }) => context.queryClient.ensureQueryData(albumSummaryQuery()),
  head: () => ({ meta: [{ title: 'Choose your photos — Keepsake' }] }),
  component: ChoosePhotosPage,
})
