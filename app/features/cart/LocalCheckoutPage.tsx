import { SignInActions } from '~/components/ui/SignInActions'
import { describePersonalText } from '~/catalogue/personal-line'
import { useQuery, useQueryClient, useSuspenseQuery } from '@tanstack/react-query'
import { Link, useNavigate, useRouterState } from '@tanstack/react-router'
import { useRef, useState, type FormEvent, type ReactNode } from 'react'
import { Button, ButtonLink } from '~/components/ui/Button'
import { LogoMark } from '~/components/ui/Logo'
import { TextField } from '~/components/ui/fields'
import { StreetAddressFields } from '~/components/ui/AddressFields'
import { FIELD_LIMITS } from '~/catalogue/field-limits'
import { SupportLine } from '~/components/ui/SupportLine'
import type { CheckoutSession } from '~/contract/cart'
import { ADDRESS_CHANGED_MESSAGE, CART_CHANGED_MESSAGE, CREDIT_CHANGED_MESSAGE, LOCAL_TEST_CARDS } from '~/catalogue/cart-terms'
import { cartQuery, checkoutSessionQuery, createCheckoutSession, payLocalCheckout } from '~/features/cart/cart.functions'
import { OrderLines } from '~/features/cart/OrderLines'
import { PromisedArrival } from '~/features/cart/ArrivalDates'
import { TotalsList } from '~/features/cart/Totals'
import { currentUserQuery } from '~/features/account/account.functions'
import { formatCents } from '~/catalogue/currency'
import { OWN_PARCEL, withSalesTax } from '~/catalogue/pricing'
import { formatWeekday, shippingMethods } from '~/catalogue/shipping'
import { usePublicConfig } from '~/lib/public-config'
import { fieldErrorsOf } from '~/lib/field-errors'

/** Why a checkout was closed for something the shopper changed meanwhile: its page offers the cart's new total. */
const changedReasons = new Set<string>([CART_CHANGED_MESSAGE, CREDIT_CHANGED_MESSAGE, ADDRESS_CHANGED_MESSAGE])

export const cancelUrlOf = (sessionId: string) => `/photo-products/cart?cancelled=${sessionId}`
/** An e-gift's checkout returns to /egifts, named by the gift (its one line), as Stripe's cancel URL does. */
export const egiftCancelUrlOf = (giftId: string) => `/egifts?cancelled=${giftId}`
/** An e-gift session's single line is the gift itself. */
const giftIdOf = (session: CheckoutSession) => (session.purpose === 'egift' ? (session.lines[0]?.cartItemId ?? null) : null)

type AddressField = 'name' | 'email' | 'phone' | 'line1' | 'line2' | 'city' | 'state' | 'postalCode'
type Field = AddressField | 'cardNumber'
type FieldErrors = Partial<Record<Field, string>>

const addressFields: AddressField[] = ['name', 'email', 'phone', 'line1', 'line2', 'city', 'state', 'postalCode']
const fieldOrder: Field[] = [...addressFields, 'cardNumber']

/** 4242424242424242 → 4242 4242 4242 4242, as the shopper types. */
const groupCardNumber = (value: string) =>
  value
    .replace(/\D/g, '')
    .slice(0, 19)
    .replace(/(\d{4})(?=\d)/g, '$1 ')

/** /utils/checkout/$sessionId: the local payment provider's hosted checkout page (test cards only). */
export function LocalCheckoutPage({ sessionId }: { sessionId: string }) {
  const { data: outcome } = useSuspenseQuery(checkoutSessionQuery(sessionId))
  if (!outcome.ok) {
    if (outcome.error.status === 401) return <SignedOut />
    if (outcome.error.status === 404) {
      return (
        <Ended title="We can’t find this checkout" testId="checkout-missing">
          The link may be mistyped, or the checkout belongs to another account. Your cart is where you left it.
        </Ended>
      )
    }
    return <LoadFailed message={outcome.error.message} sessionId={sessionId} />
  }
  const session = outcome.data
  if (session.status === 'expired' || session.status === 'failed') {
    if (session.purpose === 'egift') {
      return (
        <Ended title="This checkout has ended" testId="checkout-ended" forGift>
          {session.status === 'expired'
            ? 'It was cancelled or timed out before payment, so nothing was charged and no gift was sent. You can choose your gift again whenever you’re ready.'
            : 'The payment didn’t go through, so nothing was charged and no gift was sent. Choose your gift again to try another card.'}
        </Ended>
      )
    }
    if (session.lastError && changedReasons.has(session.lastError)) return <CartChanged reason={session.lastError} />
    return (
      <Ended title="This checkout has ended" testId="checkout-ended">
        {session.status === 'expired'
          ? 'It was cancelled or timed out before payment, so nothing was charged. Your designs are still in your cart: check out again whenever you’re ready.'
          : 'The payment didn’t go through, so nothing was charged. Your designs are still in your cart: check out again to try another card.'}
      </Ended>
    )
  }
  return <CheckoutForm session={session} />
}

