import { Hono } from 'hono'
import { bundlesResponseSchema } from '../../contract/bundles'
import { endpoint } from '../endpoint'
import type { ApiEnv } from '../env'
import { listBundles } from '../services/bundles'

export const bundleRoutes = new Hono<ApiEnv>()

endpoint(
  bundleRoutes,
  {
    method: 'get',
    path: '/loop/bundles',
    tag: 'loop',
    summary: 'Ornament bundles with their prices from the catalogue; a cart holding a bundle’s items is charged its bundle price',
    auth: 'none',
    response: bundlesResponseSchema,
  },
  () => listBundles(),
)
