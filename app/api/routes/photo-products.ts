import { photoProductsApi } from '../../contract/endpoints/photo-products'
import { Hono } from 'hono'
import { endpoint } from '../endpoint'
import type { ApiEnv } from '../env'
import { findPhotoProduct } from '../services/catalogue'

export const photoProductRoutes = new Hono<ApiEnv>()

endpoint(photoProductRoutes, photoProductsApi.getPhotoProduct, ({ params }, c) => {
  c.header('cache-control', 'public, max-age=60')
  return findPhotoProduct(params.id)
})
