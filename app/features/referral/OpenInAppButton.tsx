import { useState } from 'react'
import { Button } from '~/components/ui/Button'
import { usePublicConfig } from '~/lib/public-config'
import { notify } from '~/lib/toast'
import { getTransitionToken } from './referral.functions'
import { logAction } from './user-actions'

/**
 * Opens the Keepsake app signed in as this family. The transition token is short-lived, so it is
 * fetched on the tap itself, never ahead of time.
 */
export function OpenInAppButton({ from, className = '' }: { from: string; className?: string }) {
  const { deepLinks } = usePublicConfig()
  const [opening, setOpening] = useState(false)
  const open = async () => {
    if (opening) return
    setOpening(true)
    try {
      const { transitionToken } = await getTransitionToken()
      logAction('general', 'opened_app_link', { from })
      const url = new URL(deepLinks.celebrateAutoLogin)
      url.searchParams.set('transitionToken', transitionToken)
      window.location.assign(url.toString())
    } catch (error) {
      notify.error(`We couldn’t open the app: ${error instanceof Error ? error.message : 'Unknown error'}`)
    } finally {
      setOpening(false)
    }
  }
  return (
    <Button variant="secondary" onClick={() => void open()} disabled={opening} className={className}>
      <svg viewBox="0 0 20 20" className="size-5 shrink-0" aria-hidden="true">
        <rect x="5" y="2" width="10" height="16" rx="2.5" fill="none" stroke="currentColor" strokeWidth="1.8" />
        <path d="M9 15h2" stroke="currentColor" strokeWidth="1.8" strokeLinecap="round" />
      </svg>
      {opening ? 'Opening the app…' : 'Open in the Keepsake app'}
    </Button>
  )
}
