import { useSyncExternalStore } from 'react'

const PHONE = /Android|iPhone|iPad|iPod|Mobile/i
const noChange = () => () => {}

/**
 * Whether the page runs on a phone or tablet (where the Keepsake app can open it), read from the
 * browser once hydrated; false while rendering on the server.
 */
export function useIsPhone() {
  return useSyncExternalStore(
    noChange,
    () => PHONE.test(navigator.userAgent),
    () => false,
  )
}
