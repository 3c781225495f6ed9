import { useLoaderData } from '@tanstack/react-router'
import { useSyncExternalStore } from 'react'
import { getAnalyticsConsent, subscribeAnalyticsConsent, type AnalyticsConsent } from '~/lib/analytics'

/**
 * The shopper's analytics answer, shared by the consent bar and the privacy page. The server rendered the page
 * with the cookie's value; the tab's own answer takes over once analytics has started or the shopper chose.
 */
export function useAnalyticsConsent(): AnalyticsConsent {
  const rendered = useLoaderData({ from: '__root__' }).analyticsConsent
  return useSyncExternalStore(
    subscribeAnalyticsConsent,
    () => getAnalyticsConsent() ?? rendered,
    () => rendered,
  )
}
