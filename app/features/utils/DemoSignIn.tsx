import { useMutation, useQueryClient, useSuspenseQuery } from '@tanstack/react-query'
import { Link, useRouter } from '@tanstack/react-router'
import { Button } from '~/components/ui/Button'
import type { AuthenticateSession } from '~/contract/growth'
import { notify } from '~/lib/toast'
import { currentUserQuery } from '../account/account.functions'
import { signInAsDemoUser, signInAsNewFamily } from '../account/demo-sign-in.functions'
import { signOut } from '../account/sign-in.functions'

type DemoUser = { id: string; firstName: string; lastName: string; email: string; familyName: string }

/** /utils/demo-sign-in: pick a demo family and shop as them (demo mode only); `redirect` is a same-site path to return to. */
export function DemoSignIn({ users, redirect }: { users: DemoUser[]; redirect?: string }) {
  const queryClient = useQueryClient()
  const router = useRouter()
  const { data: current } = useSuspenseQuery(currentUserQuery())
  const signedIn = async (result: AuthenticateSession) => {
    await queryClient.invalidateQueries()
    notify.success(`Signed in as ${result.user?.firstName ?? 'demo user'}`)
    if (redirect) await router.navigate({ href: redirect })
  }
  const signIn = useMutation({ mutationFn: (userId: string) => signInAsDemoUser({ data: { userId } }), onSuccess: signedIn })
  const newFamily = useMutation({ mutationFn: () => signInAsNewFamily(), onSuccess: signedIn })
  const out = useMutation({
    mutationFn: () => signOut(),
    onSuccess: async () => {
      await queryClient.invalidateQueries()
      notify.success('Signed out')
    },
  })
  const busy = signIn.isPending || newFamily.isPending
  return (
    <main id="main" className="mx-auto max-w-2xl px-4 py-10 sm:px-6">
      <p className="text-sm font-semibold uppercase tracking-[0.16em] text-pine">Demo mode</p>
      <h1 className="mt-2 text-4xl font-bold tracking-tight">Try Keepsake as a demo family</h1>
      <p className="mt-3 text-lg text-ink-soft">
        These accounts exist only on this demo store. Pick one to browse its album and buy an ornament with a test card.
      </p>
      {redirect ? (
        <p className="mt-3 text-ink-soft" data-testid="sign-in-redirect">
          Once you’re signed in, we’ll take you straight back to where you were.
        </p>
      ) : null}
      <p className="mt-6 rounded-card bg-cream-deep px-4 py-3" data-testid="current-user" aria-live="polite">
        {current ? (
          <>
            Signed in as{' '}
            <strong>
              {current.firstName} {current.lastName}
            </strong>
          </>
        ) : (
          'You are not signed in.'
        )}
      </p>
      {current && redirect ? (
        <p className="mt-3">
          <a href={redirect} className="inline-flex min-h-11 items-center font-semibold text-cranberry underline-offset-4 hover:underline">
            Continue as {current.firstName} →
          </a>
        </p>
      ) : null}
      <section aria-labelledby="new-family-heading" className="mt-6 flex flex-wrap items-center justify-between gap-3 rounded-card bg-pine-tint p-4">
        <div className="min-w-0 flex-1 basis-56">
          <h2 id="new-family-heading" className="font-semibold text-pine-dark">
            Start as a new family
          </h2>
          <p className="text-sm text-pine-dark">A brand-new account with a family album and no orders yet — handy for trying a friend’s invite.</p>
        </div>
        <Button onClick={() => newFamily.mutate()} disabled={busy}>
          {newFamily.isPending ? 'Setting up your family…' : 'Sign in as a new family'}
        </Button>
      </section>
      <h2 className="mt-8 text-lg font-semibold">Or pick a demo family</h2>
      <ul className="mt-3 space-y-3">
        {users.map((user) => (
          <li key={user.id} className="flex flex-wrap items-center justify-between gap-3 rounded-card bg-cream-card p-4 shadow-card">
            <div>
              <p className="font-semibold">
                {user.firstName} {user.lastName}
              </p>
              <p className="text-sm text-ink-soft">{user.familyName}</p>
            </div>
            <Button
              onClick={() => signIn.mutate(user.id)}
              disabled={busy || current?.id === user.id}
              aria-label={`Sign in as ${user.firstName} ${user.lastName}`}
            >
              {current?.id === user.id ? 'Signed in' : 'Sign in'}
            </Button>
          </li>
        ))}
      </ul>
      <div className="mt-8 flex flex-wrap gap-3">
        {current ? (
          <Button variant="secondary" onClick={() => out.mutate()} disabled={out.isPending}>
            Sign out
          </Button>
        ) : null}
        <Link to="/photo-products" className="inline-flex min-h-11 items-center px-2 font-semibold text-cranberry underline-offset-4 hover:underline">
          Go to the store
        </Link>
      </div>
    </main>
  )
}
