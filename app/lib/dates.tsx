import { useEffect, useState } from 'react'

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

const teamTimeFormat = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeStyle: 'short', timeZone: 'UTC' })
/** "Nov 22, 2026, 3:04 PM UTC": the team tools' times, in UTC so the server's render and the browser's agree. */
export const formatTeamTime = (iso: string) => `${teamTimeFormat.format(new Date(iso))} UTC`

/** "Jan 22, 2027" (or "Jan 22" without the year) in the given zone. */
export const formatDay = (iso: string, timeZone = 'UTC', { year = true } = {}) => dateFormat(timeZone, year).format(new Date(iso))

/** A calendar day (YYYY-MM-DD) as "Dec 24", with the year when it is not this year's. */
export function formatCalendarDay(day: string) {
  const date = new Date(`${day}T00:00:00Z`)
  return dateFormat('UTC', date.getUTCFullYear() !== new Date().getUTCFullYear()).format(date)
}

/** Today in the browser's own time zone, as YYYY-MM-DD. */
export function todayHere(now = new Date()) {
  return new Intl.DateTimeFormat('en-CA', { year: 'numeric', month: '2-digit', day: '2-digit' }).format(now)
}

export function addDays(day: string, days: number) {
  const date = new Date(`${day}T00:00:00Z`)
  date.setUTCDate(date.getUTCDate() + days)
  return date.toISOString().slice(0, 10)
}

/**
 * An instant as the day it fell on in the shopper's own zone. The server renders it in UTC and the
 * browser redraws it in its zone once hydrated, so the first paint and hydration agree.
 */
export function LocalDate({ iso, year = true, timeZone }: { iso: string; year?: boolean; timeZone?: string }) {
  const [zone, setZone] = useState(timeZone ?? 'UTC')
  useEffect(() => {
    if (!timeZone) setZone(Intl.DateTimeFormat().resolvedOptions().timeZone)
  }, [timeZone])
  return <time dateTime={iso}>{formatDay(iso, zone, { year })}</time>
}
