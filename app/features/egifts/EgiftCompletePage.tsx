import { useQueryClient } from '@tanstack/react-query'
import { Link } from '@tanstack/react-router'
import { useEffect, useRef, type ReactNode } from 'react'
import { Button, ButtonLink } from '~/components/ui/Button'
import { ReturnConfirming, ReturnMessage } from '~/components/ui/ReturnPage'
import { SupportLine } from '~/components/ui/SupportLine'
import type { EgiftPurchase } from '~/contract/egifts'
import { useFollow } from '~/lib/use-follow'
import { trackOnce } from '~/lib/analytics'
import { usePublicConfig } from '~/lib/public-config'
import { egiftPurchaseQuery, egiftPurchasesQuery } from './egifts.functions'
import { EgiftSignInPrompt } from './EgiftSignInPrompt'
import { LocalDate, formatCalendarDay } from '~/lib/dates'
import { formatAmount } from '~/catalogue/currency'
import { GiftCardPreview } from './GiftCardPreview'

const paid = (gift: EgiftPurchase) => gift.status === 'issued' || gift.status === 'redeemed'
/** Paid and due now, but the e-mail has not gone yet: the job worker sends it within seconds. */
const sendingNow = (gift: EgiftPurchase) => gift.status === 'issued' && !gift.emailedAt && !gift.sendOn
const waiting = (gift: EgiftPurchase) => gift.status === 'awaiting_payment' || sendingNow(gift)

/** DidPurchaseEgift once per gift, however often the page is loaded. */
function trackPurchasedOnce(gift: EgiftPurchase) {
  trackOnce(`keepsake:egift-purchased:${gift.id}`, 'DidPurchaseEgift', { amountCents: gift.amountCents, egiftId: gift.id, scheduled: Boolean(gift.sendOn) })
}

