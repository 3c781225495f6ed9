/**
 * The three ornament variants (SPEC.md §1, §3): ids, shapes, names and prices. A module of its own so that what
 * every page loads first (the designer route checks its variant id before anything is painted) does not carry the
 * templates and back sides that ornaments.ts builds when it loads (decision 049). ornaments.ts re-exports it.
 */
export const ORNAMENT_PRODUCT_ID = 'photo-ornament'

export const ornamentVariants = [
  { id: 72963, shape: 'tree', name: 'Tree', price: 29.99, salePrice: 24.99 },
  { id: 72965, shape: 'star', name: 'Star', price: 29.99, salePrice: 24.99 },
  { id: 72960, shape: 'stocking', name: 'Stocking', price: 32.99, salePrice: 27.99 },
] as const

export type OrnamentVariant = (typeof ornamentVariants)[number]
export type OrnamentShape = OrnamentVariant['shape']

export function findOrnamentVariant(id: number): OrnamentVariant | undefined {
  return ornamentVariants.find((v) => v.id === id)
}
