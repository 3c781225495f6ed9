import { useRouterState } from '@tanstack/react-router'
import { SignInActions, signInHint } from '~/components/ui/SignInActions'
import { useInfiniteQuery, useQuery, useQueryClient } from '@tanstack/react-query'
import { useEffect, useId, useRef, useState, type KeyboardEvent } from 'react'
import type { InfiniteData } from '@tanstack/react-query'
import { albumFilters, type AlbumFilter } from '~/catalogue/photo-constants'
import type { Photo } from '~/contract/photos'
import { toChosen, type ChosenPhoto } from '~/lib/photo-conversion'
import { usePublicConfig } from '~/lib/public-config'
import { albumPhotosQuery, albumSummaryQuery, curatedProductPhotosQuery, uploadedPhotosQuery } from './photos.functions'
import { UploadButton, UploadJobs, usePhotoUploads } from './PhotoUploader'

const tabLabels: Record<AlbumFilter, string> = { all: 'All', favorite: 'Favorites', recommended: 'Recommended' }
const emptyTab: Record<AlbumFilter, string> = {
  all: 'This album has no photos yet. Photos added in the Keepsake app appear here.',
  favorite: 'No favourites yet. Tap the heart on a photo in the app to keep it here.',
  recommended: 'No recommendations yet — we pick them as your album grows.',
}

const dateLabel = (isoDate: string) =>
  new Date(`${isoDate}T12:00:00Z`).toLocaleDateString('en-US', { month: 'long', day: 'numeric', year: 'numeric', timeZone: 'UTC' })

export const photoLabel = (photo: Photo) =>
  `${photo.caption ?? (photo.source === 'upload' ? 'Uploaded photo' : 'Photo')}, ${dateLabel(photo.capturedOn)}${photo.favorite ? ', favourite' : ''}`

/** Which album tab the picker shows, and where in it: the page starting at `cursor` (the API's opaque album cursor). */
export type AlbumView = { filter: AlbumFilter; cursor?: string }
/** How a view change reaches history: a tab is a step Back returns to; loading more only updates the place. */
export type AlbumViewChange = (view: AlbumView, how: { replace: boolean }) => void

type PickerProps = {
  /** How many photos the product takes. */
  max: number
  selected: ChosenPhoto[]
  onChange: (selected: ChosenPhoto[]) => void
  /**
   * The tab and page, kept by the caller (the photos page keeps them in the URL). Left out, the
   * picker keeps its own and never touches the page's URL (the designer's dialog).
   */
  view?: AlbumView
  onViewChange?: AlbumViewChange
}

/**
 * The photo picker: the album by tab (All, Favorites, Recommended) with infinite scroll, a curated
 * strip, and upload from the device. Selection is announced to screen readers.
 */
