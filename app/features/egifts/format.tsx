import { useEffect, useState } from 'react'
import { EGIFT_MAX_SEND_DAYS } from '~/catalogue/egift-terms'
import { formatCents, formatWholeDollars } from '~/lib/currency'

/** A gift's amount as people say it: "$50" for whole dollars (every gift is), "$7.50" otherwise. */
export const formatGiftAmount = (cents: number) => (cents % 100 === 0 ? formatWholeDollars(cents / 100) : formatCents(cents))

/** Where every gift's card art lives; the API uses the same file as the checkout line's image. */
export const EGIFT_CARD_ART = '/egifts/egift-card.svg'

const dayFormat = new Intl.DateTimeFormat('en-US', { timeZone: 'UTC', month: 'short', day: 'numeric' })
const dayYearFormat = new Intl.DateTimeFormat('en-US', { timeZone: 'UTC', month: 'short', day: 'numeric', year: 'numeric' })

/** A calendar day (YYYY-MM-DD, as `sendOn` is) as "Dec 24", with the year when it is not this year's. */
export function formatCalendarDay(day: string) {
  const date = new Date(`${day}T00:00:00Z`)
  return (date.getUTCFullYear() === new Date().getUTCFullYear() ? dayFormat : dayYearFormat).format(date)
}

/** Today in the browser's own time zone, as YYYY-MM-DD (the send date the API checks is the buyer's). */
export function todayHere(now = new Date()) {
  return new Intl.DateTimeFormat('en-CA', { year: 'numeric', month: '2-digit', day: '2-digit' }).format(now)
}

export function addDays(day: string, days: number) {
  const date = new Date(`${day}T00:00:00Z`)
  date.setUTCDate(date.getUTCDate() + days)
  return date.toISOString().slice(0, 10)
}

/** The range of days a gift can be scheduled for: today to a year ahead. */
export const sendOnRange = (today = todayHere()) => ({ min: today, max: addDays(today, EGIFT_MAX_SEND_DAYS) })

const formats = new Map<string, Intl.DateTimeFormat>()
function instantFormat(timeZone: string) {
  let format = formats.get(timeZone)
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', { timeZone, month: 'short', day: 'numeric', year: 'numeric' })
    formats.set(timeZone, format)
  }
  return format
}

/**
 * An instant as the day it fell on in the shopper's zone. The server renders it in UTC and the
 * browser redraws it in its own zone once hydrated, so the first paint and hydration agree.
 */
export function LocalDay({ iso }: { iso: string }) {
  const [zone, setZone] = useState('UTC')
  useEffect(() => setZone(Intl.DateTimeFormat().resolvedOptions().timeZone), [])
  return <time dateTime={iso}>{instantFormat(zone).format(new Date(iso))}</time>
}

/** "gran@example.com" → "gr…@example.com": enough to recognise on a shared screen. */
export function maskEmail(email: string) {
  const [local, domain] = email.split('@')
  if (!local || !domain) return email
  return `${local.slice(0, Math.min(2, local.length))}…@${domain}`
}
