import { useQuery } from '@tanstack/react-query'
import { Link } from '@tanstack/react-router'
import { cartQuery } from './cart-query.functions'

const linkClass =
  'relative flex min-h-11 items-center gap-1.5 whitespace-nowrap rounded-full px-3 font-semibold text-ink-soft hover:text-ink data-[status=active]:bg-cranberry-tint data-[status=active]:text-cranberry-dark'

/** The header's way to the shopper's orders and cart, with the cart's item count once it is known. */
export function CartNavLinks() {
  // Fetched in the browser after the page shows; the cart page's own load fills it in at once.
  const { data: cart } = useQuery(cartQuery())
  const count = cart?.totals.itemCount ?? 0
  return (
    <>
      <Link to="/photo-products/orders" className={linkClass}>
        Orders
      </Link>
      <Link to="/photo-products/cart" className={linkClass}>
        <svg viewBox="0 0 24 24" className="size-5" aria-hidden="true">
          <path
            d="M3 4h2l2.2 10.2a2 2 0 0 0 2 1.6h7.6a2 2 0 0 0 2-1.5L20.5 8H6.2"
            fill="none"
            stroke="currentColor"
            strokeWidth="2"
            strokeLinecap="round"
            strokeLinejoin="round"
          />
          <circle cx="10" cy="20" r="1.5" fill="currentColor" />
          <circle cx="17" cy="20" r="1.5" fill="currentColor" />
        </svg>
        Cart
        {count > 0 ? (
          <span
            className="grid min-w-6 place-items-center rounded-full bg-cranberry px-1.5 text-sm leading-6 text-white tabular-nums"
            data-testid="header-cart-count"
          >
            {count}
            <span className="sr-only">{count === 1 ? ' item' : ' items'}</span>
          </span>
        ) : null}
      </Link>
    </>
  )
}
