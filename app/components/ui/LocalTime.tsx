import { useInBrowser } from '~/lib/use-is-phone'

/**
 * A moment in the shopper's own time zone. The server knows none, so its HTML says the time in UTC, and says so;
 * once hydrated the browser renders it again in its own zone. (A `suppressHydrationWarning` <time> kept the
 * server's UTC text: "Last edited 1:39 PM" for an 8:39 AM edit in New York, issue 32.)
 */
export function LocalTime({ iso, format, className }: { iso: string; format: Intl.DateTimeFormatOptions; className?: string }) {
  const inBrowser = useInBrowser()
  const date = new Date(iso)
  const text = inBrowser
    ? new Intl.DateTimeFormat('en-US', format).format(date)
    : new Intl.DateTimeFormat('en-US', { ...format, timeZone: 'UTC' }).format(date) + (format.timeStyle || format.hour ? ' UTC' : '')
  return (
    <time dateTime={iso} className={className}>
      {text}
    </time>
  )
}

/** "Nov 27, 8:39 AM": when a share was sent or answered. */
export const WHEN: Intl.DateTimeFormatOptions = { month: 'short', day: 'numeric', hour: 'numeric', minute: '2-digit' }
