import { useEffect, useState } from 'react'
import { formatCents, formatWholeDollars } from '~/lib/currency'

/** An offer's amount as people say it: "$10" for whole dollars, "$7.50" otherwise. */
export const formatOffer = (cents: number) => (cents % 100 === 0 ? formatWholeDollars(cents / 100) : formatCents(cents))

const dateFormats = new Map<string, Intl.DateTimeFormat>()
function dateFormat(timeZone: string, year: boolean) {
  const key = `${timeZone}|${year}`
  let format = dateFormats.get(key)
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', { timeZone, month: 'short', day: 'numeric', ...(year ? { year: 'numeric' } : {}) })
    dateFormats.set(key, format)
  }
  return format
}

/** "Jan 22, 2027" in the given zone. */
export const formatDay = (iso: string, timeZone = 'UTC', { year = true } = {}) => dateFormat(timeZone, year).format(new Date(iso))

/**
 * A date in the shopper's own zone. The server renders it in UTC, and the browser redraws it in its
 * zone once hydrated, so the first paint and hydration agree.
 */
export function LocalDate({ iso, year = true, timeZone }: { iso: string; year?: boolean; timeZone?: string }) {
  const [zone, setZone] = useState(timeZone ?? 'UTC')
  useEffect(() => {
    if (!timeZone) setZone(Intl.DateTimeFormat().resolvedOptions().timeZone)
  }, [timeZone])
  return <time dateTime={iso}>{formatDay(iso, zone, { year })}</time>
}