export function PhotoPicker({ max, selected, onChange, view: givenView, onViewChange }: PickerProps) {
  const summary = useQuery(albumSummaryQuery())
  const [familyId, setFamilyId] = useState<string | null>(null)
  const [ownView, setOwnView] = useState<AlbumView>({ filter: 'all' })
  const view = givenView ?? ownView
  const setView: AlbumViewChange = onViewChange ?? ((next) => setOwnView(next))
  const [announcement, setAnnouncement] = useState('')
  const families = summary.data?.families ?? []
  const family = families.find((f) => f.familyId === familyId) ?? families[0]

  const toggle = (photo: Photo) => {
    const isChosen = selected.some((p) => p.id === photo.id)
    if (isChosen) {
      const next = selected.filter((p) => p.id !== photo.id)
      onChange(next)
      setAnnouncement(`Photo removed. ${next.length} of ${max} chosen.`)
    } else if (selected.length >= max) {
      setAnnouncement(`You have chosen ${max} photos already. Remove one to choose another.`)
    } else {
      const next = [...selected, toChosen(photo)]
      onChange(next)
      setAnnouncement(`${photoLabel(photo)} selected. ${next.length} of ${max} chosen.`)
    }
  }
  const tile = { selected, max, onToggle: toggle }

  if (summary.isPending) return <PickerSkeleton />
  if (summary.isError) return <LoadFailed what="Your album" onRetry={() => void summary.refetch()} />
  if (summary.data === null) return <SignedOutMessage />

  return (
    <div className="space-y-8" data-testid="photo-picker">
      <p className="sr-only" aria-live="polite" aria-atomic="true" data-testid="picker-announcement">
        {announcement}
      </p>
      {families.length > 1 ? (
        <label className="flex flex-wrap items-center gap-3 font-semibold">
          Album
          <select
            className="min-h-11 rounded-full border-2 border-ink/15 bg-cream-card px-4 font-normal"
            value={family?.familyId}
            onChange={(e) => {
              setFamilyId(e.target.value)
              // A cursor belongs to one family's album.
              if (view.cursor) setView({ filter: view.filter }, { replace: true })
            }}
          >
            {families.map((f) => (
              <option key={f.familyId} value={f.familyId}>
                {f.name} ({f.photoCount})
              </option>
            ))}
          </select>
        </label>
      ) : null}
      <CuratedStrip familyId={family?.familyId} {...tile} />
      <UploadsSection {...tile} />
      {family ? (
        <AlbumTabs familyId={family.familyId} familyName={family.name} view={view} onViewChange={setView} {...tile} />
      ) : (
        <PickerMessage title="No family album yet">Join or start a family in the Keepsake app, or upload photos from your device above.</PickerMessage>
      )}
    </div>
  )
}

type TileProps = { selected: ChosenPhoto[]; max: number; onToggle: (photo: Photo) => void }

function PhotoTile({ photo, selected, onToggle, size = 'grid' }: TileProps & { photo: Photo; size?: 'grid' | 'strip' }) {
  const order = selected.findIndex((p) => p.id === photo.id)
  const isChosen = order >= 0
  return (
    <button
      type="button"
      aria-pressed={isChosen}
      aria-label={photoLabel(photo)}
      data-photo-id={photo.id}
      onClick={() => onToggle(photo)}
      className={`group relative block overflow-hidden rounded-xl bg-cream-deep outline-offset-2 ${size === 'strip' ? 'size-28 shrink-0 sm:size-32' : 'aspect-square w-full'}`}
    >
      <img
        src={photo.urls.small}
        alt=""
        loading="lazy"
        decoding="async"
        width={photo.width}
        height={photo.height}
        className={`size-full object-cover transition duration-150 ${isChosen ? 'scale-90 rounded-lg' : 'group-hover:scale-[1.03]'}`}
      />
      {photo.favorite ? (
        <span aria-hidden="true" className="absolute bottom-1.5 left-1.5 grid size-6 place-items-center rounded-full bg-ink/55 text-xs text-white">
          ♥
        </span>
      ) : null}
      <span
        aria-hidden="true"
        className={`absolute right-1.5 top-1.5 grid size-7 place-items-center rounded-full border-2 text-sm font-bold ${
          isChosen ? 'border-white bg-cranberry text-white shadow' : 'border-white/90 bg-ink/25'
        }`}
      >
        {isChosen ? order + 1 : ''}
      </span>
      {isChosen ? <span aria-hidden="true" className="pointer-events-none absolute inset-0 rounded-xl ring-4 ring-inset ring-cranberry" /> : null}
    </button>
  )
}

