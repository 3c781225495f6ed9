import { SignInActions, signInHint } from '~/components/ui/SignInActions'
import { useQuery, useQueryClient } from '@tanstack/react-query'
import { Link } from '@tanstack/react-router'
import { useEffect, useRef, useState, type ReactNode } from 'react'
import { Button, ButtonLink } from '~/components/ui/Button'
import { LoadFailedPanel, StatePanel } from '~/components/ui/StatePanel'
import type { Cart } from '~/contract/cart'
import { BundleNudge } from '~/features/bundles/BundleNudge'
import { OrnamentArt } from '~/components/OrnamentArt'
import { track } from '~/lib/analytics'
import { formatCents } from '~/catalogue/currency'
import { OWN_PARCEL } from '~/catalogue/pricing'
import { usePublicConfig } from '~/lib/public-config'
import { notify } from '~/lib/toast'
import { cancelCheckoutSession, cartQuery, createCheckoutSession, getCart, resumeCart } from './cart.functions'
import { CartLine } from './CartLine'
import { CartParcels } from './CartParcels'
import { ShippingChoice } from './ShippingChoice'
import { ChristmasDeliveryBanner } from './ShippingPromise'
import { FreeShippingNudge, TotalsList } from './Totals'
import { useCartEditing } from './useCartEditing'

type CartPageProps = {
  /** ?cancelled=<id>: back from a checkout the shopper cancelled; that session is ended first. */
  cancelledSessionId?: string
  /** Called once the cancelled session is dealt with, so a reload does not do it again. */
  onCancelledHandled: () => void
}

type ReturnNote = 'welcome-back' | 'checkout-cancelled' | null

/**
 * Coming back to the cart: a cancelled checkout is ended, and an abandoned cart is resumed (once,
 * with DidResumeCart), so the shopper finds it as they left it.
 */
function useCartReturn(cart: Cart | null | undefined, cancelledSessionId: string | undefined, onCancelledHandled: () => void) {
  const queryClient = useQueryClient()
  const [note, setNote] = useState<ReturnNote>(null)
  const [restoring, setRestoring] = useState(false)
  const handled = useRef(false)
  useEffect(() => {
    if (handled.current || !cart) return
    if (!cancelledSessionId && cart.status !== 'abandoned') return
    handled.current = true
    setRestoring(true)
    void (async () => {
      try {
        let current: Cart | null = cart
        if (cancelledSessionId) {
          // A session already ended or paid cannot be cancelled; the cart is read again either way.
          await cancelCheckoutSession({ data: { id: cancelledSessionId } }).catch(() => undefined)
          current = await getCart()
          queryClient.setQueryData(cartQuery().queryKey, current)
          onCancelledHandled()
        }
        if (current?.status === 'abandoned') {
          const resumed = await resumeCart()
          if (resumed.ok) {
            queryClient.setQueryData(cartQuery().queryKey, resumed.data)
            track('DidResumeCart', {
              cartId: resumed.data.id,
              itemCount: resumed.data.totals.itemCount,
              source: cancelledSessionId ? 'cancelled-checkout' : 'return',
            })
          } else if (resumed.error.status === 409) {
            await queryClient.invalidateQueries({ queryKey: cartQuery().queryKey })
          } else {
            notify.error(`We couldn’t restore your cart: ${resumed.error.message}`)
            return
          }
        }
        setNote(cancelledSessionId ? 'checkout-cancelled' : 'welcome-back')
      } catch (error) {
        notify.error(`We couldn’t restore your cart: ${error instanceof Error ? error.message : 'Unknown error'}`)
      } finally {
        setRestoring(false)
      }
    })()
  }, [cart, cancelledSessionId, onCancelledHandled, queryClient])
  return { note, restoring }
}

