import { Link, useRouter } from '@tanstack/react-router'
import { useState } from 'react'
import { Button } from '~/components/ui/Button'
import { EmptyState } from '~/components/ui/PageHero'
import { smokescreenName } from '~/catalogue/smokescreen-products'
import type { SmokescreenTally } from '~/contract/smokescreens'

// In UTC, so the server's render and the browser's agree.
const when = (iso: string) =>
  `${new Date(iso).toLocaleString('en-US', { month: 'short', day: 'numeric', hour: 'numeric', minute: '2-digit', timeZone: 'UTC' })} UTC`

/** /utils/smokescreens (demo mode): how many asked for each product we do not sell yet, most wanted first. */
export function SmokescreenReport({ products, readAt }: { products: SmokescreenTally[]; readAt: string }) {
  const router = useRouter()
  const [refreshing, setRefreshing] = useState(false)
  const most = Math.max(1, ...products.map((p) => p.total))
  const everyone = products.reduce((sum, p) => sum + p.total, 0)
  const refresh = async () => {
    setRefreshing(true)
    await router.invalidate()
    setRefreshing(false)
  }
  return (
    <main id="main" className="mx-auto max-w-3xl px-4 py-10 sm:px-6">
      <p className="text-sm font-semibold uppercase tracking-[0.16em] text-pine">Demo mode · for the team</p>
      <h1 className="mt-2 text-4xl font-bold tracking-tight">Smokescreen report</h1>
      <p className="mt-3 text-lg text-ink-soft">
        How many shoppers asked for each product we don’t sell yet, from the “Coming soon” cards: “Notify me” is the waitlist, “Deliver to me” the delivery
        interest. Each shopper counts once per product and kind. The same numbers as{' '}
        <code className="rounded bg-cream-deep px-1.5 py-0.5 text-base">npm run report:smokescreens</code>.
      </p>
      <div className="mt-6 flex flex-wrap items-center justify-between gap-3">
        <p className="text-ink-soft" aria-live="polite">
          <strong className="text-ink" data-testid="smokescreen-total">
            {everyone} {everyone === 1 ? 'sign-up' : 'sign-ups'}
          </strong>{' '}
          as of {when(readAt)}
        </p>
        <Button variant="secondary" onClick={() => void refresh()} disabled={refreshing}>
          {refreshing ? 'Refreshing…' : 'Refresh'}
        </Button>
      </div>
      {everyone === 0 ? (
        <div className="mt-6">
          <EmptyState
            level={2}
            title="No sign-ups yet"
            body="Nobody has asked for a coming-soon product on this server yet. The cards are on the store page and every campaign page."
            action={
              <Link
                to="/loop/store"
                hash="coming-soon"
                className="inline-flex min-h-11 items-center font-semibold text-cranberry underline-offset-4 hover:underline"
              >
                See the Coming soon cards
              </Link>
            }
          />
        </div>
      ) : null}
      <div className="mt-6 overflow-hidden rounded-card bg-cream-card shadow-card">
        <table className="w-full text-left">
          <caption className="sr-only">Sign-ups per product, most wanted first</caption>
          <thead className="bg-cream-deep/70 text-sm">
            <tr>
              <th scope="col" className="px-4 py-3 font-semibold">
                Product
              </th>
              <th scope="col" className="px-2 py-3 text-right font-semibold">
                Waitlist
              </th>
              <th scope="col" className="px-2 py-3 text-right font-semibold">
                Delivery
              </th>
              <th scope="col" className="px-4 py-3 text-right font-semibold">
                Total
              </th>
            </tr>
          </thead>
          <tbody className="divide-y divide-ink/10">
            {products.map((p) => (
              <tr key={p.product} data-product={p.product}>
                <th scope="row" className="px-4 py-3 align-top font-normal">
                  <span className="font-semibold">{smokescreenName(p.product)}</span>
                  <span className="mt-1.5 block h-1.5 rounded-full bg-cream-deep" aria-hidden="true">
                    <span className="block h-full rounded-full bg-cranberry" style={{ width: `${(p.total / most) * 100}%` }} />
                  </span>
                  <span className="mt-1 block text-sm text-ink-soft">{p.lastAt ? `Last ${when(p.lastAt)}` : 'No sign-ups yet'}</span>
                </th>
                <td className="px-2 py-3 text-right align-top tabular-nums" data-testid="waitlist-count">
                  {p.waitlist}
                </td>
                <td className="px-2 py-3 text-right align-top tabular-nums" data-testid="delivery-count">
                  {p.delivery}
                </td>
                <td className="px-4 py-3 text-right align-top text-lg font-bold tabular-nums" data-testid="total-count">
                  {p.total}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </main>
  )
}
