import type { Endpoint } from '../endpoint'
import { bundlesResponseSchema } from '../bundles'

export const bundlesApi = {
  listBundles: {
    method: 'get',
    path: '/loop/bundles',
    tag: 'loop',
    summary: 'Ornament bundles with their prices from the catalogue; a cart holding a bundle’s items is charged its bundle price',
    auth: 'none',
    response: bundlesResponseSchema,
  },
} as const satisfies Record<string, Endpoint>
