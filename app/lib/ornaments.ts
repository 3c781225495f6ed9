/**
 * The ornament catalogue, SPEC.md §1 and §9: three shapes, each a Printify variant taking two photos.
 * Prices are decided here, on the server's side of every sale, and only read by the client.
 */
export const ORNAMENT_PRODUCT_ID = 'photo-ornament'

export const ornamentVariants = [
  { id: 72963, shape: 'tree', name: 'Tree', price: 29.99, salePrice: 24.99 },
  { id: 72965, shape: 'star', name: 'Star', price: 29.99, salePrice: 24.99 },
  { id: 72960, shape: 'stocking', name: 'Stocking', price: 32.99, salePrice: 27.99 },
] as const

export type OrnamentVariant = (typeof ornamentVariants)[number]
export type OrnamentShape = OrnamentVariant['shape']

export const ornamentProduct = {
  id: ORNAMENT_PRODUCT_ID,
  title: 'Photo Ornament',
  description:
    'A glossy two-sided ornament with your family on the front and a festive design on the back. Printed, cut and shipped in a gift box.',
  provider: 'PRINTIFY',
  /** Printify blueprint and print provider of the ceramic photo ornament. */
  providerProductId: 1186,
  printProviderId: 228,
  numberOfUserImages: 2,
  variants: ornamentVariants,
} as const
