import { useSuspenseQuery } from '@tanstack/react-query'
import { ButtonLink } from '~/components/ui/Button'
import { formatPrice } from '~/catalogue/currency'
import { TEMPLATE_WIDTH, templateArtUrl, templateHeights, templateThumbnailAvifUrl } from '~/catalogue/ornament-art'
import type { OrnamentShape } from '~/catalogue/ornament-variants'
import { photoProductQuery } from './photo-products.functions'

/** The three ornaments with their catalogue prices, as the API sells them. */
export function OrnamentGrid() {
  const { data: product } = useSuspenseQuery(photoProductQuery())
  return (
    <ul className="grid gap-5 sm:grid-cols-3" aria-label="Photo ornaments">
      {product.variants.map((variant) => {
        const shape = variant.shape as OrnamentShape
        return (
          <li key={variant.id} className="flex flex-col overflow-hidden rounded-card bg-cream-card shadow-card" data-testid="ornament-card">
            <div className="flex justify-center bg-gradient-to-b from-cream-deep to-cream-card px-6 pb-2 pt-8">
              {/* The pair as the designer draws it; the card's heading names it. AVIF where the browser takes it, else WebP. */}
              <picture>
                <source type="image/avif" srcSet={templateThumbnailAvifUrl(shape)} />
                <img
                  src={templateArtUrl(shape, 'thumbnail')}
                  alt=""
                  width={480}
                  height={Math.round((480 * templateHeights[shape]) / TEMPLATE_WIDTH)}
                  className="h-44 w-auto object-contain drop-shadow-md"
                  loading="lazy"
                />
              </picture>
            </div>
            <div className="flex flex-1 flex-col p-5">
              <h3 className="text-xl font-semibold">{variant.title}</h3>
              <p className="mt-1 text-ink-soft">A matching pair: one of your photos on each, a festive design on the backs.</p>
              <p className="mt-4 flex items-baseline gap-2">
                <span className="text-2xl font-bold text-cranberry">{formatPrice(variant.salePrice)}</span>
                <span className="text-ink-soft line-through" aria-label={`was ${formatPrice(variant.price)}`}>
                  {formatPrice(variant.price)}
                </span>
              </p>
              <ButtonLink
                to="/photo-products/ornaments/$variantId"
                params={{ variantId: String(variant.id) }}
                className="mt-4 self-start"
                aria-label={`Design yours: ${variant.title}`}
              >
                Design yours
              </ButtonLink>
            </div>
          </li>
        )
      })}
    </ul>
  )
}
