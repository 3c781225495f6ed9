import { formatCents } from '~/catalogue/currency'
import { giftMessageVia } from '~/catalogue/gift-messages'
import { OWN_PARCEL } from '~/catalogue/pricing'
import { taxLineLabel } from '~/catalogue/sales-tax'
import { formatWeekday, shippingMethods } from '~/catalogue/shipping'
import { trackingLinkFor } from '~/catalogue/tracking'
import { PostalAddress } from '~/components/ui/AddressFields'
import type { Order, OrderParcel, OrderStatus } from '~/contract/cart'

const parcelStatus: Record<OrderStatus, string> = {
  paid: 'Paid',
  submission_failed: 'Paid — we’re sorting out a problem with the printer',
  submitted: 'At the printer',
  in_production: 'Being printed',
  shipped: 'Shipped',
  canceled: 'Canceled by the printer',
  refunded: 'Refunded',
}

/**
 * Where the order goes (the receipt and the order page): each parcel's address, what it holds, its shipping, tax,
 * status and tracking, its gift message and its packing slip (the local shop's; with Printify, where the message
 * went instead). One parcel is shown as a plain "Shipping to".
 */
export function OrderParcels({ order, headingLevel = 3 }: { order: Order; headingLevel?: 2 | 3 }) {
  const several = order.parcels.length > 1
  // Printify prints no packing slip of ours: a gift message goes only in the e-mail to the recipient (decision 070).
  const byEmail = giftMessageVia(order.provider) === 'recipient_email'
  const Heading = `h${headingLevel}` as const
  return (
    <div data-testid="parcels">
      <Heading className={headingLevel === 2 ? 'text-xl font-bold' : 'font-semibold'}>
        {several ? `Shipping in ${order.parcels.length} parcels` : 'Shipping to'}
      </Heading>
      <ul className="mt-2 space-y-4">
        {order.parcels.map((parcel) => {
          const address = parcel.shippingAddress ?? order.shippingAddress
          const money = order.totals.parcels.find((p) => p.key === (parcel.addressId ?? OWN_PARCEL))
          const tax = money ? taxLineLabel(money) : null
          return (
            <li key={parcel.id} data-testid="parcel" className={several ? 'rounded-xl border border-ink/10 px-3 py-2' : undefined}>
              {several ? (
                <p className="text-sm font-semibold">
                  Parcel {parcel.position}
                  {parcel.label ? ` · to ${parcel.label}` : ' · to you'} · {parcelStatus[parcel.status]}
                </p>
              ) : null}
              {address ? <PostalAddress address={address} className="not-italic leading-relaxed text-ink-soft" /> : null}
              {several ? (
                <ul className="mt-1 text-sm">
                  {parcel.items.map((item) => (
                    <li key={item.cartItemId}>
                      {item.quantity} × {order.lines.find((l) => l.cartItemId === item.cartItemId)?.title ?? 'Ornament'}
                    </li>
                  ))}
                </ul>
              ) : null}
              {several ? (
                <p className="mt-1 text-sm text-ink-soft" data-testid="parcel-money">
                  {shippingMethods[parcel.shippingMethod].label} shipping
                  {parcel.arrivesBy ? `, arrives by ${formatWeekday(parcel.arrivesBy)}` : ''}
                  {money ? ` · ${money.shippingCents === 0 ? 'free' : formatCents(money.shippingCents)}` : ''}
                  {money && tax ? ` · ${tax} ${formatCents(money.taxCents)}` : ''}
                </p>
              ) : null}
              {several ? <ParcelTracking parcel={parcel} className="text-sm text-ink-soft" /> : null}
              {parcel.giftMessage ? <p className="mt-1 whitespace-pre-line text-sm italic text-ink">“{parcel.giftMessage}”</p> : null}
              {byEmail && parcel.giftMessage ? (
                <p className="text-sm text-ink-soft" data-testid="gift-message-route">
                  {parcel.recipientEmail
                    ? `E-mailed to ${parcel.recipientEmail} when the parcel ships (it is not printed in the box).`
                    : `Not sent: we had no e-mail for ${parcel.label ?? 'the recipient'}, and Printify does not print messages in the box.`}
                </p>
              ) : null}
              {byEmail ? null : (
                <a
                  href={`/v1/photo-products-orders/${order.id}/parcels/${parcel.id}/packing-slip`}
                  target="_blank"
                  rel="noopener"
                  className="inline-flex min-h-11 items-center text-sm font-semibold text-cranberry-dark underline-offset-4 hover:underline"
                >
                  Packing slip{several ? ` for parcel ${parcel.position}` : ''}
                  <span className="sr-only"> (opens in a new tab)</span>
                </a>
              )}
            </li>
          )
        })}
      </ul>
    </div>
  )
}

/**
 * A parcel's shipments: "1 of 2 shipped" while part of it has, and every box's tracking (one line for one box, as
 * before; a list when it left in several).
 */
export function ParcelTracking({ parcel, className, label = 'Tracking' }: { parcel: OrderParcel; className?: string; label?: string }) {
  const tracked = parcel.shipments.filter((s): s is typeof s & { trackingNumber: string } => s.trackingNumber !== null)
  if (!parcel.shippingProgress && tracked.length === 0) return null
  return (
    <div className={className} data-testid="parcel-tracking">
      {parcel.shippingProgress ? (
        <p className="font-semibold text-ink" data-testid="shipping-progress">
          {parcel.shippingProgress}
        </p>
      ) : null}
      {tracked.length === 1 ? (
        <p>
          {label} <TrackingNumber number={tracked[0]!.trackingNumber} url={tracked[0]!.trackingUrl} />
        </p>
      ) : tracked.length > 1 ? (
        <ul aria-label="Tracking numbers">
          {tracked.map((s, i) => (
            <li key={s.position}>
              Box {i + 1}: <TrackingNumber number={s.trackingNumber} url={s.trackingUrl} />
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  )
}

/** A tracking number, linked where the shipping e-mail links it (the provider's URL, or the carrier's page for a number we know). */
export function TrackingNumber({ number, url }: { number: string; url: string | null }) {
  const link = trackingLinkFor(number, url)
  if (!link) return <span className="font-mono font-semibold text-ink">{number}</span>
  return (
    <a href={link} className="font-mono font-semibold text-cranberry-dark underline" target="_blank" rel="noreferrer" data-testid="tracking-link">
      {number}
      <span className="sr-only"> (opens the carrier’s tracking page in a new tab)</span>
    </a>
  )
}
