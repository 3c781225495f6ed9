import { Link, useRouterState } from '@tanstack/react-router'
import { useEffect, useRef, useState } from 'react'
import { Button } from '~/components/ui/Button'
import { setAnalyticsConsent } from '~/lib/analytics'
import { usePublicConfig } from '~/lib/public-config'
import { useAnalyticsConsent } from './use-analytics-consent'

/** "Not now" lasts for this tab: the question comes back on the next visit. */
const NOT_NOW_KEY = 'keepsake.consent-not-now'

/**
 * Asks once whether Keepsake may record how the shop is used. Until the shopper answers nothing is sent.
 * It sits in the page's flow under the header, so it never covers a button or a page's sticky tray
 * (the designer's and the cart's actions), and steps aside on /privacy, which asks the same question in full.
 */
export function AnalyticsConsentBar() {
  const consent = useAnalyticsConsent()
  const { sessionReplayProjectId } = usePublicConfig()
  const onPrivacyPage = useRouterState({ select: (s) => s.location.pathname === '/privacy' })
  const [notNow, setNotNow] = useState(false)
  const bar = useRef<HTMLDivElement>(null)
  useEffect(() => {
    try {
      if (sessionStorage.getItem(NOT_NOW_KEY)) setNotNow(true)
    } catch {
      // Storage refused (private mode): "not now" lasts for this page instead.
    }
  }, [])

  if (consent !== 'undecided' || notNow || onPrivacyPage) return null

  /**
   * The bar goes once answered; focus in it would fall to <body> and a keyboard shopper would start the page again
   * from the top (issue 32). It goes to the page's main content instead, where the shopper was heading.
   */
  const keepFocus = () => {
    if (!bar.current?.contains(document.activeElement)) return
    const main = document.getElementById('main')
    if (!main) return
    if (!main.hasAttribute('tabindex')) main.setAttribute('tabindex', '-1')
    main.focus({ preventScroll: true })
  }
  const answer = (choice: 'granted' | 'denied') => {
    keepFocus()
    setAnalyticsConsent(choice)
  }

  const dismiss = () => {
    keepFocus()
    try {
      sessionStorage.setItem(NOT_NOW_KEY, new Date().toISOString())
    } catch {
      // As above: hidden for this page only.
    }
    setNotNow(true)
  }

  return (
    <div
      ref={bar}
      role="region"
      aria-label="Analytics choice"
      data-testid="consent-bar"
      className="px-3 pt-3 transition duration-300 ease-out starting:-translate-y-2 starting:opacity-0 motion-reduce:transition-none sm:px-6"
    >
      <div className="relative mx-auto max-w-6xl rounded-card bg-cream-card p-4 shadow-card ring-1 ring-ink/10 sm:flex sm:items-center sm:gap-6 sm:p-5">
        <div className="min-w-0 flex-1">
          <p className="pr-10 font-semibold sm:pr-0">Help us make Keepsake better?</p>
          <p className="mt-1 text-sm leading-relaxed text-ink-soft">
            {sessionReplayProjectId
              ? 'With your OK we count page views and what you do in the shop, and record clicks and scrolling with anything you type hidden.'
              : 'With your OK we count page views and what you do in the shop.'}{' '}
            Nothing is sent until you say yes.{' '}
            <Link to="/privacy" className="-my-2.5 inline-block py-2.5 font-semibold text-cranberry-dark underline underline-offset-4 hover:text-cranberry">
              How we use your data
            </Link>
          </p>
        </div>
        <div className="mt-3 flex flex-wrap gap-2 sm:mt-0 sm:shrink-0 sm:flex-nowrap sm:pr-12">
          <Button className="flex-1 whitespace-nowrap sm:flex-none" onClick={() => answer('granted')}>
            Allow analytics
          </Button>
          <Button variant="secondary" className="flex-1 whitespace-nowrap sm:flex-none" onClick={() => answer('denied')}>
            No thanks
          </Button>
        </div>
        <button
          type="button"
          onClick={dismiss}
          aria-label="Not now"
          title="Not now"
          className="absolute right-1.5 top-1.5 flex size-11 items-center justify-center rounded-full text-ink-soft transition-colors hover:bg-ink/5 hover:text-ink sm:top-1/2 sm:right-3 sm:-translate-y-1/2"
        >
          <svg aria-hidden="true" viewBox="0 0 20 20" className="size-5" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round">
            <path d="M5 5l10 10M15 5L5 15" />
          </svg>
        </button>
      </div>
    </div>
  )
}
