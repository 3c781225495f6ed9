import { SignInActions, signInHint } from '~/components/ui/SignInActions'
import { useQuery } from '@tanstack/react-query'
import { Link, useRouterState } from '@tanstack/react-router'
import { Button, ButtonLink } from '~/components/ui/Button'
import { SupportLine } from '~/components/ui/SupportLine'
import type { Photo } from '~/contract/photos'
import { OrnamentArt } from '~/components/OrnamentArt'
import { useChosenPhotos } from '~/features/photos/chosen-photos'
import { variantOfShape, type OrnamentShape } from '~/catalogue/ornaments'
import { toChosen, type ChosenPhoto } from '~/lib/photo-conversion'
import { usePublicConfig } from '~/lib/public-config'
import { campaignPhotosQuery } from './loop.functions'

/** How many album photos a campaign shows: a full grid on pages (fewer rows on phones), one row in a sheet. */
const PHOTOS_SHOWN = 8

const dateLabel = (isoDate: string) =>
  new Date(`${isoDate}T12:00:00Z`).toLocaleDateString('en-US', { month: 'long', day: 'numeric', year: 'numeric', timeZone: 'UTC' })

/**
 * An ornament takes a pair of photos: the tapped one goes on the first, the next of the shopper's
 * picks on the second. The designer swaps either.
 */
function pairStartingWith(photos: Photo[], index: number): ChosenPhoto[] {
  const pair = [photos[index], photos.length > 1 ? photos[(index + 1) % photos.length] : undefined]
  return pair.filter((p): p is Photo => p !== undefined).map(toChosen)
}

type CampaignPhotosProps = {
  shape: OrnamentShape
  heading: string
  layout: 'grid' | 'strip'
}

/**
 * The shopper's own best photos on a campaign page (GET /v1/{product}-curated-photo-products-photos).
 * Each leads into the designer for the campaign's shape with that photo already placed, through
 * the photo picker's hand-over: the chosen photos in sessionStorage and `?photos=chosen`.
 */
export function CampaignPhotos({ shape, heading, layout }: CampaignPhotosProps) {
  const photos = useQuery(campaignPhotosQuery())
  const [, setChosen] = useChosenPhotos()
  const variant = variantOfShape(shape)
  const strip = layout === 'strip'
  const shown = photos.data?.slice(0, PHOTOS_SHOWN) ?? []

  let body
  if (photos.isPending) body = <PhotoSkeleton strip={strip} />
  else if (photos.isLoadingError) body = <PhotosFailed onRetry={() => void photos.refetch()} retrying={photos.isFetching} />
  else if (photos.data === null) body = <SignInForPhotos shape={shape} compact={strip} />
  else if (shown.length === 0) body = <NoPicksYet />
  else {
    body = (
      <>
        <ul
          className={strip ? '-mx-5 flex snap-x gap-2.5 overflow-x-auto px-5 pb-2 sm:-mx-8 sm:px-8' : 'grid grid-cols-3 gap-2 sm:grid-cols-4 sm:gap-3'}
          aria-label={`Photos from your album for a ${variant.name.toLowerCase()} ornament`}
        >
          {shown.map((photo, i) => (
            <li key={photo.id} className={strip ? 'shrink-0 snap-start' : i >= 6 ? 'hidden sm:block' : ''}>
              <Link
                to="/photo-products/ornaments/$variantId"
                params={{ variantId: String(variant.id) }}
                search={{ photos: 'chosen' }}
                onClick={() => setChosen(pairStartingWith(photos.data ?? [], i))}
                data-photo-id={photo.id}
                aria-label={`Start a ${variant.name.toLowerCase()} ornament with ${photo.caption ?? 'your photo'} from ${dateLabel(photo.capturedOn)}`}
                className={`group relative block overflow-hidden rounded-xl bg-cream-deep shadow-card ${strip ? 'h-32 w-24 sm:h-36 sm:w-28' : 'aspect-[4/5] w-full sm:aspect-square'}`}
              >
                <img
                  src={photo.urls.small}
                  alt=""
                  loading="lazy"
                  decoding="async"
                  width={photo.width}
                  height={photo.height}
                  className="size-full object-cover transition duration-200 group-hover:scale-[1.04] group-focus-visible:scale-[1.04]"
                />
                {photo.favorite ? (
                  <span aria-hidden="true" className="absolute bottom-1.5 left-1.5 grid size-6 place-items-center rounded-full bg-ink/60 text-xs text-white">
                    ♥
                  </span>
                ) : null}
              </Link>
            </li>
          ))}
        </ul>
        <p className={`flex flex-wrap items-center gap-x-4 gap-y-1 text-sm text-ink-soft ${strip ? 'mt-2' : 'mt-4'}`}>
          <span>Tap a photo to start: we pair it with the next one, and you can swap either in the designer.</span>
          <Link to="/photo-products/photos" className="inline-flex min-h-11 items-center font-semibold text-cranberry underline-offset-4 hover:underline">
            See your whole album
          </Link>
        </p>
      </>
    )
  }

  return (
    <section aria-labelledby="campaign-photos-heading" data-testid="campaign-photos">
      <h2 id="campaign-photos-heading" className={`font-bold tracking-tight ${strip ? 'text-lg' : 'text-2xl sm:text-3xl'}`}>
        {heading}
      </h2>
      <div className={strip ? 'mt-3' : 'mt-5'}>{body}</div>
    </section>
  )
}

