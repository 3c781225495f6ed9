import { Link } from '@tanstack/react-router'
import { Logo } from '../ui/Logo'

const nav = [
  { to: '/photo-products', label: 'Ornaments' },
  { to: '/loop', label: 'Offers' },
  { to: '/egifts', label: 'E-gifts' },
  { to: '/referral', label: 'Refer a friend' },
] as const

export function SiteHeader() {
  return (
    <header className="sticky top-0 z-30 border-b border-ink/10 bg-cream/95 backdrop-blur supports-[backdrop-filter]:bg-cream/80">
      <div className="mx-auto flex max-w-6xl flex-wrap items-center justify-between gap-x-4 px-4 py-1 sm:flex-nowrap sm:px-6 sm:py-2">
        <Link to="/photo-products" className="-ml-1 flex min-h-11 items-center rounded-lg px-1" aria-label="Keepsake home">
          <Logo />
        </Link>
        <nav aria-label="Store" className="-mx-2 flex w-full justify-between gap-1 text-sm font-semibold sm:mx-0 sm:-mr-2 sm:w-auto sm:justify-end sm:text-base">
          {nav.map((item) => (
            <Link
              key={item.to}
              to={item.to}
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
