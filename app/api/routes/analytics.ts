import { analyticsApi } from '../../contract/endpoints/analytics'
import { Hono } from 'hono'
import { endpoint } from '../endpoint'
import type { ApiEnv } from '../env'
import { recordAnalyticsEvents } from '../services/analytics'

export const analyticsRoutes = new Hono<ApiEnv>()

endpoint(analyticsRoutes, analyticsApi.recordEvents, async ({ body, user }, c) => {
  const { db, now } = c.get('deps')
  return { accepted: await recordAnalyticsEvents(db, body.events, user?.id ?? null, now()) }
})
