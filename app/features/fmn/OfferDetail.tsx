import { useQuery } from '@tanstack/react-query'
import { Link, useLocation } from '@tanstack/react-router'
import { useEffect, type ReactNode } from 'react'
import { buttonClass, ButtonLink } from '~/components/ui/Button'
import { LoadFailedPanel, StatePanel } from '~/components/ui/StatePanel'
import type { PartnerOffer } from '~/contract/offers'
import { track } from '~/lib/analytics'
import { useSessionContext } from '~/lib/session'
import { OFFER_ID, offerQuery, outboundHref } from './offers.functions'
import { RewardBadge } from './OfferWall'

/** /fmn/offers/$offerId: one partner offer, its terms, and the way out to the partner's site. */
export function OfferDetail({ offerId }: { offerId: string }) {
  const wellFormed = OFFER_ID.test(offerId)
  const offer = useQuery({ ...offerQuery(offerId), enabled: wellFormed })

  let body: ReactNode
  if (!wellFormed) body = <OfferNotFound />
  else if (offer.isPending) body = <OfferSkeleton />
  else if (offer.isLoadingError || (!offer.data.ok && offer.data.error.status !== 404 && offer.data.error.status !== 400)) {
    body = (
      <LoadFailedPanel
        testId="offer-error"
        title="We couldn’t load this offer"
        reassurance="Nothing is lost. Check your connection and try again."
        supportLead="Questions about an offer?"
        onRetry={() => void offer.refetch()}
        retrying={offer.isFetching}
      />
    )
  } else if (!offer.data.ok) body = <OfferNotFound />
  else body = <OfferBody offer={offer.data.data} />

  return (
    <main id="main" className="mx-auto max-w-6xl px-4 pb-16 pt-6 sm:px-6 sm:pt-8">
      <nav aria-label="Breadcrumb" className="mb-6">
        <Link to="/fmn/offer-wall" className="inline-flex min-h-11 items-center gap-1 font-semibold text-cranberry-dark underline-offset-4 hover:underline">
          <span aria-hidden="true">←</span> All partner offers
        </Link>
      </nav>
      {body}
    </main>
  )
}

function OfferBody({ offer }: { offer: PartnerOffer }) {
  const session = useSessionContext()
  const { pathname } = useLocation()
  useEffect(() => {
    track('DidViewFmnOffer', { offerId: offer.id })
  }, [offer.id])
  const href = outboundHref(offer.clickUrl, session?.sid, pathname)
  return (
    <article className="grid gap-8 md:grid-cols-[1.1fr_0.9fr] md:items-start" data-testid="offer-detail">
      <img
        src={offer.imageUrl}
        alt={offer.imageAlt}
        width={800}
        height={600}
        className="aspect-[4/3] w-full rounded-card bg-cream-deep object-cover shadow-card"
      />
      <div>
        <p className="font-semibold text-pine">{offer.partner}</p>
        <h1 className="mt-1 text-balance text-3xl font-bold leading-tight tracking-tight sm:text-4xl">{offer.title}</h1>
        <div className="mt-4">
          <RewardBadge reward={offer.reward} size="lg" />
        </div>
        <p className="mt-4 text-pretty text-lg text-ink-soft">{offer.summary}</p>
        <div className="mt-6 rounded-card bg-cream-card p-5 shadow-card">
          <a href={href} rel="noopener" className={buttonClass('primary', 'w-full sm:w-auto')} data-testid="offer-go">
            Go to {offer.partner}
          </a>
          <p className="mt-3 text-sm text-ink-soft" data-testid="offer-leave-note">
            You’ll leave Keepsake for <span className="font-semibold text-ink">{offer.partnerHost}</span>
          </p>
        </div>
        {offer.terms.length ? (
          <section className="mt-8" aria-labelledby="offer-terms">
            <h2 id="offer-terms" className="text-xl font-bold">
              Terms
            </h2>
            <ul className="mt-3 list-disc space-y-2 pl-5 text-ink-soft marker:text-gold-dark">
              {offer.terms.map((term) => (
                <li key={term}>{term}</li>
              ))}
            </ul>
          </section>
        ) : null}
      </div>
    </article>
  )
}

function OfferNotFound() {
  return (
    <>
      <h1 className="sr-only">Offer not found</h1>
      <StatePanel testId="offer-not-found" title="This offer isn’t available" action={<ButtonLink to="/fmn/offer-wall">See all partner offers</ButtonLink>}>
        It may have ended, or the link may be mistyped. The offer wall lists every offer that is on now.
      </StatePanel>
    </>
  )
}

function OfferSkeleton() {
  return (
    <div className="grid gap-8 md:grid-cols-[1.1fr_0.9fr]" role="status" aria-label="Loading the offer">
      <div className="aspect-[4/3] animate-pulse rounded-card bg-cream-deep" />
      <div className="space-y-4">
        <div className="h-5 w-1/3 animate-pulse rounded bg-cream-deep" />
        <div className="h-10 w-4/5 animate-pulse rounded bg-cream-deep" />
        <div className="h-8 w-32 animate-pulse rounded-full bg-cream-deep" />
        <div className="h-20 w-full animate-pulse rounded bg-cream-deep" />
      </div>
    </div>
  )
}
