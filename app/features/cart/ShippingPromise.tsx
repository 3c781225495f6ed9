import { useQuery } from '@tanstack/react-query'
import { useId } from 'react'
import { formatCents } from '~/catalogue/currency'
import { formatWeekday, shippingMethods, type ShippingMethodId } from '~/catalogue/shipping'
import { shippingCalendarQuery } from './shipping.functions'

/** The calendar when it has loaded; a page without it simply shows no dates (they are a promise, not a requirement to buy). */
const useShippingCalendar = () => useQuery(shippingCalendarQuery()).data

/** "standard", "express": the method's name from the shipping table, inside a sentence. */
const nameOf = (method: ShippingMethodId) => shippingMethods[method].label.toLowerCase()

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

/**
 * From Nov 1 to Christmas Eve: the last day to order by each method for delivery by Christmas, and,
 * once a method's day has passed, plainly that it now arrives after Christmas.
 */
export function ChristmasDeliveryBanner({ className = '' }: { className?: string }) {
  const calendar = useShippingCalendar()
  const christmas = calendar?.christmas
  if (!calendar || !christmas) return null
  const inTime = christmas.deadlines.filter((d) => d.inTime)
  const late = christmas.deadlines.filter((d) => !d.inTime)
  const tone = inTime.length > 0 ? 'bg-pine-tint text-pine-dark' : 'bg-gold-tint text-ink'
  return (
    <aside aria-label="Christmas delivery" className={`flex items-start gap-3 rounded-card px-4 py-3 ${tone} ${className}`} data-testid="christmas-delivery">
      <span aria-hidden="true" className="mt-0.5 text-lg leading-none">
        ✦
      </span>
      <p>
        {inTime.length > 0 ? (
          <>
            <strong>For delivery by Christmas,</strong> order by{' '}
            {inTime.map((d, i) => (
              <span key={d.method}>
                {i > 0 ? ', or by ' : null}
                <strong>{formatWeekday(d.lastOrderDay)}</strong> with {nameOf(d.method)} shipping
              </span>
            ))}
            .{late.length > 0 ? ` ${late.map((d) => shippingMethods[d.method].label).join(' and ')} shipping now arrives after Christmas.` : null}
          </>
        ) : (
          <>
            <strong>Orders placed now arrive after Christmas.</strong> The last day to order for Christmas delivery was{' '}
            {formatWeekday(christmas.deadlines[christmas.deadlines.length - 1]!.lastOrderDay)}.
          </>
        )}
      </p>
    </aside>
  )
}

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
