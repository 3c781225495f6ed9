import type { Bundle } from '~/contract/bundles'
import { applyBundles, type PricedLine } from '~/catalogue/pricing'

export type BundleHint = { bundle: Bundle; missing: Bundle['items'][number] }

/**
 * The bundle the cart is exactly one ornament away from, counting only what its complete sets leave
 * over (the same greedy count the server's totals use); the best saving first, or null.
 */
export function bundleHint(lines: readonly PricedLine[], bundles: readonly Bundle[]): BundleHint | null {
  const left = new Map<number, number>()
  for (const line of lines) {
    if (line.variantId !== undefined) left.set(line.variantId, (left.get(line.variantId) ?? 0) + line.quantity)
  }
  for (const applied of applyBundles(lines, bundles)) {
    const bundle = bundles.find((b) => b.id === applied.id)!
    for (const item of bundle.items) left.set(item.variantId, (left.get(item.variantId) ?? 0) - applied.sets * item.quantity)
  }
  const bestFirst = [...bundles].sort((a, b) => b.savingsCents - a.savingsCents || a.id.localeCompare(b.id))
  for (const bundle of bestFirst) {
    if (bundle.items.reduce((sum, item) => sum + item.quantity, 0) < 2) continue
    const short = bundle.items.map((item) => ({ item, count: Math.max(0, item.quantity - (left.get(item.variantId) ?? 0)) })).filter((s) => s.count > 0)
    if (short.length === 1 && short[0]!.count === 1) return { bundle, missing: short[0]!.item }
  }
  return null
}
