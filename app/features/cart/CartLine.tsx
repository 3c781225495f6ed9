import type { CartItem } from '~/contract/cart'
import { describePersonalText } from '~/catalogue/personal-line'
import { MAX_QUANTITY_PER_LINE } from '~/catalogue/cart-terms'
import { formatCents, formatPrice } from '~/catalogue/currency'
import { findBackSide, findOrnamentVariant } from '~/catalogue/ornaments'
import { LineThumbnail } from './Totals'

type CartLineProps = {
  item: CartItem
  onQuantity: (quantity: number) => void
  onRemove: () => void
}

const stepButton =
  'grid size-11 place-items-center rounded-full text-xl font-semibold text-ink transition-colors hover:bg-ink/5 disabled:cursor-not-allowed disabled:text-ink/30 disabled:hover:bg-transparent'

/** One design in the cart: its preview, what it is, how many, and what it costs. */
export function CartLine({ item, onQuantity, onRemove }: CartLineProps) {
  const { metadata: m, quantity } = item
  const shape = findOrnamentVariant(m.variantId)?.name
  const back = findBackSide(item.backSideId)?.name
  return (
    <li
      className="grid grid-cols-[auto_minmax(0,1fr)] items-start gap-x-4 gap-y-3 py-5 sm:grid-cols-[auto_minmax(0,1fr)_auto]"
      data-testid="cart-line"
      data-item-identifier={item.itemIdentifier}
    >
      <LineThumbnail src={m.previewCdnUrl} alt={`Your ${m.title} design`} />
      <div className="min-w-0">
        <h3 className="text-lg font-semibold leading-snug">{m.title}</h3>
        <p className="text-sm text-ink-soft">
          {shape ? `${shape} shape · matching pair` : 'Matching pair'}
          {back ? ` · back: ${back}` : ''}
        </p>
        {m.text ? (
          <p className="text-sm" data-testid="cart-line-text">
            {describePersonalText(m.text)}
          </p>
        ) : null}
        <p className="mt-1 text-sm">
          <span className="font-semibold text-cranberry">{formatPrice(m.salePrice)}</span>{' '}
          <s className="text-ink-soft" aria-label={`was ${formatPrice(m.price)}`}>
            {formatPrice(m.price)}
          </s>{' '}
          <span className="text-ink-soft">each</span>
        </p>
      </div>
      {/* Phones: a row under the picture. Wider: a column on the right, the line total on top. */}
      <div className="col-span-2 flex items-center gap-2 sm:col-span-1 sm:flex-col sm:items-end">
        <div className="flex items-center gap-1">
          <div role="group" aria-label={`Quantity of ${m.title}`} className="flex items-center rounded-full border-2 border-ink/15 bg-cream-card">
            <button type="button" className={stepButton} onClick={() => onQuantity(quantity - 1)} disabled={quantity <= 1} aria-label={`One fewer ${m.title}`}>
              <span aria-hidden="true">−</span>
            </button>
            <output className="min-w-8 text-center text-lg font-semibold tabular-nums" aria-live="polite" aria-label={`Quantity ${quantity}`}>
              {quantity}
            </output>
            <button
              type="button"
              className={stepButton}
              onClick={() => onQuantity(quantity + 1)}
              disabled={quantity >= MAX_QUANTITY_PER_LINE}
              aria-label={`One more ${m.title}`}
            >
              <span aria-hidden="true">+</span>
            </button>
          </div>
          <button
            type="button"
            onClick={onRemove}
            className="min-h-11 rounded-full px-3 font-semibold text-cranberry underline-offset-4 hover:underline"
            aria-label={`Remove ${m.title}`}
          >
            Remove
          </button>
        </div>
        <p className="ml-auto text-right tabular-nums sm:order-first sm:ml-0" data-testid="line-total">
          <span className="block text-lg font-bold">{formatCents(item.lineSaleTotalCents)}</span>
          {item.lineTotalCents > item.lineSaleTotalCents ? (
            <s className="block text-sm text-ink-soft" aria-label={`was ${formatCents(item.lineTotalCents)}`}>
              {formatCents(item.lineTotalCents)}
            </s>
          ) : null}
        </p>
        {quantity >= MAX_QUANTITY_PER_LINE ? <p className="w-full text-sm text-ink-soft sm:text-right">Up to {MAX_QUANTITY_PER_LINE} of one design.</p> : null}
      </div>
    </li>
  )
}
