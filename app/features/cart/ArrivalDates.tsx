import { formatWeekday, shippingMethods, type ShippingMethodId } from '~/catalogue/shipping'
import { nameOf, useShippingCalendar } from './ShippingPromise'

// The product page's and the checkout's arrival dates, apart from ShippingPromise.tsx: the /photo-products landing
// paints that one's Christmas banner only, and loaded these with it (decision 049).

function TruckIcon() {
  return (
    <svg viewBox="0 0 24 24" className="mt-0.5 size-5 shrink-0" aria-hidden="true">
      <path
        d="M3 6.5h11v9H3zM14 9.5h3.6l3.4 3.6v2.4h-7zM7 18.5a1.8 1.8 0 1 0 0-.01M17.5 18.5a1.8 1.8 0 1 0 0-.01"
        fill="none"
        stroke="currentColor"
        strokeWidth="1.7"
        strokeLinejoin="round"
      />
    </svg>
  )
}

/** On the product page: when a pair ordered today arrives, by each method. */
export function ArrivesBy() {
  const calendar = useShippingCalendar()
  return (
    <p className="flex min-h-11 items-start gap-2 text-sm text-ink-soft" data-testid="arrives-by">
      {calendar ? (
        <>
          <TruckIcon />
          <span>
            {calendar.methods.map((m, i) => (
              <span key={m.method}>
                {i === 0 ? 'Arrives by ' : ', or by '}
                <strong className="font-semibold text-ink">{formatWeekday(m.arrivesBy)}</strong> with {nameOf(m.method)} shipping
              </span>
            ))}
            .
          </span>
        </>
      ) : null}
    </p>
  )
}

/** Where a checkout or an order names its promise: "Express shipping · arrives by Fri, Nov 27". */
export function PromisedArrival({ arrivesBy, method, className = '' }: { arrivesBy: string | null; method: ShippingMethodId; className?: string }) {
  if (!arrivesBy) return null
  return (
    <p className={`flex items-start gap-2 text-sm ${className}`} data-testid="promised-arrival">
      <TruckIcon />
      <span>
        {shippingMethods[method].label} shipping · arrives by <strong className="font-semibold">{formatWeekday(arrivesBy)}</strong>
      </span>
    </p>
  )
}
