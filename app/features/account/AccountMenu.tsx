import { useQuery } from '@tanstack/react-query'
import { Link, useRouterState } from '@tanstack/react-router'
import { Suspense, lazy, useEffect, useId, useRef, useState } from 'react'
import { currentUserQuery } from '~/features/account/account.functions'

// The open menu (who is signed in, Sign out, Sign out everywhere) loads when the shopper opens it, not with every
// page's first load (decision 049).
const AccountMenuPanel = lazy(() => import('./AccountMenuPanel').then((m) => ({ default: m.AccountMenuPanel })))

const triggerClass =
  'flex min-h-11 min-w-11 items-center justify-center gap-2 whitespace-nowrap rounded-full px-2 font-semibold text-ink-soft hover:text-ink aria-expanded:bg-cranberry-tint aria-expanded:text-cranberry-dark'

/** The header's account menu (issue 16): Sign in when signed out; who is signed in, Sign out and Sign out everywhere when signed in. */
export function AccountMenu() {
  const { data: user, isPending } = useQuery(currentUserQuery())
  const here = useRouterState({ select: (s) => s.location.href })
  const onAuthPage = here.startsWith('/auth/')
  const [open, setOpen] = useState(false)
  const menuId = useId()
  const root = useRef<HTMLDivElement>(null)
  const trigger = useRef<HTMLButtonElement>(null)

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
        <Suspense fallback={null}>
          <AccountMenuPanel id={menuId} user={user} onClose={() => setOpen(false)} />
        </Suspense>
      ) : null}
    </div>
  )
}
