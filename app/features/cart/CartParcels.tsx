import { useQuery, useQueryClient } from '@tanstack/react-query'
import { Link } from '@tanstack/react-router'
import { useEffect, useState } from 'react'
import { formatCents } from '~/catalogue/currency'
import { OWN_PARCEL } from '~/catalogue/pricing'
import { FIELD_LIMITS } from '~/catalogue/field-limits'
import { giftMessageUnread, type GiftMessageVia } from '~/catalogue/gift-messages'
import { taxLineLabel } from '~/catalogue/sales-tax'
import { Button, buttonClass } from '~/components/ui/Button'
import { inputClass, TextField } from '~/components/ui/fields'
import type { AddressBookEntry } from '~/contract/addresses'
import type { Cart, CartParcel, CartParcelChoice } from '~/contract/cart'
import { AddressForm, emptyDraft } from '~/features/account/AddressForm'
import { addressBookQuery } from '~/features/account/addresses.functions'
import { unreachable, type ApiFailure } from '~/lib/api-outcome'
import { fieldErrorsOf } from '~/lib/field-errors'
import { notify } from '~/lib/toast'
import { cartQuery, setCartParcels } from './cart.functions'
import { ShippingChoice } from './ShippingChoice'
import { useShippingCalendar } from './ShippingPromise'

/** The parcels to address book entries, as PUT parcels takes them back. */
const choicesOf = (cart: Cart): CartParcelChoice[] =>
  cart.parcels
    .filter((p) => p.addressId)
    .map((p) => ({ addressId: p.addressId!, shippingMethod: p.shippingMethod, giftMessage: p.giftMessage, recipientEmail: p.recipientEmail, items: p.items }))

const quantityIn = (parcel: CartParcel | undefined, cartItemId: string) => parcel?.items.find((i) => i.cartItemId === cartItemId)?.quantity ?? 0

/**
 * Where the cart ships (issue 33): the shopper's own parcel, and one per address book entry they send some of the
 * ornaments to, each with its own shipping, price, tax, gift message and recipient. Every change is saved at once;
 * the server's answer is what the page shows.
 */
