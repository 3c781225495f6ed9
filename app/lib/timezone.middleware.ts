import { createMiddleware } from '@tanstack/react-start'
import { isValidTimeZone } from '../contract/headers'

/** Carries the shopper's IANA timezone from the browser to server functions, for the album API's timezone header. */
export const timezoneMiddleware = createMiddleware({ type: 'function' })
  .client(({ next }) => next({ sendContext: { timezone: Intl.DateTimeFormat().resolvedOptions().timeZone } }))
  .server(({ next, context }) => {
    const sent = (context as { timezone?: unknown }).timezone
    return next({ context: { timezone: typeof sent === 'string' && isValidTimeZone(sent) ? sent : 'UTC' } })
  })
