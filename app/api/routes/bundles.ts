import { bundlesApi } from '../../contract/endpoints/bundles'
import { Hono } from 'hono'
import { endpoint } from '../endpoint'
import type { ApiEnv } from '../env'
import { listBundles } from '../services/bundles'

export const bundleRoutes = new Hono<ApiEnv>()

endpoint(bundleRoutes, bundlesApi.listBundles, () => listBundles())
