import { Link } from '@tanstack/react-router'
import type { PhotoProduct } from '~/contract/photo-products'
import { formatPrice } from '~/catalogue/currency'
import { templateForVariant } from '~/catalogue/ornaments'

type Variant = PhotoProduct['variants'][number]

type ShapeChooserProps = {
  variants: Variant[]
  currentVariantId: number
  /** Called before the link navigates to another shape's designer. */
  onChoose: (variant: Variant) => void
}

/** Tree, Star and Stocking, each a link to its own designer page; the current one is marked. */
export function ShapeChooser({ variants, currentVariantId, onChoose }: ShapeChooserProps) {
  return (
    <nav aria-labelledby="shape-heading">
      <h2 id="shape-heading" className="text-lg font-semibold">
        Shape
      </h2>
      <ul className="mt-3 grid grid-cols-3 gap-2 sm:gap-3">
        {variants.map((variant) => {
          const current = variant.id === currentVariantId
          const thumbnail = templateForVariant(variant.id)?.thumbnailUrl
          return (
            <li key={variant.id}>
              <Link
                to="/photo-products/ornaments/$variantId"
                params={{ variantId: String(variant.id) }}
                aria-current={current ? 'page' : undefined}
                onClick={() => {
                  if (!current) onChoose(variant)
                }}
                className={`flex h-full flex-col items-center rounded-xl border-2 px-2 pb-2 pt-2.5 text-center transition-colors ${
                  current ? 'border-cranberry bg-cranberry-tint/60' : 'border-ink/10 bg-cream-card hover:border-ink/30'
                }`}
              >
                {thumbnail ? <img src={thumbnail} alt="" className="h-14 w-full object-contain sm:h-16" /> : <span className="h-14 sm:h-16" />}
                <span className="mt-1 font-semibold leading-tight">{variant.name}</span>
                <span className={`text-sm ${current ? 'font-semibold text-cranberry-dark' : 'text-ink-soft'}`}>{formatPrice(variant.salePrice)}</span>
              </Link>
            </li>
          )
        })}
      </ul>
    </nav>
  )
}
