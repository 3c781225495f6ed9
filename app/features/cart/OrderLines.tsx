import type { CheckoutLine } from '~/contract/cart'
import { describePersonalText } from '~/catalogue/personal-line'
import { formatCents } from '~/catalogue/currency'
import { findOrnamentVariant } from '~/catalogue/ornaments'
import { LineThumbnail } from './Totals'

/** The lines of a checkout or an order: preview, what it is, how many, and what they cost. */
export function OrderLines({ lines, thumbnail = 'md' }: { lines: CheckoutLine[]; thumbnail?: 'sm' | 'md' }) {
  return (
    <ul className="divide-y divide-ink/10" data-testid="order-lines">
      {lines.map((line) => {
        const shape = findOrnamentVariant(line.variantId)?.name
        return (
          <li key={line.cartItemId} className="flex items-center gap-4 py-3" data-testid="order-line">
            <LineThumbnail src={line.previewCdnUrl} alt={`Your ${line.title} design`} size={thumbnail} />
            <div className="min-w-0 flex-1">
              <p className="font-semibold leading-snug">{line.title}</p>
              {line.text ? (
                <p className="text-sm" data-testid="order-line-text">
                  {describePersonalText(line.text)}
                </p>
              ) : null}
              <p className="text-sm text-ink-soft">
                {shape ? `${shape} · ` : ''}Qty {line.quantity}
                {line.quantity > 1 ? ` × ${formatCents(line.unitAmountCents)}` : ''}
              </p>
            </div>
            <p className="text-right tabular-nums">
              <span className="block font-semibold">{formatCents(line.unitAmountCents * line.quantity)}</span>
              {line.unitListAmountCents > line.unitAmountCents ? (
                <s className="block text-sm text-ink-soft" aria-label={`was ${formatCents(line.unitListAmountCents * line.quantity)}`}>
                  {formatCents(line.unitListAmountCents * line.quantity)}
                </s>
              ) : null}
            </p>
          </li>
        )
      })}
    </ul>
  )
}
