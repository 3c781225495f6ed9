import { demoApi } from '../../contract/endpoints/demo'
import { Hono } from 'hono'
import { endpoint } from '../endpoint'
import type { ApiEnv } from '../env'
import { AppError } from '../errors'
import { findUser } from '../services/accounts'
import { createDemoGuest, isDemoUser, listDemoUsers } from '../demo/accounts'
import { currentClientAddress } from '../client-address'
import { enforceRateLimits, type RateLimitRule } from '../rate-limit'
import { startCookieSession } from '../session-cookie'

/** Demo sign-in, present only in DEMO_MODE; otherwise these paths do not exist (404). */
// The guard is scoped to /demo/*: mounted at '/', a '*' middleware would guard every route after it.
export const demoRoutes = new Hono<ApiEnv>()

const DEMO_GUESTS_PER_ADDRESS: RateLimitRule = { name: 'demo-guests-address', limit: 60, windowMs: 3600_000, whenStoreDown: 'open' }

demoRoutes.use('/demo/*', async (c, next) => {
  if (!c.get('deps').config.demoMode) throw new AppError('not_found', `No such endpoint: ${c.req.method} ${c.req.path}`)
  await next()
})

endpoint(demoRoutes, demoApi.listDemoUsers, () => ({ users: listDemoUsers() }))

endpoint(demoRoutes, demoApi.createDemoSession, async ({ body }, c) => {
  const { db } = c.get('deps')
  if (!(await isDemoUser(db, body.userId))) throw new AppError('not_found', 'Demo account not found')
  await startCookieSession(c, body.userId)
  return { authenticated: true, user: await findUser(db, body.userId) }
})

endpoint(demoRoutes, demoApi.createDemoGuest, async (_input, c) => {
  const deps = c.get('deps')
  await enforceRateLimits(deps.rateLimiter, [{ rule: DEMO_GUESTS_PER_ADDRESS, key: currentClientAddress() }], deps.now())
  const userId = await createDemoGuest(deps.db)
  await startCookieSession(c, userId)
  return { authenticated: true, user: await findUser(deps.db, userId) }
})
