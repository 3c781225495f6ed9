import { arrivesBy, christmasDelivery, isoDay, localDay, shippingMethodIds, shippingMethods } from '../../catalogue/shipping'
import type { ShippingCalendar } from '../../contract/shipping'
import { giftMessageVia } from '../../catalogue/gift-messages'

/**
 * Every shipping method with the day an order placed at `now` arrives for a shopper in `timeZone`, the Christmas
 * deadlines, and how a gift message reaches its recipient with the print provider in use.
 */
export function shippingCalendar(now: Date, timeZone: string, printProvider: 'local' | 'printify'): ShippingCalendar {
  return {
    today: isoDay(localDay(now, timeZone)),
    methods: shippingMethodIds.map((method) => {
      const { label, priceCents, freeFromCents } = shippingMethods[method]
      return { method, label, priceCents, freeFromCents, arrivesBy: arrivesBy(method, now, timeZone) }
    }),
    christmas: christmasDelivery(now, timeZone),
    giftMessageVia: giftMessageVia(printProvider),
  }
}
