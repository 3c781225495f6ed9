import { useQueryClient, useSuspenseQuery } from '@tanstack/react-query'
import { Link, useRouter } from '@tanstack/react-router'
import { useEffect, useRef, useState, type ReactNode } from 'react'
import { buttonClass } from '~/components/ui/Button'
import { OpenInAppLink } from '~/components/ui/OpenInAppLink'
import { Spinner } from '~/components/ui/Spinner'
import { currentUserQuery } from '~/features/account/account.functions'
import { shopperErrorText } from '~/lib/error-text'
import { usePublicConfig } from '~/lib/public-config'
import { useIsPhone } from '~/lib/use-is-phone'
import { DEFAULT_LANDING } from '~/contract/redirect-path'
import { ApiFailureError } from '~/lib/api-outcome'
import { redeemSignInLink, signOut } from './sign-in.functions'
import { SignInForm } from './SignInForm'

function AuthFrame({ eyebrow = 'Your Keepsake account', children }: { eyebrow?: string; children: ReactNode }) {
  return (
    <main id="main" className="mx-auto max-w-xl px-4 py-10 sm:px-6 sm:py-16">
      <p className="text-sm font-semibold uppercase tracking-[0.16em] text-pine">{eyebrow}</p>
      <div className="mt-2">{children}</div>
    </main>
  )
}

/** The other ways in, below the e-mail form: the app on a phone, the demo families on the demo store. */
function OtherWays({ redirect }: { redirect?: string }) {
  const { demoMode } = usePublicConfig()
  const phone = useIsPhone()
  if (!phone && !demoMode) return null
  return (
    <section aria-labelledby="other-ways-heading" className="mt-10 border-t border-ink/10 pt-6">
      <h2 id="other-ways-heading" className="text-lg font-semibold">
        Other ways to sign in
      </h2>
      <div className="mt-3 flex flex-wrap gap-3">
        {phone ? <OpenInAppLink path={redirect ?? DEFAULT_LANDING} className={buttonClass('secondary')} /> : null}
        {demoMode ? (
          <Link to="/utils/demo-sign-in" search={{ redirect }} className={buttonClass('secondary')}>
            Sign in as a demo family
          </Link>
        ) : null}
      </div>
      {demoMode ? <p className="mt-2 text-sm text-ink-soft">Demo families exist only on this demo store.</p> : null}
    </section>
  )
}

/** /auth/sign-in: a signed-out shopper asks for a link to their account's address. */
export function SignInPage({ redirect }: { redirect?: string }) {
  const { data: current } = useSuspenseQuery(currentUserQuery())
  const queryClient = useQueryClient()
  const router = useRouter()
  const [sent, setSent] = useState(false)
  if (current) {
    return (
      <AuthFrame>
        <h1 className="text-4xl font-bold tracking-tight">You’re signed in</h1>
        <p className="mt-3 text-lg text-ink-soft" data-testid="current-user">
          as{' '}
          <strong className="text-ink">
            {current.firstName} {current.lastName}
          </strong>{' '}
          ({current.email}).
        </p>
        <div className="mt-6 flex flex-wrap gap-3">
          <a href={redirect ?? DEFAULT_LANDING} className={buttonClass('primary')}>
            Continue to the store
          </a>
          <button
            type="button"
            className={buttonClass('secondary')}
            onClick={async () => {
              await signOut()
              await queryClient.invalidateQueries()
              await router.invalidate()
            }}
          >
            Sign in as someone else
          </button>
        </div>
      </AuthFrame>
    )
  }
  return (
    <AuthFrame>
      {sent ? null : (
        <>
          <h1 className="text-4xl font-bold tracking-tight">Sign in to Keepsake</h1>
          <p className="mt-3 text-lg text-ink-soft">
            No password needed: we’ll e-mail you a link that signs you in.
            {redirect ? ' Once you’re in, we’ll take you back to where you were.' : ''}
          </p>
        </>
      )}
      <div className={sent ? 'mt-4' : 'mt-8'}>
        <SignInForm redirect={redirect} headingLevel={1} onSentChange={setSent} />
      </div>
      <OtherWays redirect={redirect} />
    </AuthFrame>
  )
}

/** A link that could not sign the shopper in: what happened, and the way to sign in below it. */
function SignInRescue({ title, message, redirect }: { title: string; message: string; redirect?: string }) {
  return (
    <AuthFrame>
      <div data-testid="sign-in-refused">
        <h1 className="text-4xl font-bold tracking-tight">{title}</h1>
        <p className="mt-3 text-lg text-ink-soft">{message}</p>
      </div>
      <div className="mt-8">
        <SignInForm redirect={redirect} />
      </div>
      <OtherWays redirect={redirect} />
    </AuthFrame>
  )
}

/**
 * /auth/link?token=…: the link from the e-mail. The token is spent from the page, not by the page's
 * GET, so a mail scanner that follows links cannot use it up; it leaves the address bar at once.
 */
export function LinkSignInPage({ token }: { token?: string }) {
  const router = useRouter()
  const started = useRef(false)
  const [refusal, setRefusal] = useState<string | null>(token ? null : 'This sign-in link is not complete. Ask for a new one below.')

  useEffect(() => {
    if (started.current) return
    started.current = true
    void (async () => {
      // Whatever the query held (a token, or a broken one), it leaves the address bar and the history first.
      if (window.location.search) await router.navigate({ to: '/auth/link', search: {}, replace: true })
      if (!token) return
      try {
        const outcome = await redeemSignInLink({ data: { token } })
        if (outcome.ok) window.location.replace(outcome.data.redirect)
        // A 401 here is the link's own refusal (spent, expired, unknown), written for the shopper by the API.
        else if (outcome.error.status === 401) setRefusal(outcome.error.message)
        else setRefusal(shopperErrorText(new ApiFailureError(outcome.error)) ?? 'This sign-in link could not be used. Ask for a new one below.')
      } catch (error) {
        setRefusal(shopperErrorText(error) ?? 'We could not sign you in just now. Check your connection and try the link again.')
      }
    })()
  }, [router, token])

  if (refusal) return <SignInRescue title="This sign-in link can’t be used" message={refusal} />
  return (
    <AuthFrame>
      <h1 className="sr-only">Signing you in</h1>
      <Spinner label="Signing you in…" />
    </AuthFrame>
  )
}

const continueRefusals = {
  expired:
    'Links from the Keepsake app work once, for a few minutes, and this one has expired or was already used. Open the store from the app again, or sign in with a link e-mailed to you.',
  unavailable: 'We could not sign you in just now. Open the store from the app again in a moment, or sign in with a link e-mailed to you.',
} as const

/** /auth/continue after a refused transition code from the app (the code itself never reaches the page). */
export function ContinueRefusedPage({ reason = 'expired', redirect }: { reason?: keyof typeof continueRefusals; redirect?: string }) {
  return <SignInRescue title="Let’s get you signed in" message={continueRefusals[reason]} redirect={redirect} />
}
