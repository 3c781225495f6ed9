import type { ReactNode } from 'react'
import { SignInActions, signInHint } from '~/components/ui/SignInActions'
import { StatePanel } from '~/components/ui/StatePanel'
import { usePublicConfig } from '~/lib/public-config'
import { EGIFT_CARD_ART } from './gift-card'

/** An e-gift page for a signed-in family, seen signed out: what it is for, and sign in that comes back here. */
export function EgiftSignInPrompt({ title, children, redirect, testId }: { title: string; children: ReactNode; redirect: string; testId: string }) {
  const { demoMode } = usePublicConfig()
  return (
    <StatePanel
      testId={testId}
      title={title}
      art={<img src={EGIFT_CARD_ART} alt="" width={160} height={100} className="w-40 -rotate-3 rounded-xl shadow-card" />}
      action={<SignInActions redirect={redirect} demoLabel="Sign in" />}
    >
      {children}
      <p className="mt-2">{signInHint(demoMode)}</p>
    </StatePanel>
  )
}