function CheckoutForm({ session }: { session: CheckoutSession }) {
  const queryClient = useQueryClient()
  const navigate = useNavigate()
  const { data: user } = useQuery(currentUserQuery())
  const [address, setAddress] = useState<Record<AddressField, string>>(() => ({
    name: user ? `${user.firstName} ${user.lastName}` : '',
    email: user?.email ?? '',
    phone: '',
    line1: '',
    line2: '',
    city: '',
    state: '',
    postalCode: '',
  }))
  const [cardNumber, setCardNumber] = useState('')
  const [errors, setErrors] = useState<FieldErrors>({})
  const [problem, setProblem] = useState<string | null>(session.lastError)
  const [declined, setDeclined] = useState(false)
  const [paying, setPaying] = useState(false)
  const form = useRef<HTMLFormElement>(null)
  const giftId = giftIdOf(session)

  const focusField = (field: Field) => form.current?.querySelector<HTMLElement>(`[name="${field}"]`)?.focus()

  const pay = async (event: FormEvent) => {
    event.preventDefault()
    if (paying) return
    setPaying(true)
    setProblem(null)
    setDeclined(false)
    setErrors({})
    try {
      // A gift ships nothing: its payment is the card alone.
      const outcome = await payLocalCheckout({
        data: { id: session.id, cardNumber, ...(giftId ? {} : { shippingAddress: { ...address, country: 'US' } }) },
      })
      if (outcome.ok) {
        queryClient.setQueryData(checkoutSessionQuery(session.id).queryKey, outcome)
        if (giftId) {
          await navigate({ to: '/egifts/complete', search: { gift: giftId } })
          return
        }
        void queryClient.invalidateQueries({ queryKey: cartQuery().queryKey })
        await navigate({ to: '/photo-products/checkout/complete', search: { checkout: session.id } })
        return
      }
      const failure = outcome.error
      if (failure.code === 'payment_declined') {
        setDeclined(true)
        setProblem(failure.message)
        focusField('cardNumber')
      } else if (failure.issues.length > 0) {
        const { fields, other } = fieldErrorsOf(failure, fieldOrder)
        setErrors(fields)
        setProblem(other.length > 0 ? other.join(' ') : 'Please check the highlighted fields.')
        const first = fieldOrder.find((f) => fields[f])
        if (first) focusField(first)
      } else if (failure.status === 409 || failure.status === 404) {
        // The session ended meanwhile (cancelled in another tab, timed out, or already paid).
        await queryClient.invalidateQueries({ queryKey: checkoutSessionQuery(session.id).queryKey })
        setProblem(failure.message)
      } else {
        setProblem(failure.message)
      }
    } catch (error) {
      setProblem(`We couldn’t reach the payment service: ${error instanceof Error ? error.message : 'Unknown error'}. Nothing was charged; try again.`)
    }
    setPaying(false)
  }

  const set = (field: AddressField) => (value: string) => setAddress((a) => ({ ...a, [field]: value }))
  // The tax where the goods go, as the server will charge it once this address is sent (chargedTotals, the same function).
  const toFamily = session.parcels.filter((p) => p.key !== OWN_PARCEL)
  const shipsHome = session.parcels.length === 0 || session.parcels.some((p) => p.key === OWN_PARCEL)
  const totals = !giftId && address.state ? withSalesTax(session.totals, { state: address.state, estimated: false }) : session.totals
  const total = formatCents(totals.totalCents)

  return (
    <main id="main" className="pb-16">
      <div className="border-b border-ink/10 bg-cream-card">
        <div className="mx-auto flex max-w-5xl items-center justify-between gap-3 px-4 py-3 sm:px-6">
          <p className="flex items-center gap-2 font-semibold">
            <LogoMark className="size-7" />
            Keepsake checkout
          </p>
          <p className="rounded-full bg-gold-tint px-3 py-1 text-sm font-semibold text-gold-dark">Test mode</p>
        </div>
      </div>
      <div className="mx-auto grid max-w-5xl gap-8 px-4 pt-6 sm:px-6 sm:pt-10 lg:grid-cols-[minmax(0,1fr)_minmax(0,1.1fr)] lg:gap-12">
        <section aria-labelledby="summary-heading" className="lg:sticky lg:top-24 lg:self-start">
          <h1 id="summary-heading" className="text-ink-soft">
            <span className="block text-base font-semibold">Pay Keepsake</span>
            <span className="mt-1 block text-4xl font-bold tracking-tight text-ink tabular-nums" data-testid="checkout-total">
              {total}
            </span>
          </h1>
          {giftId ? (
            <EgiftSummary session={session} />
          ) : (
            <div className="mt-5 rounded-card bg-cream-card px-4 py-2 shadow-card sm:px-5">
              <OrderLines lines={session.lines} thumbnail="sm" />
              <div className="border-t border-ink/10 py-3">
                {shipsHome ? <PromisedArrival arrivesBy={session.arrivesBy} method={session.totals.shippingMethod} className="mb-3 text-ink" /> : null}
                {toFamily.length > 0 ? (
                  <div className="mb-3 text-sm" data-testid="checkout-parcels">
                    <p className="font-semibold">Also shipping to</p>
                    <ul className="mt-1 space-y-1 text-ink-soft">
                      {toFamily.map((p) => (
                        <li key={p.key}>
                          {p.label} ({p.city}, {p.state}): {p.itemCount === 1 ? '1 ornament' : `${p.itemCount} ornaments`},{' '}
                          {shippingMethods[p.shippingMethod].label.toLowerCase()}
                          {p.arrivesBy ? `, arrives by ${formatWeekday(p.arrivesBy)}` : ''}
                        </li>
                      ))}
                    </ul>
                  </div>
                ) : null}
                <TotalsList totals={totals} totalLabel="Total due today" untaxedNote="Added with the address" />
              </div>
            </div>
          )}
          <p className="mt-4 text-sm text-ink-soft">
            Changed your mind?{' '}
            <a href={giftId ? egiftCancelUrlOf(giftId) : cancelUrlOf(session.id)} className="font-semibold text-cranberry underline-offset-4 hover:underline">
              {giftId ? 'Cancel and return to e-gifts' : 'Cancel and return to the store'}
            </a>
          </p>
        </section>

        <form ref={form} onSubmit={(e) => void pay(e)} noValidate aria-labelledby="form-heading" className="space-y-8">
          <h2 id="form-heading" className="sr-only">
            {giftId ? 'Payment' : 'Shipping and payment'}
          </h2>
          {giftId ? null : (
            <>
              <fieldset className="space-y-4">
                <legend className="text-xl font-bold">Contact</legend>
                <TextField
                  label="Full name"
                  name="name"
                  autoComplete="name"
                  maxLength={FIELD_LIMITS.personName}
                  value={address.name}
                  onChange={set('name')}
                  error={errors.name}
                />
                <TextField
                  label="E-mail"
                  name="email"
                  type="email"
                  autoComplete="email"
                  maxLength={FIELD_LIMITS.email}
                  value={address.email}
                  onChange={set('email')}
                  error={errors.email}
                  hint="We’ll send the receipt and tracking here."
                />
                <TextField
                  label="Phone"
                  optional
                  name="phone"
                  type="tel"
                  autoComplete="tel"
                  maxLength={FIELD_LIMITS.phone}
                  value={address.phone}
                  onChange={set('phone')}
                  error={errors.phone}
                  hint="Only for the courier, if they need you."
                />
              </fieldset>

              <fieldset className="space-y-4">
                <legend className="text-xl font-bold">{shipsHome ? 'Shipping address' : 'Your address'}</legend>
                {shipsHome ? null : <p className="text-sm text-ink-soft">For your receipt; every ornament ships to family.</p>}
                <StreetAddressFields value={address} onChange={set} errors={errors} />
                <div>
                  <label htmlFor="checkout-country" className="text-sm font-semibold">
                    Country
                  </label>
                  <input
                    id="checkout-country"
                    readOnly
                    value="United States"
                    autoComplete="country-name"
                    aria-describedby="checkout-country-hint"
                    className="mt-1 block min-h-11 w-full rounded-xl border-2 border-ink/10 bg-cream-deep/60 px-3 py-2 text-base text-ink-soft"
                  />
                  <p id="checkout-country-hint" className="mt-1 text-sm text-ink-soft">
                    We ship to the United States only for now.
                  </p>
                </div>
              </fieldset>
            </>
          )}

          <fieldset className="space-y-4">
            <legend className="text-xl font-bold">Payment</legend>
            <TextField
              label="Card number"
              name="cardNumber"
              autoComplete="cc-number"
              inputMode="numeric"
              placeholder="1234 1234 1234 1234"
              value={cardNumber}
              onChange={(v) => {
                setCardNumber(groupCardNumber(v))
                if (declined) setDeclined(false)
              }}
              error={errors.cardNumber ?? (declined && problem ? problem : undefined)}
            />
            <TestCards onUse={(number) => setCardNumber(groupCardNumber(number))} />
          </fieldset>

          {problem && !declined ? (
            <p
              role="alert"
              className="rounded-xl border-2 border-cranberry/30 bg-cranberry-tint px-4 py-3 font-semibold text-cranberry-dark"
              data-testid="checkout-problem"
            >
              {problem}
            </p>
          ) : null}

          <div>
            <Button type="submit" disabled={paying} className="w-full text-lg">
              {paying ? <span aria-hidden="true" className="size-4 animate-spin rounded-full border-2 border-white/40 border-t-white" /> : null}
              {paying ? 'Paying…' : `Pay ${total}`}
            </Button>
            <p className="mt-3 text-center text-sm text-ink-soft">Nothing real is charged on this test checkout.</p>
            <p className="mt-1 text-center text-sm">
              <Link to="/privacy" className="inline-flex min-h-11 items-center font-semibold text-cranberry-dark underline-offset-4 hover:underline">
                How we use your data
              </Link>
            </p>
          </div>
        </form>
      </div>
    </main>
  )
}

