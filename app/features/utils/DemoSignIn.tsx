import { useMutation, useQueryClient, useSuspenseQuery } from '@tanstack/react-query'
import { Link } from '@tanstack/react-router'
import { Button } from '~/components/ui/Button'
import { notify } from '~/lib/toast'
import { currentUserQuery, signInAsDemoUser, signOut } from './account.functions'

type DemoUser = { id: string; firstName: string; lastName: string; email: string; familyName: string }

/** /utils/demo-sign-in: pick a demo family and shop as them (demo mode only). */
export function DemoSignIn({ users }: { users: DemoUser[] }) {
  const queryClient = useQueryClient()
  const { data: current } = useSuspenseQuery(currentUserQuery())
  const signIn = useMutation({
    mutationFn: (userId: string) => signInAsDemoUser({ data: { userId } }),
    onSuccess: async (result) => {
      await queryClient.invalidateQueries()
      notify.success(`Signed in as ${result.user?.firstName ?? 'demo user'}`)
    },
  })
  const out = useMutation({
    mutationFn: () => signOut(),
    onSuccess: async () => {
      await queryClient.invalidateQueries()
      notify.success('Signed out')
    },
  })
  return (
    <main id="main" className="mx-auto max-w-2xl px-4 py-10 sm:px-6">
      <p className="text-sm font-semibold uppercase tracking-[0.16em] text-pine">Demo mode</p>
      <h1 className="mt-2 text-4xl font-bold tracking-tight">Try Keepsake as a demo family</h1>
      <p className="mt-3 text-lg text-ink-soft">
        These accounts exist only on this demo store. Pick one to browse its album and buy an ornament with a test card.
      </p>
      <p className="mt-6 rounded-card bg-cream-deep px-4 py-3" data-testid="current-user" aria-live="polite">
        {current ? (
          <>
            Signed in as <strong>{current.firstName} {current.lastName}</strong>
          </>
        ) : (
          'You are not signed in.'
        )}
      </p>
      <ul className="mt-6 space-y-3">
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
              disabled={signIn.isPending || current?.id === user.id}
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
