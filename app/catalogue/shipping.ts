/**
 * Shipping methods and "arrives by" dates. One typed table of methods; one calendar of business days
 * (weekends and US federal holidays, as the print provider and the carriers keep them). The server
 * computes every date the shopper sees with these (the shipping endpoint, the checkout, the order);
 * the client only formats what the server answered.
 *
 * Dates here are calendar days, written `YYYY-MM-DD` and held as UTC midnights for arithmetic: an
 * arrival date has no time of day and no time zone. The shopper's time zone decides only which day an
 * order is placed on.
 */

/** Standard shipping's price, in cents. */
export const SHIPPING_CENTS = 599
/** Orders whose goods (at sale price, after bundle savings) reach this ship free by standard shipping. */
export const FREE_SHIPPING_THRESHOLD_CENTS = 5000

export const shippingMethodIds = ['standard', 'express'] as const
export type ShippingMethodId = (typeof shippingMethodIds)[number]

export type ShippingMethod = {
  id: ShippingMethodId
  label: string
  /** Business days the print shop takes, counted from the first business day after the order. */
  productionDays: number
  /** Business days the carrier takes after production. */
  transitDays: number
  priceCents: number
  /** Goods (after sale prices and bundle savings) at or above this ship free by this method; null: never free. */
  freeFromCents: number | null
}

export const shippingMethods: Record<ShippingMethodId, ShippingMethod> = {
  standard: { id: 'standard', label: 'Standard', productionDays: 3, transitDays: 5, priceCents: SHIPPING_CENTS, freeFromCents: FREE_SHIPPING_THRESHOLD_CENTS },
  express: { id: 'express', label: 'Express', productionDays: 2, transitDays: 2, priceCents: 1499, freeFromCents: null },
}

export const DEFAULT_SHIPPING_METHOD: ShippingMethodId = 'standard'

export const isShippingMethodId = (value: unknown): value is ShippingMethodId => shippingMethodIds.includes(value as ShippingMethodId)

/**
 * What a method costs for a cart whose goods come to `goodsCents` (nothing for an empty cart): `quotedCents` when the
 * print provider quoted the parcel (decision 072), else the table's price; free from the method's threshold either way.
 */
export function shippingPriceCents(method: ShippingMethodId, goodsCents: number, itemCount: number, quotedCents?: number): number {
  const { freeFromCents } = shippingMethods[method]
  const priceCents = quotedCents ?? shippingMethods[method].priceCents
  if (itemCount === 0) return 0
  return freeFromCents !== null && goodsCents >= freeFromCents ? 0 : priceCents
}

// --- calendar days ------------------------------------------------------------------------------------

const DAY_MS = 86_400_000

/** A calendar day as a UTC midnight. */
const day = (year: number, month: number, date: number) => new Date(Date.UTC(year, month - 1, date))
export const isoDay = (d: Date) => d.toISOString().slice(0, 10)
export const parseIsoDay = (value: string) => {
  const [y, m, d] = value.split('-').map(Number) as [number, number, number]
  return day(y, m, d)
}
const addDays = (d: Date, n: number) => new Date(d.getTime() + n * DAY_MS)

/** The calendar day it is at `instant` for someone in `timeZone` (an IANA name; unknown names read as UTC). */
export function localDay(instant: Date, timeZone: string): Date {
  let parts: Intl.DateTimeFormatPart[]
  try {
    parts = new Intl.DateTimeFormat('en-US', { timeZone, year: 'numeric', month: 'numeric', day: 'numeric' }).formatToParts(instant)
  } catch {
    parts = new Intl.DateTimeFormat('en-US', { timeZone: 'UTC', year: 'numeric', month: 'numeric', day: 'numeric' }).formatToParts(instant)
  }
  const value = (type: string) => Number(parts.find((p) => p.type === type)!.value)
  return day(value('year'), value('month'), value('day'))
}

/** The nth given weekday (0 Sunday … 6 Saturday) of a month; n = -1 is the last. */
function nthWeekday(year: number, month: number, weekday: number, n: number): Date {
  if (n > 0) {
    const first = day(year, month, 1)
    return addDays(first, ((weekday - first.getUTCDay() + 7) % 7) + (n - 1) * 7)
  }
  const last = day(year, month + 1, 0)
  return addDays(last, -((last.getUTCDay() - weekday + 7) % 7))
}

