import { useQuery, type QueryKey, type UseQueryOptions } from '@tanstack/react-query'
import { useEffect, useRef, useState } from 'react'
import type { ApiOutcome } from './api-outcome'

/** A return page asks again this often while a payment (or its e-mail) is on its way, for at most this long. */
export const FOLLOW_EVERY_MS = 1500
export const FOLLOW_FOR_MS = 30_000

/**
 * Follows an API answer while `pending(data)` says it is still on its way: asks again every 1.5 s,
 * for at most 30 s from when the page opened, then says so (`gaveUp`) so the page can stop showing
 * a spinner and tell the shopper what to do instead. A settled answer stops the asking at once.
 */
export function useFollow<T, K extends QueryKey>(options: UseQueryOptions<ApiOutcome<T>, Error, ApiOutcome<T>, K>, pending: (data: T) => boolean) {
  const startedAt = useRef(Date.now())
  const [gaveUp, setGaveUp] = useState(false)
  const query = useQuery({
    ...options,
    refetchInterval: (q) => {
      const outcome = q.state.data
      if (!outcome?.ok || !pending(outcome.data)) return false
      return Date.now() - startedAt.current < FOLLOW_FOR_MS ? FOLLOW_EVERY_MS : false
    },
  })
  const stillPending = Boolean(query.data?.ok && pending(query.data.data))
  useEffect(() => {
    if (!stillPending) return
    const timer = window.setTimeout(() => setGaveUp(true), Math.max(0, FOLLOW_FOR_MS - (Date.now() - startedAt.current)))
    return () => window.clearTimeout(timer)
  }, [stillPending])
  return { query, gaveUp }
}
