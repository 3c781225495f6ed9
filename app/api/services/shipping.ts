import { arrivesBy, christmasDelivery, isoDay, localDay, shippingMethodIds, shippingMethods } from '../../catalogue/shipping'
import type { ShippingCalendar } from '../../contract/shipping'

/** Every shipping method with the day an order placed at `now` arrives for a shopper in `timeZone`, and the Christmas deadlines. */
export function shippingCalendar(now: Date, timeZone: string): ShippingCalendar {
  return {
    today: isoDay(localDay(now, timeZone)),
    methods: shippingMethodIds.map((method) => {
      const { label, priceCents, freeFromCents } = shippingMethods[method]
      return { method, label, priceCents, freeFromCents, arrivesBy: arrivesBy(method, now, timeZone) }
    }),
    christmas: christmasDelivery(now, timeZone),
  }
}
