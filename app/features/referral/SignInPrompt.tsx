import type { ReactNode } from 'react'
import { SignInActions, signInHint } from '~/components/ui/SignInActions'
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
  const { demoMode } = usePublicConfig()
  return (
    <StatePanel
      testId={testId}
      title={title}
      art={<ReferralArt className="w-28" />}
      action={<SignInActions redirect={redirect} demoLabel={signInLabel} onSignIn={onSignIn} />}
    >
      {children}
      <p className="mt-2">{signInHint(demoMode)}</p>
    </StatePanel>
  )
}
