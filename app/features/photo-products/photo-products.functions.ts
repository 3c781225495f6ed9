import { queryOptions } from '@tanstack/react-query'
import { createServerFn } from '@tanstack/react-start'
import { photoProductsApi } from '~/contract/endpoints/photo-products'
import { photoProductParamsSchema } from '~/contract/photo-products'
import { apiMiddleware } from '~/lib/api.middleware'
import { ORNAMENT_PRODUCT_ID } from '~/catalogue/ornament-variants'

/** The photo product with its variants and prices. */
export const getPhotoProduct = createServerFn({ method: 'GET' })
  .middleware([apiMiddleware])
  .validator(photoProductParamsSchema)
  .handler(({ data, context: { api } }) => api.call(photoProductsApi.getPhotoProduct, { params: data }))

export const photoProductQuery = (id: string = ORNAMENT_PRODUCT_ID) =>
  queryOptions({
    queryKey: ['photo-product', id],
    queryFn: () => getPhotoProduct({ data: { id } }),
  })
