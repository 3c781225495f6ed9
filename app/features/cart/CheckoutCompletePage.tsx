import { SignInActions } from '~/components/ui/SignInActions'
import { useQuery, useQueryClient } from '@tanstack/react-query'
import { SupportLine } from '~/components/ui/SupportLine'
import { Link, useRouterState } from '@tanstack/react-router'
import { useEffect } from 'react'
import { Button, ButtonLink } from '~/components/ui/Button'
import { ReturnConfirming, ReturnMessage } from '~/components/ui/ReturnPage'
import { Spinner } from '~/components/ui/Spinner'
import type { CheckoutSession, Order } from '~/contract/cart'
import { cartQuery, checkoutSessionQuery, orderQuery, ordersQuery } from '~/features/cart/cart.functions'
import { OrderLines } from '~/features/cart/OrderLines'
import { PromisedArrival } from '~/features/cart/ArrivalDates'
import { OrderParcels } from '~/features/cart/OrderParcels'
import { TotalsList } from '~/features/cart/Totals'
import { useFollow } from '~/lib/use-follow'
import { trackOnce } from '~/lib/analytics'
import { usePublicConfig } from '~/lib/public-config'
import { PostalAddress } from '~/components/ui/AddressFields'

/** Still waiting on the provider: not yet paid, or paid but the order is not made yet. */
const confirming = (session: CheckoutSession) => session.status === 'open' || session.status === 'processing' || (session.status === 'paid' && !session.orderId)

/** DidCompleteCheckout once per session, however often the page is loaded. */
function trackCompletedOnce(session: CheckoutSession) {
  trackOnce(`keepsake:checkout-completed:${session.id}`, 'DidCompleteCheckout', {
    checkoutSessionId: session.id,
    orderId: session.orderId,
    provider: session.provider,
    itemCount: session.totals.itemCount,
    totalCents: session.totals.totalCents,
    currency: session.totals.currency,
  })
}

/** /photo-products/checkout/complete: where the payment provider sends the shopper back. */
export function CheckoutCompletePage({ sessionId }: { sessionId: string }) {
  const queryClient = useQueryClient()
  const { query, gaveUp } = useFollow(checkoutSessionQuery(sessionId), confirming)
  const outcome = query.data
  const session = outcome?.ok ? outcome.data : null

  const paid = session?.status === 'paid'
  useEffect(() => {
    if (!paid || !session) return
    trackCompletedOnce(session)
    // The paid cart is checked out; the shopper's next cart starts empty.
    void queryClient.invalidateQueries({ queryKey: cartQuery().queryKey })
    void queryClient.invalidateQueries({ queryKey: ordersQuery().queryKey })
  }, [paid, session, queryClient])

  const order = useQuery({ ...orderQuery(session?.orderId ?? ''), enabled: Boolean(paid && session?.orderId) })

  if (!outcome) {
    if (query.isError) return <Failed onRetry={() => void query.refetch()} />
    return <ReturnConfirming testId="complete-confirming" />
  }
  if (!outcome.ok) {
    if (outcome.error.status === 401) return <SignedOut />
    if (outcome.error.status === 404) {
      return (
        <ReturnMessage title="We can’t find this checkout" testId="complete-missing" actions={<CartActions />}>
          The link may be incomplete. If you paid, your order is under Orders.
        </ReturnMessage>
      )
    }
    return <Failed onRetry={() => void query.refetch()} />
  }
  const s = outcome.data
  if (s.status === 'paid' && s.orderId) {
    if (order.data) return <ThankYou session={s} order={order.data} />
    if (order.isError) return <ThankYou session={s} order={null} />
    return <ReturnConfirming label="Loading your order…" testId="complete-confirming" />
  }
  if (s.status === 'failed') {
    return (
      <ReturnMessage title="Your payment didn’t go through" testId="complete-failed" actions={<CartActions />}>
        Nothing was charged and your designs are still in your cart. Check out again to try another card.
      </ReturnMessage>
    )
  }
  if (s.status === 'expired') {
    return (
      <ReturnMessage title="This checkout has ended" testId="complete-expired" actions={<CartActions />}>
        It was cancelled or timed out before payment, so nothing was charged. Your designs are still in your cart.
      </ReturnMessage>
    )
  }
  if (s.status === 'processing' || s.status === 'paid') {
    return (
      <ReturnMessage
        title="Payment processing"
        testId="complete-processing"
        actions={
          <ButtonLink to="/photo-products/orders" variant="secondary">
            See your orders
          </ButtonLink>
        }
      >
        {gaveUp
          ? 'Your payment is still being confirmed. This can take a little while; your order will appear under Orders as soon as it’s through, and we’ll e-mail you.'
          : 'Your payment is being confirmed. This page updates by itself; there’s no need to pay again.'}
        {gaveUp ? null : <Spinner label="Checking…" className="py-6" />}
      </ReturnMessage>
    )
  }
  // Still open: the shopper came back before paying, or the provider has not told us yet.
  if (!gaveUp) return <ReturnConfirming testId="complete-confirming" />
  return (
    <ReturnMessage
      title="We haven’t received your payment"
      testId="complete-open"
      actions={
        <>
          <ButtonLink to="/photo-products/cart">Back to your cart</ButtonLink>
          <a href={s.url} className="inline-flex min-h-11 items-center px-2 font-semibold text-cranberry underline-offset-4 hover:underline">
            Return to checkout
          </a>
        </>
      }
    >
      Nothing has been charged yet. You can go back to the checkout to finish paying.
    </ReturnMessage>
  )
}