/** /egifts/complete?gift=: where the checkout sends the buyer back; follows the gift until it is paid. */
export function EgiftCompletePage({ giftId }: { giftId: string }) {
  const queryClient = useQueryClient()
  // Follows the payment, then the e-mail going out; `gaveUp` only matters while it is unpaid.
  const { query, gaveUp } = useFollow(egiftPurchaseQuery(giftId), waiting)
  const outcome = query.data
  const gift = outcome?.ok ? outcome.data : null

  const isPaid = Boolean(gift && paid(gift))
  useEffect(() => {
    if (!isPaid || !gift) return
    trackPurchasedOnce(gift)
    void queryClient.invalidateQueries({ queryKey: egiftPurchasesQuery().queryKey })
    // Keyed on paid-ness alone: later refetches (the e-mail going out) must not run this again.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [isPaid, queryClient])

  if (!outcome) {
    if (query.isError) return <Failed onRetry={() => void query.refetch()} retrying={query.isFetching} />
    return <ReturnConfirming testId="egift-complete-confirming" />
  }
  if (!outcome.ok) {
    if (outcome.error.status === 401) {
      return (
        <main id="main" className="mx-auto max-w-2xl px-4 pb-16 pt-8 sm:px-6 sm:pt-12">
          <p className="text-sm font-semibold uppercase tracking-[0.16em] text-pine">E-gifts</p>
          <h1 className="mb-6 mt-2 text-3xl font-bold tracking-tight sm:text-4xl">Your e-gift</h1>
          <EgiftSignInPrompt title="Sign in to see your gift" redirect={`/egifts/complete?gift=${giftId}`} testId="egift-complete-signed-out">
            <p>Your gift is kept with the Keepsake account that bought it.</p>
          </EgiftSignInPrompt>
        </main>
      )
    }
    if (outcome.error.status === 404 || outcome.error.status === 400) {
      return (
        <ReturnMessage title="We can’t find this gift" testId="egift-complete-missing" actions={<GiftActions />}>
          The link may be incomplete, or the gift was bought from another account. Gifts you’ve bought are listed on the e-gifts page.
        </ReturnMessage>
      )
    }
    return <Failed onRetry={() => void query.refetch()} retrying={query.isFetching} />
  }

  const g = outcome.data
  if (paid(g)) return <ThankYou gift={g} />
  if (g.status === 'cancelled') {
    return (
      <ReturnMessage title="This gift wasn’t paid for" testId="egift-complete-cancelled" actions={<GiftActions primary="Send a gift" />}>
        The payment was cancelled or timed out, so nothing was charged and no e-mail was sent. You can start a new gift any time.
      </ReturnMessage>
    )
  }
  if (!gaveUp) return <ReturnConfirming testId="egift-complete-confirming" />
  return (
    <ReturnMessage
      title="We haven’t received your payment"
      testId="egift-complete-open"
      actions={
        <>
          {g.checkoutUrl ? (
            <a
              href={g.checkoutUrl}
              className="inline-flex min-h-11 items-center justify-center rounded-full bg-cranberry px-6 py-2.5 font-semibold text-white hover:bg-cranberry-dark"
            >
              Finish paying
            </a>
          ) : null}
          <Link to="/egifts" className="inline-flex min-h-11 items-center px-2 font-semibold text-cranberry underline-offset-4 hover:underline">
            Back to e-gifts
          </Link>
        </>
      }
    >
      Nothing has been charged yet. Your {formatAmount(g.amountCents)} gift to {g.recipientName} will be e-mailed once it’s paid.
    </ReturnMessage>
  )
}

function ThankYou({ gift }: { gift: EgiftPurchase }) {
  const { supportEmail } = usePublicConfig()
  const amount = formatAmount(gift.amountCents)
  const heading = useRef<HTMLHeadingElement>(null)
  useEffect(() => heading.current?.focus(), [])
  const first = gift.senderName.trim().split(/\s+/)[0]
  return (
    <main id="main" className="mx-auto max-w-5xl px-4 pb-16 pt-8 sm:px-6 sm:pt-12" data-testid="egift-thank-you">
      <div className="rounded-card bg-pine px-6 py-8 text-cream shadow-card sm:px-8">
        <p className="text-sm font-semibold uppercase tracking-[0.16em] text-gold-tint">Gift paid</p>
        <h1 ref={heading} tabIndex={-1} className="mt-2 text-balance text-3xl font-bold tracking-tight focus:outline-none sm:text-4xl">
          Thank you{first ? `, ${first}` : ''}!
        </h1>
        <p className="mt-3 text-pretty text-lg text-cream/90" data-testid="egift-summary">
          Your {amount} gift to {gift.recipientName} is paid.{' '}
          {gift.status === 'redeemed'
            ? `${gift.recipientName} has already redeemed it.`
            : gift.emailedAt
              ? `We’ve e-mailed it to ${gift.recipientEmail}.`
              : gift.sendOn
                ? `We’ll e-mail it to ${gift.recipientEmail} on ${formatCalendarDay(gift.sendOn)}.`
                : `We’ll e-mail it to ${gift.recipientEmail} today.`}
        </p>
      </div>

      <div className="mt-8 grid items-start gap-8 md:grid-cols-[minmax(0,1fr)_minmax(0,1fr)]">
        <GiftCardPreview amount={amount} recipientName={gift.recipientName} senderName={gift.senderName} message={gift.message} testId="egift-paid-card" />
        <section aria-labelledby="next-heading" className="rounded-card bg-cream-card p-5 shadow-card sm:p-6">
          <h2 id="next-heading" className="text-xl font-bold">
            What happens next
          </h2>
          <ol className="mt-4 space-y-4">
            <Step n={1} done={Boolean(gift.emailedAt) || gift.status === 'redeemed'}>
              <span role="status" data-testid="egift-delivery">
                {gift.emailedAt ? (
                  <>
                    E-mailed to <strong className="break-all">{gift.recipientEmail}</strong> on <LocalDate iso={gift.emailedAt} />.
                  </>
                ) : gift.sendOn ? (
                  <>
                    We’ll e-mail <strong className="break-all">{gift.recipientEmail}</strong> at 9 am your time on {formatCalendarDay(gift.sendOn)}.
                  </>
                ) : (
                  <>
                    Sending to <strong className="break-all">{gift.recipientEmail}</strong> now…
                  </>
                )}
              </span>
            </Step>
            <Step n={2} done={gift.status === 'redeemed'}>
              {gift.recipientName} enters the gift code from the e-mail and it becomes Keepsake credit.
            </Step>
            <Step n={3} done={false}>
              They choose their favourite photos and make an ornament
              {gift.expiresAt ? (
                <>
                  {' '}
                  — the code is good until <LocalDate iso={gift.expiresAt} />
                </>
              ) : null}
              .
            </Step>
          </ol>
          {gift.status === 'redeemed' ? null : (
            <SupportLine
              email={supportEmail}
              lead={`Only ${gift.recipientName} gets the code. If it doesn’t arrive, ask them to check their spam folder. Still missing?`}
              className="mt-5 text-sm text-ink-soft"
            />
          )}
        </section>
      </div>

      <div className="mt-8 flex flex-wrap gap-3">
        <ButtonLink to="/egifts" hash="send">
          Send another gift
        </ButtonLink>
        <ButtonLink to="/egifts" hash="sent" variant="secondary">
          See your gifts
        </ButtonLink>
      </div>
    </main>
  )
}

function Step({ n, done, children }: { n: number; done: boolean; children: ReactNode }) {
  return (
    <li className="flex gap-3">
      <span
        aria-hidden="true"
        className={`grid size-7 shrink-0 place-items-center rounded-full text-sm font-bold ${done ? 'bg-pine text-cream' : 'bg-cream-deep text-ink-soft'}`}
      >
        {done ? '✓' : n}
      </span>
      <span className="pt-0.5">
        {children}
        {done ? <span className="sr-only"> (done)</span> : null}
      </span>
    </li>
  )
}

function GiftActions({ primary = 'Go to e-gifts' }: { primary?: string }) {
  return (
    <>
      <ButtonLink to="/egifts">{primary}</ButtonLink>
      <ButtonLink to="/photo-products" variant="secondary">
        Go to the store
      </ButtonLink>
    </>
  )
}

function Failed({ onRetry, retrying }: { onRetry: () => void; retrying: boolean }) {
  const { supportEmail } = usePublicConfig()
  return (
    <ReturnMessage
      title="We couldn’t check your gift"
      testId="egift-complete-error"
      actions={
        <>
          <Button onClick={onRetry} disabled={retrying}>
            {retrying ? 'Trying again…' : 'Try again'}
          </Button>
          <Link to="/egifts" className="inline-flex min-h-11 items-center px-2 font-semibold text-cranberry underline-offset-4 hover:underline">
            See your gifts
          </Link>
        </>
      }
    >
      <p>If you paid, your gift is safe: it’s listed on the e-gifts page. Don’t pay a second time.</p>
      <SupportLine email={supportEmail} lead="Questions?" className="mt-2 text-sm" />
    </ReturnMessage>
  )
}