/** /photo-products/cart: the designs the shopper is about to buy, their quantities and the totals. */
export function CartPage({ cancelledSessionId, onCancelledHandled }: CartPageProps) {
  const cart = useQuery(cartQuery())
  const { note, restoring } = useCartReturn(cart.data, cancelledSessionId, onCancelledHandled)
  const editing = useCartEditing()
  const [leaving, setLeaving] = useState(false)

  const checkout = async () => {
    if (leaving || editing.saving) return
    setLeaving(true)
    try {
      const session = await createCheckoutSession()
      if (session.ok) {
        // The session's page may be ours or Stripe's: a full navigation either way.
        window.location.assign(session.data.url)
        return
      }
      notify.error(`We couldn’t start checkout: ${session.error.message}`)
      if (session.error.status === 422 || session.error.status === 409) void cart.refetch()
    } catch (error) {
      notify.error(`We couldn’t start checkout: ${error instanceof Error ? error.message : 'Unknown error'}`)
    }
    setLeaving(false)
  }

  let body: ReactNode
  if (cart.isPending) body = <CartSkeleton />
  else if (cart.isLoadingError) body = <CartLoadFailed onRetry={() => void cart.refetch()} retrying={cart.isFetching} />
  else if (cart.data === null) body = <SignedOut />
  else if (cart.data.items.length === 0) body = restoring ? <CartSkeleton /> : <EmptyCart />
  else {
    const { items, totals } = cart.data
    const canCheckout = items.length > 0 && !editing.saving && !leaving && !restoring
    const checkoutButton = (extra: string) => (
      <Button onClick={() => void checkout()} disabled={!canCheckout} className={extra} aria-describedby="checkout-hint">
        {leaving ? <span aria-hidden="true" className="size-4 animate-spin rounded-full border-2 border-white/40 border-t-white" /> : null}
        {leaving ? 'Opening checkout…' : 'Checkout'}
      </Button>
    )
    body = (
      <div className="grid gap-8 lg:grid-cols-[minmax(0,1fr)_22rem] lg:items-start">
        <section aria-labelledby="cart-lines-heading">
          <h2 id="cart-lines-heading" className="sr-only">
            Designs in your cart
          </h2>
          <ul className="divide-y divide-ink/10 rounded-card bg-cream-card px-4 shadow-card sm:px-6" data-testid="cart-lines">
            {items.map((item) => (
              <CartLine key={item.itemIdentifier} item={item} onQuantity={(q) => editing.setQuantity(item, q)} onRemove={() => editing.remove(item)} />
            ))}
          </ul>
          <p className="mt-4 text-sm text-ink-soft">
            Want another design?{' '}
            <Link to="/photo-products" className="font-semibold text-cranberry underline-offset-4 hover:underline">
              Make another ornament
            </Link>
          </p>
          <CartParcels cart={cart.data} disabled={leaving || editing.saving} />
        </section>
        <section aria-labelledby="summary-heading" className="rounded-card bg-cream-card p-5 shadow-card lg:sticky lg:top-24" aria-busy={editing.saving}>
          <h2 id="summary-heading" className="text-xl font-bold">
            Order summary
          </h2>
          {/* The shopper's own parcel's shipping; each parcel to family chooses its own. */}
          {cart.data.parcels.some((p) => p.key === OWN_PARCEL) ? (
            <ShippingChoice
              options={cart.data.shippingOptions}
              chosen={cart.data.totals.shippingMethod}
              onChoose={editing.setShipping}
              disabled={leaving}
              legend={cart.data.parcels.length > 1 ? 'Shipping to you' : 'Shipping'}
            />
          ) : null}
          <div className="mt-4">
            <TotalsList totals={totals} untaxedNote="Calculated at checkout" />
          </div>
          <div className="mt-4 space-y-3">
            {/* Free shipping is each parcel's own (decision 055): the nudge speaks for a cart shipping in one. */}
            {totals.shippingMethod === 'standard' && cart.data.parcels.length === 1 && cart.data.parcels[0]!.key === OWN_PARCEL ? (
              <FreeShippingNudge totals={totals} />
            ) : null}
            <BundleNudge items={items} />
          </div>
          <p id="checkout-hint" className="mt-3 min-h-5 text-sm text-ink-soft" role="status">
            {editing.saving ? 'Saving your changes…' : restoring ? 'Restoring your cart…' : 'Shipping address and payment come next.'}
          </p>
          <div className="mt-4 hidden lg:block">{checkoutButton('w-full')}</div>
          <Link to="/privacy" className="mt-2 inline-flex min-h-11 items-center text-sm font-semibold text-cranberry-dark underline-offset-4 hover:underline">
            How we use your data
          </Link>
        </section>
        {/* Phones: the total and Checkout stay within thumb's reach. */}
        <div className="fixed inset-x-0 bottom-0 z-20 border-t border-ink/10 bg-cream-card/95 backdrop-blur lg:hidden" data-testid="checkout-tray">
          <div className="mx-auto flex max-w-6xl items-center gap-3 px-4 py-3 pb-[max(0.75rem,env(safe-area-inset-bottom))] sm:px-6">
            <p className="min-w-0 flex-1 leading-tight">
              <span className="block text-sm text-ink-soft">Total</span>
              <span className="text-xl font-bold tabular-nums">{formatCents(totals.totalCents)}</span>
            </p>
            {checkoutButton('shrink-0 px-8')}
          </div>
        </div>
      </div>
    )
  }

  const count = cart.data?.totals.itemCount ?? 0
  return (
    <main id="main" className="mx-auto max-w-6xl px-4 pb-32 pt-8 sm:px-6 sm:pt-12 lg:pb-12">
      <h1 className="text-balance text-3xl font-bold tracking-tight sm:text-4xl">
        Your cart
        {count > 0 ? <span className="ml-2 text-xl font-semibold text-ink-soft sm:text-2xl">({count === 1 ? '1 item' : `${count} items`})</span> : null}
      </h1>
      {note ? <ReturnBanner note={note} /> : null}
      {cart.data && cart.data.items.length > 0 ? <ChristmasDeliveryBanner className="mt-4" /> : null}
      <div className="mt-6">{body}</div>
    </main>
  )
}

