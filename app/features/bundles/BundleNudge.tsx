import { Link } from '@tanstack/react-router'
import type { CartItem } from '~/contract/cart'
import { formatCents } from '~/catalogue/currency'
import { findOrnamentVariant } from '~/catalogue/ornaments'
import { toCents } from '~/catalogue/pricing'
import { bundleHint } from './bundle-hint'
import { useBundles } from './bundles-query'

/** A gentle note in the cart when one more ornament would complete a bundle; nothing otherwise. */
export function BundleNudge({ items }: { items: CartItem[] }) {
  const { bundles } = useBundles()
  const lines = items.map((i) => ({
    priceCents: toCents(i.metadata.price),
    salePriceCents: toCents(i.metadata.salePrice),
    quantity: i.quantity,
    variantId: i.metadata.variantId,
  }))
  const hint = bundleHint(lines, bundles)
  if (!hint) return null
  const shape = findOrnamentVariant(hint.missing.variantId)?.name ?? hint.missing.title
  return (
    <p className="rounded-xl bg-pine-tint px-3 py-2.5 text-sm text-ink" data-testid="bundle-nudge">
      One more {shape} completes <strong>{hint.bundle.title}</strong> and saves{' '}
      <strong className="tabular-nums">{formatCents(hint.bundle.savingsCents)}</strong>.{' '}
      <Link
        to="/photo-products/ornaments/$variantId"
        params={{ variantId: String(hint.missing.variantId) }}
        className="font-semibold text-pine-dark underline underline-offset-4"
      >
        Design a {shape}
      </Link>
    </p>
  )
}
