import { createFileRoute } from '@tanstack/react-router'
import { useCallback } from 'react'
import { ChoosePhotosPage } from '~/features/photos/ChoosePhotosPage'
import { albumSummaryQuery } from '~/features/photos/photos.functions'
import { photosSearch, type PhotosSearch } from '~/lib/search-params'

export const Route = createFileRoute('/photo-products/photos')({
  // ?filter=favorites&cursor=…: the album tab and place; a bad value falls back to All, the first page.
  validateSearch: photosSearch,
  loader: ({ context }) => context.queryClient.ensureQueryData(albumSummaryQuery()),
  head: () => ({ meta: [{ title: 'Choose your photos — Keepsake' }] }),
  component: ChoosePhotosRoute,
})

function ChoosePhotosRoute() {
  const search = Route.useSearch()
  const navigate = Route.useNavigate()
  const onSearchChange = useCallback(
    (next: PhotosSearch, { replace }: { replace: boolean }) => void navigate({ search: next, replace, resetScroll: false }),
    [navigate],
  )
  return <ChoosePhotosPage search={search} onSearchChange={onSearchChange} />
}
