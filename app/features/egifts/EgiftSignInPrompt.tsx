import type { ReactNode } from 'react'
import { buttonClass, ButtonLink } from '~/components/ui/Button'
import { StatePanel } from '~/components/ui/StatePanel'
import { usePublicConfig } from '~/lib/public-config'
import { EGIFT_CARD_ART } from './format'

/** An e-gift page for a signed-in family, seen signed out: what it is for, and sign in that comes back here. */
export function EgiftSignInPrompt({ title, children, redirect, testId }: { title: string; children: ReactNode; redirect: string; testId: string }) {
  const { demoMode, deepLinks } = usePublicConfig()
  return (
    <StatePanel
      testId={testId}
      title={title}
      art={<img src={EGIFT_CARD_ART} alt="" width={160} height={100} className="w-40 -rotate-3 rounded-xl shadow-card" />}
      action={
        demoMode ? (
          <ButtonLink to="/utils/demo-sign-in" search={{ redirect }}>
            Sign in
          </ButtonLink>
        ) : (
          <a href={deepLinks.download} className={buttonClass('primary')}>
            Open the Keepsake app
          </a>
        )
      }
    >
      {children}
      <p className="mt-2">
        {demoMode ? 'On this demo store you can sign in as a demo family.' : 'E-gifts belong to your Keepsake account: open the app, signed in, to continue.'}
      </p>
    </StatePanel>
  )
}
