import { SignInActions, signInHint } from '~/components/ui/SignInActions'
import { LocalTime } from '~/components/ui/LocalTime'
import { describePersonalText, linesOf, textYears, yearsIn } from '~/catalogue/personal-line'
import { useQuery, useQueryClient } from '@tanstack/react-query'
import { useNavigate } from '@tanstack/react-router'
import { useEffect, useId, useRef, useState, type ReactNode } from 'react'
import { Button, ButtonLink } from '~/components/ui/Button'
import { LoadFailedPanel, StatePanel } from '~/components/ui/StatePanel'
import type { Order, OrderStatus } from '~/contract/cart'
import { cartQuery, orderAgain, ordersQuery } from '~/features/cart/cart.functions'
import { OrderLines } from '~/features/cart/OrderLines'
import { LineThumbnail, TotalsList } from '~/features/cart/Totals'
import { formatCents } from '~/catalogue/currency'
import { usePublicConfig } from '~/lib/public-config'
import { useSignInAction } from '~/lib/sign-in-action'
import { useHash } from '~/lib/use-hash'
import { notify } from '~/lib/toast'
import { PromisedArrival } from './ArrivalDates'
import { OrderParcels, ParcelTracking, TrackingNumber } from './OrderParcels'

/** While any order is still on its way, the list is read again this often (the print provider moves it along). */
const REFRESH_MS = 15_000

const steps = [
  { status: 'paid', label: 'Paid' },
  { status: 'submitted', label: 'Sent to print' },
  { status: 'in_production', label: 'In production' },
  { status: 'shipped', label: 'Shipped' },
] as const satisfies readonly { status: OrderStatus; label: string }[]

/** One line on where the order is now, under its timeline. */
const whereNow: Record<Exclude<OrderStatus, 'submission_failed'>, string> = {
  paid: 'Paid — we’re sending your design to the printer.',
  submitted: 'At the printer — production starts soon.',
  in_production: 'Being printed, cut and packed in its gift box.',
  shipped: 'On its way.',
  canceled: 'Canceled by the printer — we’ll be in touch about your refund.',
  refunded: 'Refunded — the payment and any store credit it used have gone back to you.',
}

/** At the printer: released to its production once the order's hold ended (issue 50), when it was, else soon. */
export function AtThePrinter({ order }: { order: Order }) {
  const released = order.parcels.map((p) => p.sentToProductionAt).filter((at): at is string => at !== null)
  if (released.length === 0 || released.length < order.parcels.filter((p) => p.status === 'submitted').length) return <>{whereNow.submitted}</>
  const latest = released.reduce((a, b) => (a > b ? a : b))
  return (
    <>
      At the printer — released for production <LocalTime iso={latest} format={{ dateStyle: 'medium', timeStyle: 'short' }} />; printing starts soon.
    </>
  )
}

/** A refund gives back everything the order charged, its sales tax included, and the store credit it used. */
function refundedLine(order: Order) {
  const tax = order.totals.taxCents > 0 ? `, ${formatCents(order.totals.taxCents)} sales tax included,` : ''
  return `Refunded — your payment of ${formatCents(order.chargedCents ?? order.totals.totalCents)}${tax} and any store credit it used have gone back to you.`
}

/** How far along the four steps an order is; a failed submission is stuck after Paid. */
const reached: Record<OrderStatus, number> = { paid: 0, submission_failed: 0, submitted: 1, in_production: 2, shipped: 3, canceled: 0, refunded: 0 }