function PhotoSkeleton({ strip }: { strip: boolean }) {
  return (
    <div role="status" data-testid="campaign-photos-loading">
      <span className="sr-only">Loading your photos…</span>
      <div aria-hidden="true" className={strip ? 'flex gap-2.5 overflow-hidden' : 'grid grid-cols-3 gap-2 sm:grid-cols-4 sm:gap-3'}>
        {Array.from({ length: strip ? 5 : 8 }, (_, i) => (
          <div
            key={i}
            className={`animate-pulse rounded-xl bg-cream-deep ${strip ? 'h-32 w-24 shrink-0 sm:h-36 sm:w-28' : `aspect-[4/5] sm:aspect-square ${i >= 6 ? 'hidden sm:block' : ''}`}`}
          />
        ))}
      </div>
    </div>
  )
}

/** Signed out: the campaign still shows its art; the photos wait behind a sign-in that comes back here. */
function SignInForPhotos({ shape, compact }: { shape: OrnamentShape; compact: boolean }) {
  const { demoMode } = usePublicConfig()
  const here = useRouterState({ select: (s) => s.location.href })
  return (
    <div
      className={`rounded-card border-2 border-dashed border-ink/15 bg-cream-card/70 ${
        compact
          ? 'grid grid-cols-[auto_1fr] items-center gap-x-4 gap-y-3 p-4 sm:grid-cols-[auto_1fr_auto]'
          : 'flex flex-col items-center gap-4 p-6 text-center sm:flex-row sm:p-8 sm:text-left'
      }`}
      data-testid="campaign-photos-signed-out"
    >
      <div aria-hidden="true" className="flex shrink-0 items-end">
        <OrnamentArt shape={shape} className={compact ? 'w-12' : 'w-20'} />
        <OrnamentArt shape={shape} className={`-ml-3 ${compact ? 'w-9' : 'w-14'} opacity-80`} />
      </div>
      <div className="min-w-0 flex-1">
        <p className={`font-semibold ${compact ? '' : 'text-lg'}`}>Sign in to see your photos</p>
        <p className="mt-1 text-sm text-ink-soft">Your album’s best photos appear here, ready to put on an ornament. {signInHint(demoMode)}</p>
      </div>
      <div className={`flex flex-wrap gap-2 ${compact ? 'col-span-2 sm:col-span-1' : 'shrink-0 justify-center'}`}>
        <SignInActions redirect={here} demoLabel="Sign in" />
      </div>
    </div>
  )
}

function NoPicksYet() {
  return (
    <div className="rounded-card border-2 border-dashed border-ink/15 bg-cream-card/70 p-6 text-center" data-testid="campaign-photos-empty">
      <p className="font-semibold">No favourites to suggest yet</p>
      <p className="mx-auto mt-1 max-w-md text-sm text-ink-soft">
        Heart photos in the Keepsake app and the best ones appear here. You can still choose any photo from your album.
      </p>
      <ButtonLink to="/photo-products/photos" variant="secondary" className="mt-4">
        Choose from your album
      </ButtonLink>
    </div>
  )
}

function PhotosFailed({ onRetry, retrying }: { onRetry: () => void; retrying: boolean }) {
  const { supportEmail } = usePublicConfig()
  return (
    <div className="rounded-card border-2 border-dashed border-ink/15 bg-cream-card/70 p-6 text-center" data-testid="campaign-photos-failed">
      <p className="font-semibold">We couldn’t load your photos</p>
      <p className="mx-auto mt-1 max-w-md text-sm text-ink-soft">Your album is safe; this page just couldn’t reach it. Try again in a moment.</p>
      <Button variant="secondary" className="mt-4" onClick={onRetry} disabled={retrying}>
        {retrying ? 'Trying again…' : 'Try again'}
      </Button>
      <SupportLine email={supportEmail} lead="Still not showing?" className="mt-3 text-sm text-ink-soft" />
    </div>
  )
}