function CuratedStrip({ familyId, ...tile }: TileProps & { familyId?: string }) {
  const curated = useQuery(curatedProductPhotosQuery(familyId))
  const photos = curated.data?.photos ?? []
  if (!curated.isPending && photos.length === 0) return null
  return (
    <section aria-labelledby="curated-heading">
      <h2 id="curated-heading" className="text-lg font-semibold">
        Picked for ornaments
      </h2>
      <p className="text-sm text-ink-soft">Favourites and portrait shots fill the ornament best.</p>
      <ul className="-mx-4 mt-3 flex gap-3 overflow-x-auto px-4 pb-2 [scrollbar-width:thin]" aria-label="Photos picked for ornaments">
        {curated.isPending
          ? Array.from({ length: 6 }, (_, i) => <li key={i} className="size-28 shrink-0 animate-pulse rounded-xl bg-cream-deep sm:size-32" />)
          : photos.map((photo) => (
              <li key={photo.id}>
                <PhotoTile photo={photo} size="strip" {...tile} />
              </li>
            ))}
      </ul>
    </section>
  )
}

function UploadsSection(tile: TileProps) {
  const queryClient = useQueryClient()
  const uploads = useQuery(uploadedPhotosQuery())
  const photos = uploads.data?.photos ?? []
  const uploader = usePhotoUploads(() => queryClient.invalidateQueries({ queryKey: uploadedPhotosQuery().queryKey }))
  return (
    <section aria-labelledby="uploads-heading" className="rounded-card bg-cream-card p-4 shadow-card sm:p-5">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <div>
          <h2 id="uploads-heading" className="text-lg font-semibold">
            From your device
          </h2>
          <p className="text-sm text-ink-soft">JPEG, PNG, WebP or HEIC, up to 30 MB each.</p>
        </div>
        <UploadButton uploads={uploader} />
      </div>
      <UploadJobs uploads={uploader} />
      {photos.length > 0 ? (
        <ul className="mt-4 flex gap-3 overflow-x-auto pb-2" aria-label="Your uploaded photos">
          {photos.map((photo) => (
            <li key={photo.id}>
              <PhotoTile photo={photo} size="strip" {...tile} />
            </li>
          ))}
        </ul>
      ) : null}
    </section>
  )
}

function AlbumTabs({
  familyId,
  familyName,
  view,
  onViewChange,
  ...tile
}: TileProps & { familyId: string; familyName: string; view: AlbumView; onViewChange: AlbumViewChange }) {
  const { filter } = view
  // A new tab starts at its first page, and is a step in history (Back returns to the tab before).
  const setFilter = (next: AlbumFilter) => {
    if (next !== filter || view.cursor) onViewChange({ filter: next }, { replace: false })
  }
  const base = useId()
  const tabRefs = useRef<Record<string, HTMLButtonElement | null>>({})

  const onKeyDown = (event: KeyboardEvent<HTMLButtonElement>) => {
    const at = albumFilters.indexOf(filter)
    const next =
      event.key === 'ArrowRight'
        ? albumFilters[(at + 1) % albumFilters.length]
        : event.key === 'ArrowLeft'
          ? albumFilters[(at + albumFilters.length - 1) % albumFilters.length]
          : event.key === 'Home'
            ? albumFilters[0]
            : event.key === 'End'
              ? albumFilters[albumFilters.length - 1]
              : undefined
    if (!next) return
    event.preventDefault()
    setFilter(next)
    tabRefs.current[next]?.focus()
  }

  return (
    <section aria-label={`${familyName} album`}>
      <div role="tablist" aria-label="Album photos" className="sticky top-0 z-10 -mx-4 flex gap-2 bg-cream/95 px-4 py-2 backdrop-blur">
        {albumFilters.map((f) => (
          <button
            key={f}
            ref={(el) => {
              tabRefs.current[f] = el
            }}
            type="button"
            role="tab"
            id={`${base}-tab-${f}`}
            aria-selected={filter === f}
            aria-controls={`${base}-panel`}
            tabIndex={filter === f ? 0 : -1}
            onClick={() => setFilter(f)}
            onKeyDown={onKeyDown}
            className={`min-h-11 rounded-full px-5 font-semibold transition-colors ${
              filter === f ? 'bg-ink text-cream' : 'bg-cream-deep text-ink hover:bg-ink/10'
            }`}
          >
            {tabLabels[f]}
          </button>
        ))}
      </div>
      <div role="tabpanel" id={`${base}-panel`} aria-labelledby={`${base}-tab-${filter}`} className="mt-3">
        <AlbumGrid
          key={`${familyId}-${filter}`}
          familyId={familyId}
          filter={filter}
          cursor={view.cursor}
          onCursorChange={(cursor, how) => onViewChange({ filter, cursor }, how)}
          {...tile}
        />
      </div>
    </section>
  )
}

