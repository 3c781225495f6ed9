import { useQuery } from '@tanstack/react-query'
import { ButtonLink } from '~/components/ui/Button'
import { ornamentProduct, variantOfShape } from '~/catalogue/ornaments'
import type { AlbumFilter } from '~/catalogue/photo-constants'
import { urlAtSize } from '~/lib/photo-conversion'
import type { PhotosSearch } from '~/lib/search-params'
import { useChosenPhotos } from './chosen-photos'
import { PhotoPicker, type AlbumView, type AlbumViewChange } from './PhotoPicker'
import { albumSummaryQuery } from './photos.functions'

/** SPEC.md §1: each ornament takes two user photos (the catalogue's numberOfUserImages). */
export const PHOTOS_PER_ORNAMENT = ornamentProduct.numberOfUserImages

/** The designer puts the first photo on the left ornament and the second on the right (issue 15, bug 14: they were "Front" and "Back"). */
const slotNames = ['Left', 'Right']

/** The URL's words for the album tabs (`?filter=favorites`) and the API's (`favorite`); All is left out of the URL. */
const filterOfParam = { all: 'all', favorites: 'favorite', recommended: 'recommended' } as const satisfies Record<
  NonNullable<PhotosSearch['filter']>,
  AlbumFilter
>
const paramOfFilter = { all: undefined, favorite: 'favorites', recommended: 'recommended' } as const satisfies Record<AlbumFilter, PhotosSearch['filter']>

type ChoosePhotosPageProps = {
  /** The album tab and place, from the URL (`?filter=favorites&cursor=…`), so a link can open them and Back and reload keep them. */
  search: PhotosSearch
  onSearchChange: (search: PhotosSearch, how: { replace: boolean }) => void
}

/** /photo-products/photos: choose the two photos for an ornament, from the album or the device. */
export function ChoosePhotosPage({ search, onSearchChange }: ChoosePhotosPageProps) {
  const view: AlbumView = { filter: filterOfParam[search.filter ?? 'all'], cursor: search.cursor }
  const onViewChange: AlbumViewChange = (next, how) => onSearchChange({ filter: paramOfFilter[next.filter], cursor: next.cursor }, how)
  const [chosen, setChosen] = useChosenPhotos()
  const ready = chosen.length === PHOTOS_PER_ORNAMENT
  // Signed out there is nothing to choose from, so the tray stays away.
  const signedOut = useQuery(albumSummaryQuery()).data === null
  return (
    <main id="main" className={signedOut ? 'pb-12' : 'pb-36'}>
      <div className="mx-auto max-w-6xl px-4 pt-8 sm:px-6 sm:pt-12">
        <p className="text-sm font-semibold uppercase tracking-[0.16em] text-pine">Step 1 of 3</p>
        <h1 className="mt-1 text-balance text-3xl font-bold tracking-tight sm:text-4xl">Choose two photos</h1>
        <p className="mt-2 max-w-2xl text-ink-soft">
          Your ornaments come as a pair: one photo goes on each. Pick from your family album or upload from your phone.
        </p>
      </div>
      <div className="mx-auto mt-6 max-w-6xl px-4 sm:px-6">
        <PhotoPicker max={PHOTOS_PER_ORNAMENT} selected={chosen} onChange={setChosen} view={view} onViewChange={onViewChange} />
      </div>
      {signedOut ? null : (
        <div className="fixed inset-x-0 bottom-0 z-20 border-t border-ink/10 bg-cream-card/95 backdrop-blur" data-testid="chosen-tray">
          <div className="mx-auto flex max-w-6xl items-center gap-3 px-4 py-3 pb-[max(0.75rem,env(safe-area-inset-bottom))] sm:px-6">
            <ol className="flex gap-2" aria-label="Chosen photos">
              {Array.from({ length: PHOTOS_PER_ORNAMENT }, (_, i) => {
                const photo = chosen[i]
                return (
                  <li key={i} className="size-14 overflow-hidden rounded-lg border-2 border-dashed border-ink/20 bg-cream-deep">
                    {photo ? (
                      <button
                        type="button"
                        className="size-full"
                        aria-label={`Remove the photo for the ${slotNames[i]?.toLowerCase()} ornament`}
                        onClick={() => setChosen(chosen.filter((p) => p.id !== photo.id))}
                      >
                        <img src={urlAtSize(photo.url, 'small') ?? photo.url} alt="" className="size-full object-cover" />
                      </button>
                    ) : (
                      <span className="grid size-full place-items-center text-xs font-semibold text-ink-soft">{slotNames[i]}</span>
                    )}
                  </li>
                )
              })}
            </ol>
            <p className="hidden flex-1 text-sm text-ink-soft sm:block" aria-live="polite">
              {ready ? 'Both photos chosen — next, pick the ornament shape.' : 'The first photo goes on the left ornament, the second on the right.'}
            </p>
            <div className="ml-auto">
              {ready ? (
                // The designer opens on the star and offers the other shapes; ?photos=chosen puts these photos on it.
                <ButtonLink to="/photo-products/ornaments/$variantId" params={{ variantId: String(variantOfShape('star').id) }} search={{ photos: 'chosen' }}>
                  Choose your ornament
                </ButtonLink>
              ) : (
                <span className="inline-flex min-h-11 items-center rounded-full bg-ink/10 px-5 font-semibold text-ink-soft" aria-disabled="true">
                  {chosen.length} of {PHOTOS_PER_ORNAMENT} chosen
                </span>
              )}
            </div>
          </div>
        </div>
      )}
    </main>
  )
}
