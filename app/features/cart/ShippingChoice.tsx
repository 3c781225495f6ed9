import { useId } from 'react'
import { formatCents } from '~/catalogue/currency'
import { formatWeekday, shippingMethods, type ShippingMethodId } from '~/catalogue/shipping'
import { useShippingCalendar } from './ShippingPromise'

// The cart's choice of shipping, apart from ShippingPromise.tsx: the /photo-products landing paints that one's
// Christmas banner, and loaded this with it (decision 049).

/**
 * A choice of shipping: each method with its price and the day it arrives. The cart's summary uses it for the
 * shopper's own parcel (`compact` off), and each parcel to family for its own (`compact`: two side by side).
 */
export function ShippingChoice({
  options,
  chosen,
  onChoose,
  disabled,
  legend = 'Shipping',
  compact = false,
}: {
  options: { method: ShippingMethodId; priceCents: number }[]
  chosen: ShippingMethodId
  onChoose: (method: ShippingMethodId) => void
  disabled?: boolean
  legend?: string
  compact?: boolean
}) {
  const calendar = useShippingCalendar()
  const name = useId()
  return (
    <fieldset className={compact ? 'mt-3' : 'mt-4'} data-testid="shipping-choice">
      <legend className={compact ? 'text-sm font-semibold' : 'text-base font-semibold'}>{legend}</legend>
      <div className={compact ? 'mt-1 grid gap-2 sm:grid-cols-2' : 'mt-2 space-y-2'}>
        {options.map((option) => {
          const method = calendar?.methods.find((m) => m.method === option.method)
          const isChosen = chosen === option.method
          return (
            <label
              key={option.method}
              className={`flex min-h-11 cursor-pointer items-center rounded-xl border px-3 py-2 ${compact ? 'gap-2 text-sm' : 'gap-3'} ${
                isChosen ? 'border-cranberry bg-cranberry-tint/40' : compact ? 'border-ink/15 bg-cream-card' : 'border-ink/15 bg-cream'
              }`}
            >
              <input
                type="radio"
                name={name}
                value={option.method}
                checked={isChosen}
                disabled={disabled}
                onChange={() => onChoose(option.method)}
                className="size-5 accent-cranberry"
              />
              <span className="min-w-0 flex-1 leading-tight">
                <span className="block font-semibold">{shippingMethods[option.method].label}</span>
                <span className={`block text-ink-soft ${compact ? '' : 'min-h-5 text-sm'}`}>
                  {method ? `Arrives by ${formatWeekday(method.arrivesBy)}` : null}
                </span>
              </span>
              <span className="font-semibold tabular-nums">{option.priceCents === 0 ? 'Free' : formatCents(option.priceCents)}</span>
            </label>
          )
        })}
      </div>
    </fieldset>
  )
}
