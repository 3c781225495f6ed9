import { ornamentProduct, variantTitle } from '../../catalogue/ornaments'
import type { PhotoProduct } from '../../contract/photo-products'
import { notFound } from '../errors'

const products: PhotoProduct[] = [
  {
    ...ornamentProduct,
    variants: ornamentProduct.variants.map((v) => ({ ...v, title: variantTitle(v) })),
  },
]

export function findPhotoProduct(id: string): PhotoProduct {
  const product = products.find((p) => p.id === id)
  if (!product) throw notFound(`Photo product ${id}`)
  return product
}