export function CartParcels({ cart, disabled }: { cart: Cart; disabled?: boolean }) {
  const queryClient = useQueryClient()
  const book = useQuery(addressBookQuery())
  const [saving, setSaving] = useState(false)
  const [picking, setPicking] = useState(false)
  const [newAddress, setNewAddress] = useState(false)
  /** Where focus goes once the parcels are drawn again (the picker and its form are gone): a parcel's heading, or the section's. */
  const [focusAfter, setFocusAfter] = useState<string | null>(null)
  useEffect(() => {
    if (!focusAfter) return
    const target = document.getElementById(focusAfter === 'section' ? 'parcels-heading' : `parcel-${focusAfter}`)
    if (!target) return
    target.focus()
    setFocusAfter(null)
  }, [focusAfter, cart])
  const own = cart.parcels.find((p) => p.key === OWN_PARCEL)
  const booked = cart.parcels.filter((p) => p.addressId)
  const entries = book.data?.addresses ?? []
  const unused = entries.filter((e) => !booked.some((p) => p.addressId === e.id))
  const firstLeft = cart.items.find((item) => quantityIn(own, item.id) > 0)

  const save = async (next: CartParcelChoice[], what: string): Promise<ApiFailure | null> => {
    setSaving(true)
    try {
      const outcome = await setCartParcels({ data: { parcels: next, cartId: cart.id } }).catch(unreachable)
      if (outcome.ok) {
        queryClient.setQueryData(cartQuery().queryKey, outcome.data)
        return null
      }
      if (outcome.error.issues.length === 0) notify.error(`We couldn’t ${what}: ${outcome.error.message}`)
      void queryClient.invalidateQueries({ queryKey: cartQuery().queryKey })
      return outcome.error
    } finally {
      setSaving(false)
    }
  }

  const sendTo = async (entry: AddressBookEntry) => {
    if (!firstLeft) return
    setPicking(false)
    const failed = await save(
      [
        ...choicesOf(cart),
        { addressId: entry.id, shippingMethod: 'standard', giftMessage: '', recipientEmail: entry.email, items: [{ cartItemId: firstLeft.id, quantity: 1 }] },
      ],
      `send an ornament to ${entry.label}`,
    )
    // The button or form that was used is gone: focus goes to the new parcel, as the address book's does (issue 42, item 18).
    setFocusAfter(failed ? 'section' : entry.id)
    if (!failed) notify.success(`An ornament now goes to ${entry.label}`)
  }

  const change = (key: string, patch: (choice: CartParcelChoice) => CartParcelChoice | null, what: string) =>
    save(
      choicesOf(cart).flatMap((c) => {
        if (c.addressId !== key) return [c]
        const next = patch(c)
        return next && next.items.length > 0 ? [next] : []
      }),
      what,
    )

  const busy = saving || disabled
  return (
    <section aria-labelledby="parcels-heading" className="mt-6 rounded-card bg-cream-card p-4 shadow-card sm:p-6" data-testid="cart-parcels" aria-busy={saving}>
      <h2 id="parcels-heading" tabIndex={-1} className="text-xl font-bold outline-none">
        Where it goes
      </h2>
      <p className="mt-1 text-sm text-ink-soft">Sending some as gifts? Ship any of these ornaments straight to family, each parcel with its own note.</p>
      <ul className="mt-4 space-y-4">
        {own ? <OwnParcel parcel={own} cart={cart} several={booked.length > 0} /> : null}
        {booked.map((parcel) => (
          <BookParcel key={parcel.key} parcel={parcel} own={own} cart={cart} busy={Boolean(busy)} change={change} />
        ))}
      </ul>
      <div className="mt-4">
        {picking ? (
          <div className="rounded-xl border-2 border-ink/10 bg-cream p-4" data-testid="parcel-picker">
            <p className="font-semibold">Send to</p>
            {unused.length > 0 ? (
              <ul className="mt-2 grid gap-2 sm:grid-cols-2">
                {unused.map((entry) => (
                  <li key={entry.id}>
                    <button
                      type="button"
                      className="flex min-h-11 w-full flex-col items-start rounded-xl border-2 border-ink/15 bg-cream-card px-3 py-2 text-left hover:border-cranberry disabled:opacity-60"
                      onClick={() => void sendTo(entry)}
                      disabled={busy}
                    >
                      <span className="font-semibold">{entry.label}</span>
                      <span className="text-sm text-ink-soft">
                        {entry.city}, {entry.state}
                      </span>
                    </button>
                  </li>
                ))}
              </ul>
            ) : (
              <p className="mt-1 text-sm text-ink-soft">
                {entries.length === 0 ? 'Your address book is empty.' : 'Every address in your book already has a parcel.'}
              </p>
            )}
            {newAddress ? (
              <AddressForm
                className="mt-4"
                title="New address"
                initial={emptyDraft}
                onSaved={async (saved) => {
                  await queryClient.invalidateQueries({ queryKey: addressBookQuery().queryKey })
                  setNewAddress(false)
                  await sendTo(saved)
                }}
                onCancel={() => setNewAddress(false)}
              />
            ) : (
              <div className="mt-3 flex flex-wrap gap-2">
                <Button variant="secondary" onClick={() => setNewAddress(true)} disabled={busy} data-testid="parcel-new-address">
                  Add a new address
                </Button>
                <Button variant="quiet" onClick={() => setPicking(false)}>
                  Cancel
                </Button>
              </div>
            )}
          </div>
        ) : firstLeft ? (
          <Button variant="secondary" onClick={() => setPicking(true)} disabled={busy} data-testid="add-parcel">
            Ship some to another address
          </Button>
        ) : (
          <p className="text-sm text-ink-soft">Every ornament is going to family. Lower a parcel’s quantity to keep one for yourself.</p>
        )}
        <p className="mt-2 text-sm">
          <Link to="/photo-products/addresses" className="font-semibold text-cranberry-dark underline-offset-4 hover:underline">
            Manage your address book
          </Link>
        </p>
      </div>
    </section>
  )
}

function ParcelItems({ parcel, cart }: { parcel: CartParcel; cart: Cart }) {
  return (
    <ul className="mt-1 text-sm text-ink">
      {parcel.items.map((item) => {
        const line = cart.items.find((l) => l.id === item.cartItemId)
        return line ? (
          <li key={item.cartItemId}>
            {item.quantity} × {line.metadata.title}
          </li>
        ) : null
      })}
    </ul>
  )
}

