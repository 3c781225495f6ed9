import { queryOptions } from '@tanstack/react-query'
import { createServerFn } from '@tanstack/react-start'
import { photoProductParamsSchema, photoProductSchema } from '~/contract/photo-products'
import { apiForRequest } from '~/lib/api-call.server'
import { ORNAMENT_PRODUCT_ID } from '~/catalogue/ornaments'

export const getPhotoProduct = createServerFn({ method: 'GET' })
  .validator(photoProductParamsSchema)
  .handler(({ data }) => apiForRequest().call(`/photo-products/${encodeURIComponent(data.id)}`, { schema: photoProductSchema }))

export const photoProductQuery = (id: string = ORNAMENT_PRODUCT_ID) =>
  queryOptions({
    queryKey: ['photo-product', id],
    queryFn: () => getPhotoProduct({ data: { id } }),
  })