/** A fixed-date holiday on a Saturday is kept on the Friday before, on a Sunday on the Monday after. */
function observed(d: Date): Date {
  const weekday = d.getUTCDay()
  return weekday === 6 ? addDays(d, -1) : weekday === 0 ? addDays(d, 1) : d
}

const holidayCache = new Map<number, Set<string>>()

/** The US federal holidays observed in a year (5 U.S.C. 6103), as `YYYY-MM-DD`. */
export function usHolidays(year: number): Set<string> {
  let holidays = holidayCache.get(year)
  if (!holidays) {
    holidays = new Set(
      [
        observed(day(year, 1, 1)), // New Year's Day
        nthWeekday(year, 1, 1, 3), // Birthday of Martin Luther King, Jr.
        nthWeekday(year, 2, 1, 3), // Washington's Birthday
        nthWeekday(year, 5, 1, -1), // Memorial Day
        observed(day(year, 6, 19)), // Juneteenth
        observed(day(year, 7, 4)), // Independence Day
        nthWeekday(year, 9, 1, 1), // Labor Day
        nthWeekday(year, 10, 1, 2), // Columbus Day
        observed(day(year, 11, 11)), // Veterans Day
        nthWeekday(year, 11, 4, 4), // Thanksgiving Day
        observed(day(year, 12, 25)), // Christmas Day
      ].map(isoDay),
    )
    // New Year's Day on a Saturday is observed on Dec 31 of the year before.
    if (day(year + 1, 1, 1).getUTCDay() === 6) holidays.add(`${year}-12-31`)
    holidayCache.set(year, holidays)
  }
  return holidays
}

export function isBusinessDay(d: Date): boolean {
  const weekday = d.getUTCDay()
  return weekday !== 0 && weekday !== 6 && !usHolidays(d.getUTCFullYear()).has(isoDay(d))
}

/** The day `n` business days after `from` (the day itself never counts). */
export function addBusinessDays(from: Date, n: number): Date {
  let d = from
  for (let left = n; left > 0;) {
    d = addDays(d, 1)
    if (isBusinessDay(d)) left--
  }
  return d
}

/** Business days from the order to the door by this method: production, then transit. */
export const businessDaysOf = (method: ShippingMethodId) => shippingMethods[method].productionDays + shippingMethods[method].transitDays

/** The day an order placed on `orderDay` arrives by this method. */
export function arrivalDay(method: ShippingMethodId, orderDay: Date): Date {
  return addBusinessDays(orderDay, businessDaysOf(method))
}

/** "Arrives by" for an order placed at `now` by a shopper in `timeZone`, as `YYYY-MM-DD`. */
export function arrivesBy(method: ShippingMethodId, now: Date, timeZone: string): string {
  return isoDay(arrivalDay(method, localDay(now, timeZone)))
}

// --- Christmas ----------------------------------------------------------------------------------------

/** The banner shows from this day of the year (late autumn) until Christmas Eve. */
export const CHRISTMAS_BANNER_FROM = { month: 11, day: 1 }

export type ChristmasDeadline = {
  method: ShippingMethodId
  /** The last day (in the shopper's time zone) an order by this method arrives by Christmas Eve. */
  lastOrderDay: string
  /** Whether an order placed today still does. */
  inTime: boolean
}

export type ChristmasDelivery = { year: number; deadlines: ChristmasDeadline[] }

/** The last day to order by each method for delivery by Christmas Eve, or null outside the season (Nov 1 – Dec 24). */
export function christmasDelivery(now: Date, timeZone: string): ChristmasDelivery | null {
  const today = localDay(now, timeZone)
  const year = today.getUTCFullYear()
  const christmasEve = day(year, 12, 24)
  if (today < day(year, CHRISTMAS_BANNER_FROM.month, CHRISTMAS_BANNER_FROM.day) || today > christmasEve) return null
  const deadlines = shippingMethodIds.map((method) => {
    let last = christmasEve
    while (arrivalDay(method, last) > christmasEve) last = addDays(last, -1)
    return { method, lastOrderDay: isoDay(last), inTime: today <= last }
  })
  return { year, deadlines }
}

const weekdayFormat = new Intl.DateTimeFormat('en-US', { timeZone: 'UTC', weekday: 'short', month: 'short', day: 'numeric' })
/** A calendar day (YYYY-MM-DD) with its weekday: "Tue, Dec 22" (an arrival date, the last day to order). */
export const formatWeekday = (day: string) => weekdayFormat.format(new Date(`${day}T00:00:00Z`))