function TestCards({ onUse }: { onUse: (number: string) => void }) {
  const cards = [
    { number: LOCAL_TEST_CARDS.succeeds, label: 'pays' },
    { number: LOCAL_TEST_CARDS.declined, label: 'is declined' },
  ]
  return (
    <div className="rounded-xl bg-gold-tint px-4 py-3 text-sm" data-testid="test-cards">
      <p className="font-semibold">Test cards</p>
      <ul className="mt-1 space-y-1">
        {cards.map((card) => (
          <li key={card.number} className="flex flex-wrap items-center justify-between gap-x-3">
            <span>
              <span className="font-mono tabular-nums">{groupCardNumber(card.number)}</span> {card.label}
            </span>
            <button
              type="button"
              onClick={() => onUse(card.number)}
              className="min-h-11 rounded-full px-2 font-semibold text-cranberry-dark underline-offset-4 hover:underline"
              aria-label={`Use ${groupCardNumber(card.number)}, which ${card.label}`}
            >
              Use
            </button>
          </li>
        ))}
      </ul>
    </div>
  )
}

function Shell({ children, testId }: { children: ReactNode; testId: string }) {
  return (
    <main id="main" className="mx-auto flex min-h-[60dvh] max-w-xl flex-col items-center justify-center px-6 py-16 text-center" data-testid={testId}>
      <LogoMark className="mb-6 size-14" />
      {children}
    </main>
  )
}

