import { photoProductsApi } from '../../contract/endpoints/photo-products'
import { Hono } from 'hono'
import { endpoint } from '../endpoint'
import type { ApiEnv } from '../env'
import { findPhotoProduct } from '../services/catalogue'
import { shippingCalendar } from '../services/shipping'
import { TIMEZONE_HEADER } from '../../contract/headers'

export const photoProductRoutes = new Hono<ApiEnv>()

endpoint(photoProductRoutes, photoProductsApi.getPhotoProduct, ({ params }, c) => {
  c.header('cache-control', 'public, max-age=60')
  return findPhotoProduct(params.id)
})

endpoint(photoProductRoutes, photoProductsApi.getShippingCalendar, (_input, c) => {
  // The answer depends on the shopper's time zone and day: cached by the browser only, briefly.
  c.header('cache-control', 'private, max-age=300')
  c.header('vary', TIMEZONE_HEADER)
  const deps = c.get('deps')
  return shippingCalendar(deps.now(), c.get('timezone'), deps.print.name)
})
