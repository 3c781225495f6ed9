import { useSyncExternalStore } from 'react'

const subscribe = (onChange: () => void) => {
  window.addEventListener('hashchange', onChange)
  return () => window.removeEventListener('hashchange', onChange)
}

/**
 * The address's #fragment ("#order-KS-…"), which the server never sees: '' while the page hydrates, then the
 * browser's, so a link built from it is the same on both sides at first and right once hydrated.
 */
export function useHash(): string {
  return useSyncExternalStore(
    subscribe,
    () => window.location.hash,
    () => '',
  )
}