function Ended({ title, children, testId, forGift }: { title: string; children: ReactNode; testId: string; forGift?: boolean }) {
  return (
    <Shell testId={testId}>
      <h1 className="text-3xl font-bold tracking-tight">{title}</h1>
      <p className="mt-3 text-lg text-ink-soft">{children}</p>
      <div className="mt-8 flex flex-wrap justify-center gap-3">
        {forGift ? <ButtonLink to="/egifts">Back to e-gifts</ButtonLink> : <ButtonLink to="/photo-products/cart">Back to your cart</ButtonLink>}
        <ButtonLink to="/photo-products" variant="secondary">
          Go to the store
        </ButtonLink>
      </div>
    </Shell>
  )
}

/**
 * The cart changed in another tab while this checkout was open (issue 15, bug 9): the checkout was
 * closed, and the shopper is offered the cart as it is now, at its new total.
 */
/** The checkout closed because the cart or the shopper's store credit changed while it was open: the cart's total now, and a new checkout. */
function CartChanged({ reason }: { reason: string }) {
  // The cart as it is now: this tab's copy is from before the other tab changed it.
  const cart = useQuery({ ...cartQuery(), refetchOnMount: 'always' })
  const [starting, setStarting] = useState(false)
  const [problem, setProblem] = useState<string | null>(null)
  const now = cart.isFetchedAfterMount ? cart.data : undefined
  const items = now?.items ?? null
  const total = now?.totals.totalCents ?? null
  const pairs = now?.totals.itemCount ?? 0
  const checkOutAgain = async () => {
    if (starting) return
    setStarting(true)
    setProblem(null)
    try {
      const session = await createCheckoutSession()
      if (session.ok) {
        window.location.assign(session.data.url)
        return
      }
      setProblem(`We couldn’t start checkout: ${session.error.message}`)
    } catch (error) {
      setProblem(`We couldn’t start checkout: ${error instanceof Error ? error.message : 'Unknown error'}`)
    }
    setStarting(false)
  }
  return (
    <Shell testId="checkout-cart-changed">
      <h1 className="text-3xl font-bold tracking-tight">
        {reason === CREDIT_CHANGED_MESSAGE ? 'Your store credit changed' : reason === ADDRESS_CHANGED_MESSAGE ? 'An address changed' : 'Your cart changed'}
      </h1>
      <p className="mt-3 text-lg text-ink-soft">{reason}</p>
      {items && items.length > 0 && total !== null ? (
        <p className="mt-2 text-lg text-ink-soft" data-testid="cart-now">
          Your cart now holds {pairs} {pairs === 1 ? 'pair' : 'pairs'} of ornaments and comes to{' '}
          <strong className="font-semibold text-ink tabular-nums">{formatCents(total)}</strong>.
        </p>
      ) : null}
      {problem ? (
        <p role="alert" className="mt-4 font-semibold text-cranberry-dark">
          {problem}
        </p>
      ) : null}
      <div className="mt-8 flex flex-wrap justify-center gap-3">
        {items && items.length > 0 && total !== null ? (
          <Button onClick={() => void checkOutAgain()} disabled={starting}>
            {starting ? 'Opening checkout…' : `Check out ${formatCents(total)}`}
          </Button>
        ) : null}
        <ButtonLink to="/photo-products/cart" variant={items && items.length > 0 ? 'secondary' : 'primary'}>
          Review your cart
        </ButtonLink>
      </div>
    </Shell>
  )
}