/** Shipping and tax of one parcel, from the server's totals. */
function ParcelMoney({ cart, parcel }: { cart: Cart; parcel: CartParcel }) {
  const money = cart.totals.parcels.find((p) => p.key === parcel.key)
  if (!money) return null
  const tax = taxLineLabel(money)
  return (
    <p className="mt-2 text-sm text-ink-soft" data-testid="parcel-money">
      Shipping <span className="font-semibold text-ink tabular-nums">{money.shippingCents === 0 ? 'Free' : formatCents(money.shippingCents)}</span>
      {tax ? (
        <>
          {' · '}
          {tax} <span className="font-semibold text-ink tabular-nums">{formatCents(money.taxCents)}</span>
        </>
      ) : null}
    </p>
  )
}

function OwnParcel({ parcel, cart, several }: { parcel: CartParcel; cart: Cart; several: boolean }) {
  return (
    <li className="rounded-xl border-2 border-ink/10 bg-cream px-4 py-3" data-testid="cart-parcel" data-parcel={OWN_PARCEL}>
      <h3 className="font-semibold">To you</h3>
      <p className="text-sm text-ink-soft">You’ll enter your address at checkout.</p>
      <ParcelItems parcel={parcel} cart={cart} />
      {several ? <ParcelMoney cart={cart} parcel={parcel} /> : null}
    </li>
  )
}

type Change = (key: string, patch: (choice: CartParcelChoice) => CartParcelChoice | null, what: string) => Promise<ApiFailure | null>

function BookParcel({ parcel, own, cart, busy, change }: { parcel: CartParcel; own: CartParcel | undefined; cart: Cart; busy: boolean; change: Change }) {
  const label = parcel.label ?? 'this address'
  const via = useShippingCalendar()?.giftMessageVia
  // What the shopper just picked, shown at once until the server's answer (or its refusal) replaces it.
  const [picked, setPicked] = useState<{ method?: CartParcel['shippingMethod']; quantities?: Record<string, number> }>({})
  useEffect(() => setPicked({}), [parcel])
  const settle = (outcome: Promise<ApiFailure | null>) => void outcome.then((failed) => failed && setPicked({}))
  const setQuantity = (cartItemId: string, quantity: number) => {
    setPicked((p) => ({ ...p, quantities: { ...p.quantities, [cartItemId]: quantity } }))
    settle(
      change(
        parcel.key,
        (c) => ({
          ...c,
          items: [...c.items.filter((i) => i.cartItemId !== cartItemId), ...(quantity > 0 ? [{ cartItemId, quantity }] : [])].sort(
            (a, b) => cart.items.findIndex((l) => l.id === a.cartItemId) - cart.items.findIndex((l) => l.id === b.cartItemId),
          ),
        }),
        `change what goes to ${label}`,
      ),
    )
  }
  return (
    <li className="rounded-xl border-2 border-gold/40 bg-cream px-4 py-3" data-testid="cart-parcel" data-parcel={parcel.key}>
      <div className="flex flex-wrap items-start justify-between gap-2">
        <div className="min-w-0">
          <h3 id={`parcel-${parcel.key}`} tabIndex={-1} className="font-semibold outline-none">
            To {label}
          </h3>
          {parcel.address ? (
            <p className="text-sm text-ink-soft">
              {parcel.address.name}, {parcel.address.line1}, {parcel.address.city}, {parcel.address.state} {parcel.address.postalCode}
            </p>
          ) : null}
        </div>
        <button
          type="button"
          className="min-h-11 text-sm font-semibold text-cranberry-dark underline-offset-4 hover:underline disabled:opacity-60"
          disabled={busy}
          onClick={() => void change(parcel.key, () => null, `stop sending to ${label}`)}
        >
          Don’t send to {label}
        </button>
      </div>
      <div className="mt-2 space-y-2">
        {cart.items.map((line) => {
          const here = quantityIn(parcel, line.id)
          const most = here + quantityIn(own, line.id)
          const shown = picked.quantities?.[line.id] ?? here
          if (most === 0) return null
          return (
            <label key={line.id} className="flex items-center justify-between gap-3 text-sm">
              <span className="min-w-0">
                {line.metadata.title}
                <span className="sr-only"> to {label}</span>
              </span>
              <select
                className={inputClass(false).replace('mt-1 ', '').replace('w-full', 'w-20 shrink-0')}
                value={shown}
                disabled={busy}
                onChange={(e) => setQuantity(line.id, Number(e.target.value))}
                data-testid="parcel-quantity"
              >
                {Array.from({ length: most + 1 }, (_, n) => (
                  <option key={n} value={n}>
                    {n}
                  </option>
                ))}
              </select>
            </label>
          )
        })}
      </div>
      <ShippingChoice
        compact
        legend={`Shipping to ${label}`}
        options={parcel.shippingOptions}
        chosen={picked.method ?? parcel.shippingMethod}
        disabled={busy}
        onChoose={(method) => {
          setPicked((p) => ({ ...p, method }))
          settle(change(parcel.key, (c) => ({ ...c, shippingMethod: method }), `change the shipping to ${label}`))
        }}
      />
      <GiftFields parcel={parcel} label={label} via={via} busy={busy} change={change} />
      <ParcelMoney cart={cart} parcel={parcel} />
    </li>
  )
}

