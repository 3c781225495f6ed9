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
      <div className="mx-auto flex max-w-6xl items-center justify-between gap-4 px-4 py-2 sm:px-6">
        <Link to="/photo-products" className="-ml-1 flex min-h-11 items-center rounded-lg px-1" aria-label="Keepsake home">
          <Logo />
        </Link>
        <nav aria-label="Store" className="-mr-2 flex gap-1 overflow-x-auto text-sm font-semibold sm:text-base">
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
