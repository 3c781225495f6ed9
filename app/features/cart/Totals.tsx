import type { CartTotals } from '~/contract/cart'
import { formatCents } from '~/catalogue/currency'
import { MIN_CHARGE_CENTS } from '~/catalogue/pricing'
import { taxLineLabel } from '~/catalogue/sales-tax'
import { FREE_SHIPPING_THRESHOLD_CENTS } from '~/catalogue/shipping'

type RowProps = { label: string; detail?: string; value: string; tone?: 'ink' | 'pine'; testId?: string }

function Row({ label, detail, value, tone = 'ink', testId }: RowProps) {
  return (
    <div className="flex items-baseline justify-between gap-4 py-1">
      <dt className="text-ink-soft">
        {label}
        {detail ? (
          <span className="block text-sm" data-testid={testId ? `${testId}-detail` : undefined}>
            {detail}
          </span>
        ) : null}
      </dt>
      <dd className={`tabular-nums ${tone === 'pine' ? 'font-semibold text-pine' : 'text-ink'}`} data-testid={testId}>
        {value}
      </dd>
    </div>
  )
}

/**
 * Why credit left something to pay (issue 32: a $25 e-gift on a $24.99 ornament left $0.01 of credit and a $5.99
 * charge, unexplained). parcelledTotals decides it: credit pays for ornaments, not shipping or tax, and leaves at
 * least MIN_CHARGE_CENTS to pay by card.
 */
function creditNote(totals: CartTotals): string | undefined {
  const beyondGoods = totals.shippingCents > 0 || totals.taxCents > 0
  if (beyondGoods) return 'Store credit pays for ornaments, not shipping or tax'
  if (totals.totalCents === MIN_CHARGE_CENTS) return `At least ${formatCents(MIN_CHARGE_CENTS)} is paid by card`
  return undefined
}

/**
 * The money of a cart, a checkout or an order, as the server totalled it. `untaxedNote` is what the tax line says
 * while no address is known (the cart, a checkout); without it, totals with no tax list no tax line. `chargedCents`
 * (an order's) is what the card was charged when the payment provider charged another amount: it is listed as paid,
 * under the order's total.
 */
export function TotalsList({
  totals,
  totalLabel = 'Total',
  untaxedNote,
  chargedCents,
}: {
  totals: CartTotals
  totalLabel?: string
  untaxedNote?: string
  chargedCents?: number | null
}) {
  const taxLabel = taxLineLabel(totals)
  const charged = typeof chargedCents === 'number' && chargedCents !== totals.totalCents ? chargedCents : null
  return (
    <dl className="text-base" data-testid="totals">
      <Row label="Subtotal" value={formatCents(totals.subtotalCents)} testId="subtotal" />
      {totals.saleSavingsCents > 0 ? <Row label="Sale savings" value={`−${formatCents(totals.saleSavingsCents)}`} tone="pine" testId="sale-savings" /> : null}
      {totals.bundleSavingsCents > 0 ? (
        <Row
          label="Bundle savings"
          detail={totals.bundles.map((b) => `${b.title} × ${b.sets}`).join(', ')}
          value={`−${formatCents(totals.bundleSavingsCents)}`}
          tone="pine"
          testId="bundle-savings"
        />
      ) : null}
      <Row label="Shipping" value={totals.shippingCents === 0 ? 'Free' : formatCents(totals.shippingCents)} testId="shipping" />
      {totals.creditsCents > 0 ? (
        <Row label="Credits" detail={creditNote(totals)} value={`−${formatCents(totals.creditsCents)}`} tone="pine" testId="credits" />
      ) : null}
      {taxLabel ? (
        <Row
          label={taxLabel}
          detail={totals.tax?.estimated ? 'Final once checkout has the address' : undefined}
          value={formatCents(totals.taxCents)}
          testId="tax"
        />
      ) : untaxedNote ? (
        <Row label="Sales tax" value={untaxedNote} testId="tax" />
      ) : null}
      <div className="mt-2 flex items-baseline justify-between gap-4 border-t border-ink/10 pt-3">
        <dt className="text-lg font-semibold">{charged === null ? totalLabel : 'Order total'}</dt>
        <dd className="text-xl font-bold tabular-nums" data-testid="total">
          {formatCents(totals.totalCents)}
        </dd>
      </div>
      {charged === null ? null : (
        <div className="mt-2 flex items-baseline justify-between gap-4">
          <dt className="text-lg font-semibold">
            Charged to your card
            <span className="block text-sm font-normal text-ink-soft">Not the order’s total: we’re looking into it and will write to you.</span>
          </dt>
          <dd className="text-xl font-bold tabular-nums" data-testid="charged">
            {formatCents(charged)}
          </dd>
        </div>
      )}
    </dl>
  )
}

/** How far the cart is from free shipping, from the server's own figure. */
export function FreeShippingNudge({ totals }: { totals: CartTotals }) {
  const remaining = totals.freeShippingRemainingCents
  if (totals.itemCount === 0) return null
  if (remaining <= 0) {
    return (
      <p className="flex items-center gap-2 rounded-xl bg-pine-tint px-3 py-2 text-sm font-semibold text-pine-dark" data-testid="free-shipping">
        <svg viewBox="0 0 20 20" className="size-5 shrink-0" aria-hidden="true">
          <path d="M4 10.5l4 4 8-9" fill="none" stroke="currentColor" strokeWidth="2.2" strokeLinecap="round" strokeLinejoin="round" />
        </svg>
        Your order ships free.
      </p>
    )
  }
  const progress = Math.max(0, Math.min(1, 1 - remaining / FREE_SHIPPING_THRESHOLD_CENTS))
  return (
    <div className="rounded-xl bg-gold-tint px-3 py-2.5 text-sm text-ink" data-testid="free-shipping">
      <p>
        Add <strong className="tabular-nums">{formatCents(remaining)}</strong> more for free shipping.
      </p>
      <div className="mt-2 h-1.5 overflow-hidden rounded-full bg-ink/10" aria-hidden="true">
        <div className="h-full rounded-full bg-gold-dark" style={{ width: `${Math.round(progress * 100)}%` }} />
      </div>
    </div>
  )
}

/** A design's preview on a soft card, the same size wherever a line is listed. */
export function LineThumbnail({ src, alt, size = 'md' }: { src: string; alt: string; size?: 'sm' | 'md' | 'lg' }) {
  const box = { sm: 'size-14', md: 'size-20 sm:size-24', lg: 'size-24 sm:size-32' }[size]
  return (
    <div className={`${box} shrink-0 overflow-hidden rounded-xl bg-cream-deep`}>
      <img src={src} alt={alt} className="size-full object-contain" loading="lazy" decoding="async" />
    </div>
  )
}
