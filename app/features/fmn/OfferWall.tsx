import { useQuery } from '@tanstack/react-query'
import { Link } from '@tanstack/react-router'
import { useEffect, type ReactNode } from 'react'
import { ButtonLink } from '~/components/ui/Button'
import { EmptyState, Section } from '~/components/ui/PageHero'
import { LoadFailedPanel } from '~/components/ui/StatePanel'
import type { PartnerOffer } from '~/contract/offers'
import { track } from '~/lib/analytics'
import { offersQuery } from './offers.functions'

/** /fmn/offer-wall: the partner offers, each with its reward up front and a way to read its terms. */
export function OfferWall() {
  const offers = useQuery(offersQuery())
  useEffect(() => {
    track('DidViewFmnOfferWall')
  }, [])

  let body: ReactNode
  if (offers.isPending) body = <OfferWallSkeleton />
  else if (offers.isLoadingError) {
    body = (
      <LoadFailedPanel
        testId="offer-wall-error"
        title="We couldn’t load the offers"
        reassurance="Nothing is lost. Check your connection and try again."
        supportLead="Questions about an offer?"
        onRetry={() => void offers.refetch()}
        retrying={offers.isFetching}
      />
    )
  } else if (offers.data.length === 0) {
    body = (
      <EmptyState
        title="No partner offers right now"
        body="New offers arrive with each season. In the meantime, this season’s ornament sale is on."
        action={<ButtonLink to="/photo-products">Shop ornaments</ButtonLink>}
      />
    )
  } else {
    body = (
      <ul className="grid gap-6 sm:grid-cols-2 lg:grid-cols-3" aria-label="Partner offers">
        {offers.data.map((offer) => (
          <OfferCard key={offer.id} offer={offer} />
        ))}
      </ul>
    )
  }

  return (
    <main id="main">
      <Section>
        <p className="text-sm font-semibold uppercase tracking-[0.16em] text-pine">Partner offers</p>
        <h1 className="mt-2 text-4xl font-bold tracking-tight">Offer wall</h1>
        <p className="mb-8 mt-2 max-w-2xl text-lg text-ink-soft">
          Offers from brands we trust for growing families. Each partner gives its reward on its own site, as its terms say.
        </p>
        {body}
      </Section>
    </main>
  )
}

function OfferCard({ offer }: { offer: PartnerOffer }) {
  return (
    <li className="flex flex-col overflow-hidden rounded-card bg-cream-card shadow-card" data-testid="offer-card">
      <img src={offer.imageUrl} alt={offer.imageAlt} width={400} height={300} loading="lazy" className="aspect-[4/3] w-full bg-cream-deep object-cover" />
      <div className="flex flex-1 flex-col p-5">
        <div className="flex flex-wrap items-center justify-between gap-2">
          <p className="text-sm font-semibold text-ink-soft">{offer.partner}</p>
          <RewardBadge reward={offer.reward} />
        </div>
        <h2 className="mt-2 text-balance text-xl font-bold leading-snug">{offer.title}</h2>
        <p className="mt-1 line-clamp-2 text-ink-soft">{offer.summary}</p>
        <div className="mt-auto pt-4">
          <Link
            to="/fmn/offers/$offerId"
            params={{ offerId: offer.id }}
            preload="intent"
            className="inline-flex min-h-11 items-center gap-1 font-semibold text-cranberry-dark underline-offset-4 hover:underline"
            aria-label={`See offer: ${offer.title}`}
          >
            See offer
            <span aria-hidden="true">→</span>
          </Link>
        </div>
      </div>
    </li>
  )
}

export function RewardBadge({ reward, size = 'sm' }: { reward: string; size?: 'sm' | 'lg' }) {
  return (
    <span
      className={`inline-flex items-center rounded-full bg-gold-tint font-semibold text-gold-dark ring-1 ring-gold/40 ${size === 'lg' ? 'px-4 py-1.5 text-base' : 'px-3 py-1 text-sm'}`}
      data-testid="offer-reward"
    >
      <span className="sr-only">Reward: </span>
      {reward}
    </span>
  )
}

function OfferWallSkeleton() {
  return (
    <div className="grid gap-6 sm:grid-cols-2 lg:grid-cols-3" role="status" aria-label="Loading partner offers">
      {[0, 1, 2].map((i) => (
        <div key={i} className="overflow-hidden rounded-card bg-cream-card shadow-card">
          <div className="aspect-[4/3] animate-pulse bg-cream-deep" />
          <div className="space-y-3 p-5">
            <div className="h-4 w-1/3 animate-pulse rounded bg-cream-deep" />
            <div className="h-6 w-4/5 animate-pulse rounded bg-cream-deep" />
            <div className="h-4 w-full animate-pulse rounded bg-cream-deep" />
          </div>
        </div>
      ))}
    </div>
  )
}
