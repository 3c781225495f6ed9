import { Hono } from 'hono'
import { photoProductParamsSchema, photoProductSchema } from '../../contract/photo-products'
import { endpoint } from '../endpoint'
import type { ApiEnv } from '../env'
import { findPhotoProduct } from '../services/catalogue'

export const photoProductRoutes = new Hono<ApiEnv>()

endpoint(
  photoProductRoutes,
  {
    method: 'get',
    path: '/photo-products/:id',
    tag: 'photo-products',
    summary: 'A photo product with its variants and prices',
    auth: 'none',
    params: photoProductParamsSchema,
    response: photoProductSchema,
  },
  ({ params }, c) => {
    c.header('cache-control', 'public, max-age=60')
    return findPhotoProduct(params.id)
  },
)