/** One tab's photos, listed from `from` (null: the first page) on. */
function albumListQuery(familyId: string, filter: AlbumFilter, from: string | null) {
  const base = albumPhotosQuery(familyId, filter)
  return { ...base, queryKey: [...base.queryKey, from ?? 'first'], initialPageParam: from }
}

/**
 * Where the list starts for the place `cursor` names: the list already on screen (or the one from
 * the first page, in the cache) when it holds that page, else that page itself.
 */
function listStartFor(cursor: string | undefined, current: string | null, holds: (from: string | null) => boolean): string | null {
  if (!cursor) return null
  if (cursor === current || holds(current)) return current
  if (holds(null)) return null
  return cursor
}

function AlbumGrid({
  familyId,
  filter,
  cursor,
  onCursorChange,
  ...tile
}: TileProps & {
  familyId: string
  filter: AlbumFilter
  cursor: string | undefined
  onCursorChange: (cursor: string | undefined, how: { replace: boolean }) => void
}) {
  const queryClient = useQueryClient()
  const holds = (from: string | null) =>
    cursor !== undefined &&
    Boolean(queryClient.getQueryData<InfiniteData<unknown, string | null>>(albumListQuery(familyId, filter, from).queryKey)?.pageParams.includes(cursor))
  const [from, setFrom] = useState(() => listStartFor(cursor, null, holds))
  // The place changed from outside (Back, a link): start where it says, unless this list holds it.
  const wanted = listStartFor(cursor, from, holds)
  if (wanted !== from) setFrom(wanted)

  const query = useInfiniteQuery(albumListQuery(familyId, filter, wanted))
  const sentinel = useRef<HTMLDivElement | null>(null)
  const { hasNextPage, isFetchingNextPage, fetchNextPage } = query

  // The place follows the pages the shopper asked for with Load more, so a reload opens where they had got to (not a
  // step in history). Pages the list loads by itself as it scrolls (or to fill a tall screen) do not move it.
  const askedForMore = useRef(false)
  const lastPage = query.data?.pageParams.at(-1) as string | null | undefined
  useEffect(() => {
    if (!askedForMore.current) return
    askedForMore.current = false
    if (lastPage === undefined || lastPage === (cursor ?? null)) return
    if (lastPage === null && query.data?.pageParams.length === 1) return
    onCursorChange(lastPage ?? undefined, { replace: true })
  }, [lastPage]) // eslint-disable-line react-hooks/exhaustive-deps -- only a newly loaded page moves the place

  // A cursor the API refuses (stale, forged, another album's): the first page instead.
  const refused = query.isError && wanted !== null
  useEffect(() => {
    if (refused) onCursorChange(undefined, { replace: true })
  }, [refused]) // eslint-disable-line react-hooks/exhaustive-deps

  useEffect(() => {
    const node = sentinel.current
    if (!node || !hasNextPage) return
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((e) => e.isIntersecting) && !isFetchingNextPage) void fetchNextPage()
      },
      { rootMargin: '600px 0px' },
    )
    observer.observe(node)
    return () => observer.disconnect()
  }, [hasNextPage, isFetchingNextPage, fetchNextPage])

  if (query.isPending || refused) return <GridSkeleton />
  if (query.isError) return <LoadFailed what="These photos" onRetry={() => void query.refetch()} />
  const photos = query.data.pages.flatMap((page) => page.photos)
  if (photos.length === 0 && wanted === null) return <PickerMessage title={`No ${tabLabels[filter].toLowerCase()} photos`}>{emptyTab[filter]}</PickerMessage>

  return (
    <>
      {wanted !== null ? (
        <div className="mb-3 flex flex-wrap items-center justify-between gap-2 text-sm text-ink-soft" data-testid="album-partway">
          <span>Showing this album from where you left off.</span>
          <button
            type="button"
            onClick={() => onCursorChange(undefined, { replace: false })}
            className="min-h-11 rounded-full border-2 border-ink/15 px-4 font-semibold text-ink"
          >
            Back to the newest photos
          </button>
        </div>
      ) : null}
      <ul className="grid grid-cols-3 gap-1.5 sm:grid-cols-4 sm:gap-2 lg:grid-cols-6" data-testid="album-grid">
        {photos.map((photo) => (
          <li key={photo.id}>
            <PhotoTile photo={photo} {...tile} />
          </li>
        ))}
      </ul>
      <div ref={sentinel} className="flex justify-center py-6">
        {hasNextPage ? (
          <button
            type="button"
            onClick={() => {
              askedForMore.current = true
              void fetchNextPage()
            }}
            disabled={isFetchingNextPage}
            className="min-h-11 rounded-full border-2 border-ink/15 px-6 font-semibold text-ink disabled:opacity-60"
          >
            {isFetchingNextPage ? 'Loading more photos…' : 'Load more photos'}
          </button>
        ) : (
          <p className="text-sm text-ink-soft">That’s every photo in this view.</p>
        )}
      </div>
    </>
  )
}