function ThankYou({ session, order }: { session: CheckoutSession; order: Order | null }) {
  const address = order?.shippingAddress
  const firstName = address?.name.split(/\s+/)[0]
  return (
    <main id="main" className="mx-auto max-w-3xl px-4 pb-16 pt-8 sm:px-6 sm:pt-12" data-testid="checkout-thank-you">
      <div className="rounded-card bg-pine px-6 py-8 text-cream shadow-card sm:px-8">
        <p className="text-sm font-semibold uppercase tracking-[0.16em] text-gold-tint">Order confirmed</p>
        <h1 className="mt-2 text-balance text-3xl font-bold tracking-tight sm:text-4xl">Thank you{firstName ? `, ${firstName}` : ''}!</h1>
        <p className="mt-3 text-lg text-cream/90">We’re sending your design to print. You’ll get an e-mail when your ornaments ship.</p>
        {order ? (
          <p className="mt-5 inline-flex flex-wrap items-baseline gap-x-2 rounded-xl bg-cream/10 px-4 py-2">
            <span className="text-cream/90">Order reference</span>
            <strong className="font-mono text-xl tracking-wide" data-testid="order-reference">
              {order.reference}
            </strong>
          </p>
        ) : null}
      </div>

      <div className="mt-8 grid gap-6 md:grid-cols-[minmax(0,1.4fr)_minmax(0,1fr)]">
        <section aria-labelledby="bought-heading" className="self-start rounded-card bg-cream-card px-5 py-4 shadow-card">
          <h2 id="bought-heading" className="text-xl font-bold">
            What you ordered
          </h2>
          <OrderLines lines={order?.lines ?? session.lines} />
          <div className="border-t border-ink/10 pt-3">
            {/* An order in several parcels names each one's promise with the parcel. */}
            {order && order.parcels.length > 1 ? null : (
              <PromisedArrival
                arrivesBy={order?.arrivesBy ?? session.arrivesBy}
                method={(order?.totals ?? session.totals).shippingMethod}
                className="mb-3 text-ink"
              />
            )}
            <TotalsList totals={order?.totals ?? session.totals} totalLabel="Paid" chargedCents={order?.chargedCents} />
          </div>
        </section>
        {order && order.parcels.length > 1 ? (
          <section aria-label="Where it goes" className="self-start rounded-card bg-cream-card px-5 py-4 shadow-card">
            <OrderParcels order={order} headingLevel={2} />
            {address ? <p className="mt-3 text-sm text-ink-soft">Receipt sent to {address.email}</p> : null}
          </section>
        ) : address ? (
          <section aria-labelledby="ship-heading" className="self-start rounded-card bg-cream-card px-5 py-4 shadow-card">
            <h2 id="ship-heading" className="text-xl font-bold">
              Shipping to
            </h2>
            <PostalAddress address={address} country className="mt-2 not-italic leading-relaxed" testId="shipping-address" />
            <p className="mt-3 text-sm text-ink-soft">Receipt sent to {address.email}</p>
          </section>
        ) : null}
      </div>

      <div className="mt-8 flex flex-wrap gap-3">
        <ButtonLink to="/photo-products/orders" hash={order ? `order-${order.reference}` : undefined}>
          See your orders
        </ButtonLink>
        <ButtonLink to="/photo-products" variant="secondary">
          Make another ornament
        </ButtonLink>
      </div>
    </main>
  )
}

function CartActions() {
  return (
    <>
      <ButtonLink to="/photo-products/cart">Back to your cart</ButtonLink>
      <ButtonLink to="/photo-products" variant="secondary">
        Go to the store
      </ButtonLink>
    </>
  )
}

function SignedOut() {
  const here = useRouterState({ select: (s) => s.location.href })
  return (
    <ReturnMessage title="Sign in to see your order" testId="complete-signed-out" actions={<SignInActions redirect={here} />}>
      Your order is kept with the Keepsake account that paid for it.
    </ReturnMessage>
  )
}

function Failed({ onRetry }: { onRetry: () => void }) {
  const { supportEmail } = usePublicConfig()
  return (
    <ReturnMessage
      title="We couldn’t check your payment"
      testId="complete-error"
      actions={
        <>
          <Button onClick={onRetry}>Try again</Button>
          <Link to="/photo-products/orders" className="inline-flex min-h-11 items-center px-2 font-semibold text-cranberry underline-offset-4 hover:underline">
            See your orders
          </Link>
        </>
      }
    >
      <p>If you paid, your order is safe: it will appear under Orders. Don’t pay a second time.</p>
      <SupportLine email={supportEmail} lead="Questions?" className="mt-2 text-sm" />
    </ReturnMessage>
  )
}
