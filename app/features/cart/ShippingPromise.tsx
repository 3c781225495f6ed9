import { useQuery } from '@tanstack/react-query'
import { formatWeekday, shippingMethods, type ShippingMethodId } from '~/catalogue/shipping'
import { shippingCalendarQuery } from './shipping.functions'

/** The calendar when it has loaded; a page without it simply shows no dates (they are a promise, not a requirement to buy). */
export const useShippingCalendar = () => useQuery(shippingCalendarQuery()).data

/** "standard", "express": the method's name from the shipping table, inside a sentence. */
export const nameOf = (method: ShippingMethodId) => shippingMethods[method].label.toLowerCase()

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
