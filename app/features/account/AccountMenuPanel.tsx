import { useQueryClient } from '@tanstack/react-query'
import { Link, useRouter } from '@tanstack/react-router'
import { useState } from 'react'
import { buttonClass } from '~/components/ui/Button'
import { notify } from '~/lib/toast'
import { signOut, signOutEverywhere } from './sign-in.functions'

type SignedInUser = { firstName: string; lastName: string; email: string }

/** The account menu's open panel (AccountMenu.tsx): who is signed in, their pages, Sign out and Sign out everywhere. */
export function AccountMenuPanel({ id, user, onClose }: { id: string; user: SignedInUser; onClose: () => void }) {
  const [busy, setBusy] = useState(false)
  const queryClient = useQueryClient()
  const router = useRouter()

  async function leave(everywhere: boolean) {
    setBusy(true)
    try {
      if (everywhere) {
        const outcome = await signOutEverywhere()
        if (!outcome.ok && outcome.error.status !== 401) throw new Error(outcome.error.message)
      } else {
        await signOut()
      }
      onClose()
      await queryClient.invalidateQueries()
      await router.invalidate()
      notify.success(everywhere ? 'Signed out on every browser and device' : 'Signed out')
    } catch {
      notify.error('We could not sign you out just now. Check your connection and try again.')
    } finally {
      setBusy(false)
    }
  }

  return (
    <div
      id={id}
      className="absolute right-0 top-full z-40 mt-2 w-72 max-w-[calc(100vw-2rem)] rounded-card bg-cream-card p-4 text-left text-base shadow-card ring-1 ring-ink/10"
      data-testid="account-menu"
    >
      <p className="text-sm text-ink-soft">Signed in as</p>
      <p className="font-semibold">
        {user.firstName} {user.lastName}
      </p>
      <p className="break-all text-sm text-ink-soft">{user.email}</p>
      <div className="mt-4 grid gap-2">
        <Link to="/photo-products/orders" className={buttonClass('secondary', 'w-full')} onClick={onClose}>
          Your orders
        </Link>
        <Link to="/photo-products/designs" className={buttonClass('secondary', 'w-full')} onClick={onClose}>
          My designs
        </Link>
        <Link to="/photo-products/addresses" className={buttonClass('secondary', 'w-full')} onClick={onClose}>
          Address book
        </Link>
        <button type="button" className={buttonClass('secondary', 'w-full')} disabled={busy} onClick={() => void leave(false)}>
          Sign out
        </button>
        <button type="button" className={buttonClass('quiet', 'w-full')} disabled={busy} onClick={() => void leave(true)}>
          Sign out everywhere
        </button>
        <p className="text-center text-xs text-ink-soft">Ends your sessions on every browser and device.</p>
      </div>
    </div>
  )
}
