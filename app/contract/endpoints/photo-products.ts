import type { Endpoint } from '../endpoint'
import { photoProductParamsSchema, photoProductSchema } from '../photo-products'
import { shippingCalendarSchema } from '../shipping'

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
  getShippingCalendar: {
    method: 'get',
    path: '/photo-products-shipping',
    tag: 'photo-products',
    summary: 'Shipping methods with the day an order placed now arrives (for the timezone header), and the last days to order for Christmas',
    auth: 'none',
    response: shippingCalendarSchema,
  },
} as const satisfies Record<string, Endpoint>
