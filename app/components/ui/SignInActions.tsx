import { lazy, Suspense } from 'react'
import { usePublicConfig } from '~/lib/public-config'
import { useIsPhone } from '~/lib/use-is-phone'
import { buttonClass, ButtonLink } from './Button'

/**
 * Every way to sign in, coming back to `redirect` after (issue 16): "Open in the app" on a phone,
 * "E-mail me a sign-in link" everywhere, and the demo families only on the demo store.
 */
/** Shown on phones only, after hydration: loaded then, not with the landings' first load (decision 049). */
const OpenInAppLink = lazy(() => import('./OpenInAppLink').then((m) => ({ default: m.OpenInAppLink })))

export function SignInActions({
  redirect,
  demoLabel = 'Sign in as a demo family',
  onSignIn,
  className = '',
}: {
  /** The page to return to once signed in (a path on this site). */
  redirect: string
  demoLabel?: string
  onSignIn?: () => void
  className?: string
}) {
  const { demoMode } = usePublicConfig()
  const phone = useIsPhone()
  return (
    <>
      {demoMode ? (
        <ButtonLink to="/utils/demo-sign-in" search={{ redirect }} onClick={onSignIn} className={className}>
          {demoLabel}
        </ButtonLink>
      ) : null}
      <ButtonLink to="/auth/sign-in" search={{ redirect }} variant={demoMode ? 'secondary' : 'primary'} onClick={onSignIn} className={className}>
        E-mail me a sign-in link
      </ButtonLink>
      {phone ? (
        <Suspense fallback={null}>
          <OpenInAppLink path={redirect} className={buttonClass('secondary', className)} />
        </Suspense>
      ) : null}
    </>
  )
}

/** The line under a sign-in prompt, saying which account signs in. */
export function signInHint(demoMode: boolean) {
  return demoMode
    ? 'On this demo store you can sign in as a demo family, or with a link e-mailed to your Keepsake account.'
    : 'We’ll e-mail a sign-in link to the address of your Keepsake album account.'
}
