import { useQuery, useQueryClient } from '@tanstack/react-query'
import { Link, useRouter, useRouterState } from '@tanstack/react-router'
import { useEffect, useId, useRef, useState } from 'react'
import { buttonClass } from '~/components/ui/Button'
import { currentUserQuery, signOut } from '~/features/account/account.functions'
import { notify } from '~/lib/toast'
import { signOutEverywhere } from './sign-in.functions'

const triggerClass =
  'flex min-h-11 min-w-11 items-center justify-center gap-2 whitespace-nowrap rounded-full px-2 font-semibold text-ink-soft hover:text-ink aria-expanded:bg-cranberry-tint aria-expanded:text-cranberry-dark'

/** The header's account menu (issue 16): Sign in when signed out; who is signed in, Sign out and Sign out everywhere when signed in. */
export function AccountMenu() {
  const { data: user, isPending } = useQuery(currentUserQuery())
  const here = useRouterState({ select: (s) => s.location.href })
  const onAuthPage = here.startsWith('/auth/')
  const [open, setOpen] = useState(false)
  const [busy, setBusy] = useState(false)
  const menuId = useId()
  const root = useRef<HTMLDivElement>(null)
  const trigger = useRef<HTMLButtonElement>(null)
  const queryClient = useQueryClient()
  const router = useRouter()

  useEffect(() => {
    if (!open) return
    const onPointer = (event: PointerEvent) => {
      if (!root.current?.contains(event.target as Node)) setOpen(false)
    }
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== 'Escape') return
      setOpen(false)
      trigger.current?.focus()
    }
    document.addEventListener('pointerdown', onPointer)
    document.addEventListener('keydown', onKey)
    return () => {
      document.removeEventListener('pointerdown', onPointer)
      document.removeEventListener('keydown', onKey)
    }
  }, [open])

  // Not known yet (the server rendered without it): keep the place so the header does not jump.
  if (isPending) return <span aria-hidden="true" className="inline-block size-11" />
  if (!user) {
    return (
      <Link
        to="/auth/sign-in"
        search={{ redirect: onAuthPage ? undefined : here }}
        className="flex min-h-11 items-center whitespace-nowrap rounded-full px-3 font-semibold text-ink-soft hover:text-ink"
      >
        Sign in
      </Link>
    )
  }

  async function leave(everywhere: boolean) {
    setBusy(true)
    try {
      if (everywhere) {
        const outcome = await signOutEverywhere()
        if (!outcome.ok && outcome.error.status !== 401) throw new Error(outcome.error.message)
      } else {
        await signOut()
      }
      setOpen(false)
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
    <div ref={root} className="relative">
      <button ref={trigger} type="button" className={triggerClass} aria-expanded={open} aria-controls={menuId} onClick={() => setOpen((o) => !o)}>
        <span aria-hidden="true" className="grid size-8 place-items-center rounded-full bg-pine text-sm font-bold text-white">
          {user.firstName.slice(0, 1).toUpperCase()}
        </span>
        <span className="sr-only sm:not-sr-only">{user.firstName}</span>
        <span className="sr-only">: your account</span>
      </button>
      {open ? (
        <div
          id={menuId}
          className="absolute right-0 top-full z-40 mt-2 w-72 max-w-[calc(100vw-2rem)] rounded-card bg-cream-card p-4 text-left text-base shadow-card ring-1 ring-ink/10"
          data-testid="account-menu"
        >
          <p className="text-sm text-ink-soft">Signed in as</p>
          <p className="font-semibold">
            {user.firstName} {user.lastName}
          </p>
          <p className="break-all text-sm text-ink-soft">{user.email}</p>
          <div className="mt-4 grid gap-2">
            <Link to="/photo-products/orders" className={buttonClass('secondary', 'w-full')} onClick={() => setOpen(false)}>
              Your orders
            </Link>
            <Link to="/photo-products/designs" className={buttonClass('secondary', 'w-full')} onClick={() => setOpen(false)}>
              My designs
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
      ) : null}
    </div>
  )
}