function ReturnBanner({ note }: { note: Exclude<ReturnNote, null> }) {
  return (
    <p role="status" className="mt-4 flex items-start gap-3 rounded-card bg-pine-tint px-4 py-3 text-pine-dark" data-testid="cart-return-note">
      <span aria-hidden="true" className="mt-0.5 text-lg leading-none">
        ✦
      </span>
      <span>
        {note === 'checkout-cancelled' ? (
          <>
            <strong>Checkout cancelled.</strong> Nothing was charged, and your cart is just as you left it.
          </>
        ) : (
          <>
            <strong>Welcome back!</strong> Your cart is just as you left it.
          </>
        )}
      </span>
    </p>
  )
}

function EmptyCart() {
  return (
    <StatePanel
      testId="cart-empty"
      title="Your cart is empty"
      art={
        <>
          <OrnamentArt shape="star" className="w-14 -rotate-6 opacity-90" />
          <OrnamentArt shape="tree" className="w-20 opacity-90" />
          <OrnamentArt shape="stocking" className="w-14 rotate-6 opacity-90" />
        </>
      }
      action={<ButtonLink to="/photo-products">Make a photo ornament</ButtonLink>}
    >
      <p>Pick two photos from your family album and we’ll turn them into a matching pair of ornaments.</p>
    </StatePanel>
  )
}

function SignedOut() {
  const { demoMode } = usePublicConfig()
  return (
    <StatePanel testId="cart-signed-out" title="Sign in to see your cart" action={<SignInActions redirect="/photo-products/cart" />}>
      <p>Your cart is kept with your Keepsake account.</p>
      <p className="mt-2">{signInHint(demoMode)}</p>
    </StatePanel>
  )
}

function CartLoadFailed({ onRetry, retrying }: { onRetry: () => void; retrying: boolean }) {
  return (
    <LoadFailedPanel
      testId="cart-error"
      title="We couldn’t load your cart"
      reassurance="Your designs are safe. Check your connection and try again."
      supportLead="Still stuck?"
      onRetry={onRetry}
      retrying={retrying}
    />
  )
}

function CartSkeleton() {
  return (
    <div className="grid gap-8 lg:grid-cols-[minmax(0,1fr)_22rem]" role="status" aria-label="Loading your cart">
      <div className="space-y-4 rounded-card bg-cream-card p-6 shadow-card">
        {[0, 1].map((i) => (
          <div key={i} className="flex gap-4">
            <div className="size-24 animate-pulse rounded-xl bg-cream-deep" />
            <div className="flex-1 space-y-2 pt-2">
              <div className="h-4 w-1/2 animate-pulse rounded bg-cream-deep" />
              <div className="h-4 w-1/3 animate-pulse rounded bg-cream-deep" />
            </div>
          </div>
        ))}
      </div>
      <div className="h-56 animate-pulse rounded-card bg-cream-card shadow-card" />
    </div>
  )
}