/** An e-gift's one line: the card, who it is for, and the amount; there is no shipping to total. */
function EgiftSummary({ session }: { session: CheckoutSession }) {
  const line = session.lines[0]
  return (
    <div className="mt-5 rounded-card bg-cream-card px-4 py-4 shadow-card sm:px-5" data-testid="egift-line">
      {line ? (
        <div className="flex items-center gap-4">
          <img src={line.previewCdnUrl} alt="" width={96} height={60} className="h-[3.75rem] w-24 shrink-0 rounded-lg object-cover" />
          <div className="min-w-0 flex-1">
            <p className="font-semibold leading-snug">{line.title}</p>
            {line.text ? <p className="text-sm text-ink-soft">{describePersonalText(line.text)}</p> : null}
            <p className="text-sm text-ink-soft">Sent by e-mail · nothing to ship</p>
          </div>
          <p className="font-semibold tabular-nums">{formatCents(line.unitAmountCents * line.quantity)}</p>
        </div>
      ) : null}
      <div className="mt-3 flex items-baseline justify-between gap-4 border-t border-ink/10 pt-3">
        <p className="text-lg font-semibold">Total due today</p>
        <p className="text-xl font-bold tabular-nums" data-testid="total">
          {formatCents(session.totals.totalCents)}
        </p>
      </div>
    </div>
  )
}

function SignedOut() {
  const here = useRouterState({ select: (s) => s.location.href })
  return (
    <Shell testId="checkout-signed-out">
      <h1 className="text-3xl font-bold tracking-tight">Sign in to pay</h1>
      <p className="mt-3 text-lg text-ink-soft">This checkout belongs to a Keepsake account. Sign in with the same account to continue.</p>
      <div className="mt-8 flex flex-wrap justify-center gap-3">
        <SignInActions redirect={here} />
      </div>
    </Shell>
  )
}

function LoadFailed({ message, sessionId }: { message: string; sessionId: string }) {
  const queryClient = useQueryClient()
  const { supportEmail } = usePublicConfig()
  return (
    <Shell testId="checkout-error">
      <h1 className="text-3xl font-bold tracking-tight">We couldn’t open this checkout</h1>
      <p className="mt-3 text-lg text-ink-soft">{message}. Nothing was charged.</p>
      <SupportLine email={supportEmail} />
      <div className="mt-8 flex flex-wrap justify-center gap-3">
        <Button onClick={() => void queryClient.invalidateQueries({ queryKey: checkoutSessionQuery(sessionId).queryKey })}>Try again</Button>
        <Link to="/photo-products/cart" className="inline-flex min-h-11 items-center px-2 font-semibold text-cranberry underline-offset-4 hover:underline">
          Back to your cart
        </Link>
      </div>
    </Shell>
  )
}
