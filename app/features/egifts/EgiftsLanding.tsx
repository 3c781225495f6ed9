import { useQuery, useQueryClient } from '@tanstack/react-query'
import { Link } from '@tanstack/react-router'
import { Suspense, useEffect, useRef, type ReactNode } from 'react'
import { buttonClass } from '~/components/ui/Button'
import { FeatureList, PageHero, Section } from '~/components/ui/PageHero'
import { LoadFailedPanel } from '~/components/ui/StatePanel'
import { EGIFT_VALID_YEARS } from '~/catalogue/egift-terms'
import { currentUserQuery } from '~/features/account/account.functions'
import { track } from '~/lib/analytics'
import { egiftPurchasesQuery } from './egifts.functions'
import { EgiftSignInPrompt } from './EgiftSignInPrompt'
import { EGIFT_CARD_ART } from './gift-card'
import { PurchaseForm, SentGifts } from './landing-parts'

// A page the server painted the form or the sent gifts on hydrates once their code is in (app/lib/lazy-part.tsx).
await Promise.all([PurchaseForm.ready, SentGifts.ready])

/**
 * Back from a checkout the shopper cancelled (?cancelled=<gift id>): its payment session is ended,
 * so the gift shows as cancelled rather than waiting for a payment that is not coming.
 */
function useCancelledGift(giftId: string | undefined) {
  const queryClient = useQueryClient()
  const purchases = useQuery(egiftPurchasesQuery())
  const handled = useRef<string | null>(null)
  const gift = giftId ? purchases.data?.find((p) => p.id === giftId) : undefined
  useEffect(() => {
    if (!gift || gift.status !== 'awaiting_payment' || handled.current === gift.id) return
    handled.current = gift.id
    // The cart's server functions load only for this (rare) return, not with every visit to /egifts.
    void import('~/features/cart/cart.functions')
      .then(({ cancelCheckoutSession }) => cancelCheckoutSession({ data: { id: gift.checkoutSessionId } }))
      .catch(() => undefined)
      .then(() => queryClient.invalidateQueries({ queryKey: egiftPurchasesQuery().queryKey }))
  }, [gift, queryClient])
}

/** /egifts: what a Keepsake e-gift is, the form to send one, and the gifts already sent. */
export function EgiftsLanding({ cancelledGiftId, onDismissCancelled }: { cancelledGiftId?: string; onDismissCancelled: () => void }) {
  const user = useQuery(currentUserQuery())
  const purchases = useQuery(egiftPurchasesQuery())
  useCancelledGift(cancelledGiftId)
  useEffect(() => {
    track('DidViewEgift')
  }, [])

  let send: ReactNode
  if (user.isPending) send = <FormSkeleton />
  else if (user.isError) {
    send = (
      <LoadFailedPanel
        testId="egift-error"
        title="We couldn’t open the gift form"
        reassurance="Nothing was charged. Check your connection and try again."
        supportLead="Still stuck?"
        onRetry={() => void user.refetch()}
        retrying={user.isFetching}
      />
    )
  } else if (user.data === null) {
    send = (
      <EgiftSignInPrompt title="Sign in to send an e-gift" redirect="/egifts" testId="egift-signed-out">
        <p>E-gifts are bought from your Keepsake account, so you can follow each one until it’s opened.</p>
      </EgiftSignInPrompt>
    )
  } else {
    send = (
      <Suspense fallback={<FormSkeleton />}>
        <PurchaseForm defaultSenderName={user.data.firstName} />
      </Suspense>
    )
  }

  const sent = purchases.data ?? []
  return (
    <main id="main">
      <PageHero
        tone="cranberry"
        eyebrow="E-gifts"
        title="Give the gift of their own photos"
        lead="Send a Keepsake e-gift by e-mail and let them turn their favourite family moments into an ornament to hold."
        actions={
          <>
            <a href="#send" className={buttonClass('secondary')}>
              Choose a gift
            </a>
            <Link
              to="/egifts/redeem"
              className="inline-flex min-h-11 items-center px-1 font-semibold text-cream underline underline-offset-4 hover:text-gold-tint"
            >
              Got a gift code? Redeem it
            </Link>
          </>
        }
        art={
          <img
            src={EGIFT_CARD_ART}
            alt="A Keepsake e-gift card with photo ornaments and a gold bow"
            width={800}
            height={500}
            className="w-full max-w-sm rotate-2 rounded-[1.4rem] shadow-2xl md:max-w-md"
          />
        }
      />

      {cancelledGiftId ? (
        <div className="mx-auto max-w-6xl px-4 pt-6 sm:px-6">
          <div role="status" className="flex items-start gap-3 rounded-card bg-gold-tint px-4 py-3 text-ink" data-testid="egift-cancelled">
            <span aria-hidden="true" className="mt-0.5 grid size-6 shrink-0 place-items-center rounded-full bg-gold-dark text-sm font-bold text-white">
              i
            </span>
            <p className="min-w-0 flex-1">
              <strong className="font-semibold">Payment cancelled — nothing was charged.</strong> Your gift wasn’t sent. Fill in the form again whenever you’re
              ready.
            </p>
            <button
              type="button"
              onClick={onDismissCancelled}
              className="-mr-2 -mt-2 grid size-11 shrink-0 place-items-center rounded-full text-xl hover:bg-ink/10"
              aria-label="Dismiss this message"
            >
              <span aria-hidden="true">×</span>
            </button>
          </div>
        </div>
      ) : null}

      <Section id="send" title="Send an e-gift" intro="Choose an amount, add a few words, and pick the day it arrives. They choose the photos.">
        {send}
      </Section>

      {sent.length > 0 ? (
        <Section id="sent" title="Gifts you’ve sent">
          <Suspense fallback={null}>
            <SentGifts purchases={sent} />
          </Suspense>
        </Section>
      ) : null}

      <Section title="How e-gifts work">
        <FeatureList
          items={[
            { title: 'Choose an amount', body: 'Pick $25 to $100, or any whole-dollar amount, and add a personal message.' },
            { title: 'We e-mail a gift code', body: 'They get it as soon as you’ve paid, or at 9 am on the day you choose.' },
            { title: 'They make a keepsake', body: `The code becomes Keepsake credit for any photo ornament, good for ${EGIFT_VALID_YEARS} years.` },
          ]}
        />
      </Section>
    </main>
  )
}

function FormSkeleton() {
  return (
    <div role="status" aria-label="Loading the gift form" className="grid gap-8 lg:grid-cols-[minmax(0,1fr)_minmax(0,26rem)]">
      <div className="space-y-4">
        <div className="h-5 w-24 animate-pulse rounded bg-cream-deep" />
        <div className="grid grid-cols-3 gap-2 sm:grid-cols-5">
          {Array.from({ length: 5 }, (_, i) => (
            <div key={i} className="h-12 animate-pulse rounded-xl bg-cream-deep" />
          ))}
        </div>
        <div className="h-11 animate-pulse rounded-xl bg-cream-deep" />
        <div className="h-11 animate-pulse rounded-xl bg-cream-deep" />
        <div className="h-28 animate-pulse rounded-xl bg-cream-deep" />
      </div>
      <div className="hidden aspect-[8/5] animate-pulse rounded-[1.4rem] bg-cranberry-tint lg:block" />
    </div>
  )
}
