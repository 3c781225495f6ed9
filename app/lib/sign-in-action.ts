import { useCallback } from 'react'
import type { Note } from './toast'
import { usePublicConfig } from './public-config'

/**
 * The action that fixes a refusal for a signed-out shopper (issue 15, bug 14): "Sign in", coming back
 * to this page, where Retry could not help. Demo sign-in in demo mode; otherwise the e-mailed
 * sign-in link (issue 16).
 */
export function useSignInAction() {
  const { demoMode } = usePublicConfig()
  return useCallback(
    (failure: { status: number }): Note['action'] | undefined => {
      if (failure.status !== 401) return undefined
      return {
        label: 'Sign in',
        onClick: () => {
          const here = `${window.location.pathname}${window.location.search}${window.location.hash}`
          window.location.assign(`${demoMode ? '/utils/demo-sign-in' : '/auth/sign-in'}?redirect=${encodeURIComponent(here)}`)
        },
      }
    },
    [demoMode],
  )
}