function GridSkeleton() {
  return (
    <div role="status" aria-label="Loading photos" className="grid grid-cols-3 gap-1.5 sm:grid-cols-4 sm:gap-2 lg:grid-cols-6">
      {Array.from({ length: 12 }, (_, i) => (
        <div key={i} className="aspect-square animate-pulse rounded-xl bg-cream-deep" />
      ))}
    </div>
  )
}

function PickerSkeleton() {
  return (
    <div className="space-y-6">
      <div className="flex gap-3 overflow-hidden">
        {Array.from({ length: 5 }, (_, i) => (
          <div key={i} className="size-28 shrink-0 animate-pulse rounded-xl bg-cream-deep" />
        ))}
      </div>
      <GridSkeleton />
    </div>
  )
}

function PickerMessage({ title, children, action }: { title: string; children: React.ReactNode; action?: { label: string; onClick: () => void } }) {
  return (
    <div className="rounded-card border-2 border-dashed border-ink/15 px-6 py-10 text-center">
      <p className="text-lg font-semibold">{title}</p>
      <p className="mx-auto mt-1 max-w-md text-ink-soft">{children}</p>
      {action ? (
        <button type="button" onClick={action.onClick} className="mt-4 min-h-11 rounded-full bg-cranberry px-6 font-semibold text-white">
          {action.label}
        </button>
      ) : null}
    </div>
  )
}

function LoadFailed({ what, onRetry }: { what: string; onRetry: () => void }) {
  return (
    <PickerMessage title={`${what} could not be loaded`} action={{ label: 'Try again', onClick: onRetry }}>
      Check your connection and try again.
    </PickerMessage>
  )
}

function SignedOutMessage() {
  const { demoMode } = usePublicConfig()
  const here = useRouterState({ select: (s) => s.location.href })
  return (
    <div className="rounded-card bg-cream-card px-6 py-10 text-center shadow-card" data-testid="picker-signed-out">
      <p className="text-xl font-semibold">Sign in to see your family album</p>
      <p className="mx-auto mt-2 max-w-md text-ink-soft">Sign in to pick photos from your album. {signInHint(demoMode)}</p>
      <div className="mt-5 flex flex-wrap justify-center gap-3">
        <SignInActions redirect={here} />
      </div>
    </div>
  )
}