/**
 * The parcel's gift message and its recipient's e-mail, saved when the shopper leaves the field. What the hint
 * promises is what reaches the box for the print provider in use (`via`, decision 070): the local shop prints the
 * message on the packing slip; with Printify it goes only in the e-mail to the recipient, so a message needs it.
 */
export function GiftFields({
  parcel,
  label,
  via,
  busy,
  change,
}: {
  parcel: CartParcel
  label: string
  via: GiftMessageVia | undefined
  busy: boolean
  change: Change
}) {
  const [message, setMessage] = useState(parcel.giftMessage)
  const [email, setEmail] = useState(parcel.recipientEmail)
  const [errors, setErrors] = useState<{ giftMessage?: string; recipientEmail?: string }>({})
  const byEmail = via === 'recipient_email'
  const saveIfChanged = async () => {
    if (busy || (message === parcel.giftMessage && email === parcel.recipientEmail)) return
    const failed = await change(parcel.key, (c) => ({ ...c, giftMessage: message, recipientEmail: email }), `save the note for ${label}`)
    setErrors(failed ? fieldErrorsOf(failed, ['giftMessage', 'recipientEmail'] as const).fields : {})
    if (!failed) notify.success(`Saved the note for ${label}`)
  }
  const left = `${FIELD_LIMITS.giftMessage - message.length} characters left.`
  const messageHint =
    via === undefined
      ? `No prices are shown. ${left}`
      : byEmail
        ? `We e-mail your message to ${label} when the parcel ships: it is not printed in the box. ${left}`
        : `Printed on the packing slip, with no prices. ${left}`
  return (
    <div
      className="mt-3 grid gap-3"
      onBlur={(e) => {
        // Saved once focus leaves the note, not when it moves from the message to the e-mail.
        if (!e.currentTarget.contains(e.relatedTarget as Node | null)) void saveIfChanged()
      }}
    >
      <TextField
        label={`Gift message for ${label}`}
        optional
        multiline
        name="giftMessage"
        autoComplete="off"
        maxLength={FIELD_LIMITS.giftMessage}
        value={message}
        onChange={setMessage}
        error={errors.giftMessage}
        hint={messageHint}
      />
      <TextField
        label={`${label}’s e-mail`}
        optional={!(byEmail && message.trim() !== '')}
        type="email"
        name="recipientEmail"
        autoComplete="off"
        maxLength={FIELD_LIMITS.email}
        value={email}
        onChange={setEmail}
        error={errors.recipientEmail}
        hint={
          byEmail
            ? 'Needed for your message. We’ll tell them a gift is on its way and when it arrives, with no prices.'
            : 'We’ll tell them a gift is on its way and when it arrives, with no prices.'
        }
      />
      {via && giftMessageUnread(via, parcel) && !errors.recipientEmail ? (
        <p role="alert" className="text-sm font-semibold text-cranberry-dark">
          Your message will not reach {label}: add their e-mail, or clear the message.
        </p>
      ) : null}
      {message !== parcel.giftMessage || email !== parcel.recipientEmail ? (
        <button type="button" className={buttonClass('secondary', 'justify-self-start text-sm')} disabled={busy} onClick={() => void saveIfChanged()}>
          Save the note
        </button>
      ) : null}
    </div>
  )
}
