import type { ReactNode } from 'react'
import { buttonClass, ButtonLink } from '~/components/ui/Button'
import { StatePanel } from '~/components/ui/StatePanel'
import { usePublicConfig } from '~/lib/public-config'
import { ReferralArt } from './ReferralArt'

/** A referral page for a signed-in family, seen signed out: what it holds and how to sign in, coming back here after. */
export function SignInPrompt({
  title,
  children,
  redirect,
  signInLabel = 'Sign in',
  onSignIn,
  testId = 'referral-signed-out',
}: {
  title: string
  children: ReactNode
  /** This page's path, to return to once signed in. */
  redirect: string
  signInLabel?: string
  onSignIn?: () => void
  testId?: string
}) {
  const { demoMode, deepLinks } = usePublicConfig()
  return (
    <StatePanel
      testId={testId}
      title={title}
      art={<ReferralArt className="w-28" />}
      action={
        demoMode ? (
          <ButtonLink to="/utils/demo-sign-in" search={{ redirect }} onClick={onSignIn}>
            {signInLabel}
          </ButtonLink>
        ) : (
          <a href={deepLinks.download} className={buttonClass('primary')} onClick={onSignIn}>
            Open the Keepsake app
          </a>
        )
      }
    >
      {children}
      <p className="mt-2">
        {demoMode ? 'On this demo store you can sign in as a demo family.' : 'Your referrals live with your Keepsake account: open the app, signed in, to see them.'}
      </p>
    </StatePanel>
  )
}
