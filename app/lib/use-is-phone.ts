import { useSyncExternalStore } from 'react'

const PHONE = /Android|iPhone|iPad|iPod|Mobile/i
const noChange = () => () => {}

/**
 * True once the page has hydrated in the browser; false while rendering on the server and during hydration, so
 * what depends on it renders the server's way first and is then rendered again (not kept from the server's HTML).
 */
export function useInBrowser() {
  return useSyncExternalStore(
    noChange,
    () => true,
    () => false,
  )
}

/**
 * Whether the page runs on a phone or tablet (where the Keepsake app can open it), read from the
 * browser once hydrated; false while rendering on the server.
 */
export function useIsPhone() {
  return useInBrowser() && PHONE.test(navigator.userAgent)
}