/** /photo-products/orders: every order the shopper placed, newest first, with where it is now. */
export function OrdersPage() {
  const orders = useQuery({
    ...ordersQuery(),
    refetchInterval: (q) => (q.state.data?.some((o) => o.status !== 'shipped' && o.status !== 'refunded' && o.status !== 'canceled') ? REFRESH_MS : false),
  })
  let body: ReactNode
  if (orders.isPending) body = <OrdersSkeleton />
  else if (orders.isLoadingError) body = <LoadFailed onRetry={() => void orders.refetch()} retrying={orders.isFetching} />
  else if (orders.data === null) body = <SignedOut />
  else if (orders.data.length === 0) {
    body = (
      <StatePanel testId="orders-empty" title="No orders yet" action={<ButtonLink to="/photo-products">Make a photo ornament</ButtonLink>}>
        When you buy ornaments, you’ll follow them here from the printer to your door.
      </StatePanel>
    )
  } else {
    body = (
      <ol className="space-y-6" aria-label="Your orders">
        {orders.data.map((order) => (
          <OrderCard key={order.id} order={order} />
        ))}
      </ol>
    )
  }
  return (
    <main id="main" className="mx-auto max-w-4xl px-4 pb-16 pt-8 sm:px-6 sm:pt-12">
      <h1 className="text-3xl font-bold tracking-tight sm:text-4xl">Your orders</h1>
      <p className="mt-2 text-ink-soft">From the printer to your door: each order shows where it is now.</p>
      <div className="mt-6">{body}</div>
    </main>
  )
}

function OrderCard({ order }: { order: Order }) {
  const { supportEmail } = usePublicConfig()
  const shown = order.lines.slice(0, 3)
  const more = order.lines.length - shown.length
  return (
    <li id={`order-${order.reference}`} className="scroll-mt-28 rounded-card bg-cream-card p-5 shadow-card sm:p-6" data-testid="order-card">
      <div className="flex flex-wrap items-start justify-between gap-x-6 gap-y-3">
        <div>
          <h2 className="text-xl font-bold">
            <span className="sr-only">Order </span>
            <span className="font-mono tracking-wide" data-testid="order-card-reference">
              {order.reference}
            </span>
          </h2>
          <p className="text-sm text-ink-soft">
            Placed <LocalTime iso={order.createdAt} format={{ dateStyle: 'medium' }} /> ·{' '}
            {order.totals.itemCount === 1 ? '1 item' : `${order.totals.itemCount} items`}
          </p>
        </div>
        <p className="text-right">
          <span className="block text-sm text-ink-soft">{typeof order.chargedCents === 'number' ? 'Charged' : 'Total'}</span>
          <span className="text-xl font-bold tabular-nums">{formatCents(order.chargedCents ?? order.totals.totalCents)}</span>
        </p>
      </div>
      <ul className="mt-4 flex gap-2" aria-label="Designs in this order">
        {shown.map((line) => (
          <li key={line.cartItemId}>
            <LineThumbnail
              src={line.previewCdnUrl}
              alt={`${line.title}${line.text ? `, ${describePersonalText(line.text)}` : ''}, quantity ${line.quantity}`}
              size="sm"
            />
          </li>
        ))}
        {more > 0 ? <li className="grid size-14 place-items-center rounded-xl bg-cream-deep text-sm font-semibold text-ink-soft">+{more}</li> : null}
      </ul>
      {order.status !== 'refunded' && order.status !== 'canceled' ? <Timeline order={order} /> : null}
      {order.status !== 'submission_failed' ? (
        <p className="mt-3 text-sm text-ink-soft" data-testid="order-status">
          {order.status === 'refunded' ? refundedLine(order) : order.status === 'submitted' ? <AtThePrinter order={order} /> : whereNow[order.status]}
        </p>
      ) : null}
      {order.status !== 'refunded' && order.status !== 'canceled' && order.parcels.length <= 1 ? (
        <PromisedArrival arrivesBy={order.arrivesBy} method={order.totals.shippingMethod} className="mt-2 text-ink" />
      ) : null}
      <OrderAgainButton order={order} />
      {order.status === 'submission_failed' ? (
        <p className="mt-4 rounded-xl bg-gold-tint px-4 py-3 text-sm text-ink" role="status" data-testid="order-trouble">
          We’re having trouble sending this to print — we’ll keep trying; contact{' '}
          <a className="font-semibold text-cranberry-dark underline" href={`mailto:${supportEmail}?subject=${encodeURIComponent(`Order ${order.reference}`)}`}>
            {supportEmail}
          </a>
          .
        </p>
      ) : null}
      {order.parcels.length > 1 ? (
        <p className="mt-4 text-sm" data-testid="parcel-count">
          In {order.parcels.length} parcels, each tracked on its own: see them in the details below.
        </p>
      ) : order.parcels[0] && (order.parcels[0].shipments.length > 0 || order.parcels[0].shippingProgress) ? (
        <ParcelTracking parcel={order.parcels[0]} className="mt-4 text-sm" label="Tracking number" />
      ) : order.trackingNumber ? (
        <p className="mt-4 text-sm">
          Tracking number <TrackingNumber number={order.trackingNumber} url={order.trackingUrl} />
        </p>
      ) : null}
      <details className="group mt-4 border-t border-ink/10 pt-2">
        <summary className="flex min-h-11 cursor-pointer list-none items-center gap-2 font-semibold text-cranberry-dark">
          <span aria-hidden="true" className="transition-transform group-open:rotate-90">
            ›
          </span>
          Order details
        </summary>
        <div className="grid gap-6 pb-2 md:grid-cols-[minmax(0,1.4fr)_minmax(0,1fr)]">
          <div>
            <OrderLines lines={order.lines} thumbnail="sm" />
            <div className="border-t border-ink/10 pt-3">
              <TotalsList totals={order.totals} totalLabel="Paid" chargedCents={order.chargedCents} />
            </div>
          </div>
          <OrderParcels order={order} />
        </div>
      </details>
    </li>
  )
}

