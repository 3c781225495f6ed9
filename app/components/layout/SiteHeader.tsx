import { Link, useRouterState } from '@tanstack/react-router'
import type { ReactNode } from 'react'
import { Logo } from '../ui/Logo'

const nav = [
  { to: '/photo-products', label: 'Ornaments' },
  { to: '/loop', label: 'Offers' },
  { to: '/egifts', label: 'E-gifts' },
  { to: '/referral', label: 'Refer a friend' },
] as const

/** `account` holds the shopper's own links (orders, cart): beside the logo on phones, after the store links on wide screens. */
export function SiteHeader({ account }: { account?: ReactNode }) {
  // The cart, orders, checkout and address book live under /photo-products but are the account's, not the store's.
  const onAccountPage = useRouterState({ select: (s) => /^\/photo-products\/(cart|orders|checkout|addresses)(\/|$)/.test(s.location.pathname) })
  return (
    <header className="sticky top-0 z-30 border-b border-ink/10 bg-cream/95 backdrop-blur supports-[backdrop-filter]:bg-cream/80">
      <div className="mx-auto flex max-w-6xl flex-wrap items-center justify-between gap-x-4 px-4 py-1 sm:px-6 lg:flex-nowrap lg:py-2">
        <Link to="/photo-products" className="order-1 -ml-1 flex min-h-11 items-center rounded-lg px-1" aria-label="Keepsake home">
          <Logo />
        </Link>
        {account ? (
          <nav aria-label="Your account" className="order-2 -mr-2 flex items-center gap-1 text-sm lg:order-3 lg:text-base">
            {account}
          </nav>
        ) : null}
        <nav
          aria-label="Store"
          className="order-3 -mx-2 flex w-full justify-between gap-1 text-sm font-semibold sm:justify-start lg:order-2 lg:mx-0 lg:ml-auto lg:w-auto lg:justify-end lg:text-base"
        >
          {nav.map((item) => (
            <Link
              key={item.to}
              to={item.to}
              activeOptions={{ exact: onAccountPage }}
              className="flex min-h-11 items-center whitespace-nowrap rounded-full px-3 text-ink-soft hover:text-ink data-[status=active]:bg-cranberry-tint data-[status=active]:text-cranberry-dark"
            >
              {item.label}
            </Link>
          ))}
        </nav>
      </div>
    </header>
  )
}
