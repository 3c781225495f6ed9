/**
 * Bundles (SPEC.md §7 GET /v1/loop/bundles): one typed table. A bundle is defined by its shapes and
 * the saving of one set; every price is derived from the catalogue (app/catalogue/ornaments.ts), so a
 * bundle's price moves with the sale prices and never drifts from what the cart charges.
 */
import type { Bundle } from '../../contract/bundles'
import { variantOfShape, variantTitle, type OrnamentShape } from '../../catalogue/ornaments'
import { toCents } from '../../catalogue/pricing'
import { SHIPPING_CENTS } from '../../catalogue/shipping'

type BundleDefinition = {
  id: string
  title: string
  description: string
  items: readonly { shape: OrnamentShape; quantity: number }[]
  /** Saved on every complete set; at least SHIPPING_CENTS, so crossing below free shipping never costs more than it saves. */
  savingsCents: number
}

const bundleDefinitions = [
  {
    id: 'whole-set',
    title: 'The whole set',
    description: 'A Tree, a Star and a Stocking pair: every shape, each with two of your photos.',
    items: [
      { shape: 'tree', quantity: 1 },
      { shape: 'star', quantity: 1 },
      { shape: 'stocking', quantity: 1 },
    ],
    savingsCents: 800,
  },
] as const satisfies readonly BundleDefinition[]

function bundleOf(definition: BundleDefinition): Bundle {
  const items = definition.items.map(({ shape, quantity }) => {
    const variant = variantOfShape(shape)
    return { variantId: variant.id, quantity, title: variantTitle(variant), shape, unitCents: toCents(variant.salePrice) }
  })
  const regularPriceCents = items.reduce((sum, i) => sum + i.unitCents * i.quantity, 0)
  const bundlePriceCents = regularPriceCents - definition.savingsCents
  if (definition.savingsCents < SHIPPING_CENTS || bundlePriceCents <= 0) {
    throw new Error(`Bundle ${definition.id} must save from ${SHIPPING_CENTS} cents up to less than its items cost`)
  }
  return {
    id: definition.id,
    title: definition.title,
    description: definition.description,
    items: items.map(({ variantId, quantity, title, shape }) => ({ variantId, quantity, title, shape })),
    currency: 'usd',
    bundlePriceCents,
    regularPriceCents,
    savingsCents: definition.savingsCents,
    shapes: items.flatMap((i) => Array.from({ length: i.quantity }, () => i.shape)),
  }
}

/** The bundles on sale, in display order; the cart's totals apply these same rows (parcel-plans.ts planTotals). */
export const storeBundles: readonly Bundle[] = bundleDefinitions.map(bundleOf)

export function listBundles(): { bundles: Bundle[] } {
  return { bundles: [...storeBundles] }
}