function Timeline({ order }: { order: Order }) {
  const at = reached[order.status]
  const troubled = order.status === 'submission_failed'
  return (
    <ol className="mt-5 grid grid-cols-4 gap-1" aria-label="Order progress" data-testid="order-timeline">
      {steps.map((step, i) => {
        const done = i <= at
        const trouble = troubled && i === at + 1
        const state = trouble ? 'needs attention' : done ? (i === at ? 'current step' : 'done') : 'not yet'
        return (
          <li
            key={step.status}
            className="flex flex-col items-center text-center"
            data-state={trouble ? 'trouble' : done ? 'done' : 'todo'}
            aria-current={i === at ? 'step' : undefined}
          >
            <div className="flex w-full items-center">
              <span className={`h-1 flex-1 rounded-full ${i === 0 ? 'invisible' : done || trouble ? 'bg-pine' : 'bg-ink/15'}`} />
              <span
                aria-hidden="true"
                className={`grid size-7 shrink-0 place-items-center rounded-full text-sm font-bold ${
                  trouble ? 'bg-gold text-ink' : done ? 'bg-pine text-white' : 'border-2 border-ink/20 bg-cream-card text-ink-soft'
                }`}
              >
                {trouble ? '!' : done ? '✓' : i + 1}
              </span>
              <span className={`h-1 flex-1 rounded-full ${i === steps.length - 1 ? 'invisible' : i < at ? 'bg-pine' : 'bg-ink/15'}`} />
            </div>
            <span className={`mt-1.5 text-xs leading-tight sm:text-sm ${done || trouble ? 'font-semibold text-ink' : 'text-ink-soft'}`}>
              {step.label}
              <span className="sr-only">, {state}</span>
            </span>
          </li>
        )
      })}
    </ol>
  )
}

function SignedOut() {
  const { demoMode } = usePublicConfig()
  // The e-mail's "See your order" names the order after '#': signing in comes back to it (issue 32).
  const hash = useHash()
  return (
    <StatePanel testId="orders-signed-out" title="Sign in to see your orders" action={<SignInActions redirect={`/photo-products/orders${hash}`} />}>
      <p>Your orders are kept with your Keepsake account.</p>
      <p className="mt-2">{signInHint(demoMode)}</p>
    </StatePanel>
  )
}

