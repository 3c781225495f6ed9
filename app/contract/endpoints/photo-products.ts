import type { Endpoint } from '../endpoint'
import { photoProductParamsSchema, photoProductSchema } from '../photo-products'

export const photoProductsApi = {
  getPhotoProduct: {
    method: 'get',
    path: '/photo-products/:id',
    tag: 'photo-products',
    summary: 'A photo product with its variants and prices',
    auth: 'none',
    params: photoProductParamsSchema,
    response: photoProductSchema,
  },
} as const satisfies Record<string, Endpoint>