function LoadFailed({ onRetry, retrying }: { onRetry: () => void; retrying: boolean }) {
  return (
    <LoadFailedPanel
      testId="orders-error"
      title="We couldn’t load your orders"
      reassurance="Your orders are safe. Check your connection and try again."
      supportLead="Questions about an order?"
      onRetry={onRetry}
      retrying={retrying}
    />
  )
}

function OrdersSkeleton() {
  return (
    <div className="space-y-6" role="status" aria-label="Loading your orders">
      {[0, 1].map((i) => (
        <div key={i} className="h-48 animate-pulse rounded-card bg-cream-card shadow-card" />
      ))}
    </div>
  )
}

/**
 * Order again: the same designs back in the cart at today's prices, then the cart. A design whose
 * personal line names another year is offered the current one first (issue 19, part 4); changing it
 * renders the design again with the new year.
 */
function OrderAgainButton({ order }: { order: Order }) {
  const navigate = useNavigate()
  const queryClient = useQueryClient()
  const signIn = useSignInAction()
  const [busy, setBusy] = useState(false)
  const [asking, setAsking] = useState(false)
  const offerId = useId()
  const offerRef = useRef<HTMLDivElement>(null)
  const thisYear = new Date().getFullYear()
  // Each distinct line, on any ornament of any design, that names a year other than this one.
  const dated = [
    ...new Set(order.lines.flatMap((line) => linesOf(line.text).flatMap(([, l]) => (yearsIn(l.line).some((y) => y !== thisYear) ? [l.line] : [])))),
  ]
  // Every year the lines name other than this one: the server replaces them all.
  const oldYears = [...new Set(order.lines.flatMap((line) => textYears(line.text)))].filter((y) => y !== thisYear).sort((a, b) => a - b)
  const oldYear = oldYears.join(' and ')
  useEffect(() => {
    if (asking) offerRef.current?.querySelector('button')?.focus()
  }, [asking])

  const run = async (year?: number) => {
    setBusy(true)
    try {
      const outcome = await orderAgain({ data: { id: order.id, ...(year === undefined ? {} : { year }) } })
      if (!outcome.ok) {
        notify.error(`We couldn’t put order ${order.reference} back in your cart: ${outcome.error.message}`, signIn(outcome.error))
        return
      }
      queryClient.setQueryData(cartQuery().queryKey, outcome.data.cart)
      notify.success(outcome.data.added > 0 ? 'Back in your cart at today’s price' : 'These designs are already in your cart')
      await navigate({ to: '/photo-products/cart' })
    } catch (error) {
      notify.error(`We couldn’t put order ${order.reference} back in your cart: ${error instanceof Error ? error.message : 'Keepsake could not be reached'}`)
    } finally {
      setBusy(false)
    }
  }

  if (asking && oldYears.length > 0) {
    return (
      <div ref={offerRef} role="group" aria-labelledby={offerId} className="mt-4 rounded-xl bg-gold-tint p-4" data-testid="order-again-year">
        <p id={offerId} className="font-medium">
          Your text says {dated.map((line) => `“${line}”`).join(' and ')}. Change {oldYear} to {thisYear} before ordering again?
        </p>
        <div className="mt-3 flex flex-wrap gap-2">
          <Button onClick={() => void run(thisYear)} disabled={busy}>
            {busy ? 'Adding to your cart…' : `Change to ${thisYear}`}
          </Button>
          <Button variant="secondary" onClick={() => void run()} disabled={busy}>
            Keep {oldYear}
          </Button>
        </div>
      </div>
    )
  }
  return (
    <Button
      variant="secondary"
      className="mt-4"
      onClick={() => (dated.length > 0 ? setAsking(true) : void run())}
      disabled={busy}
      aria-label={`Order again: ${order.reference}`}
    >
      {busy ? 'Adding to your cart…' : 'Order again'}
    </Button>
  )
}
