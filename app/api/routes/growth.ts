import { Hono } from 'hono'
import { authenticateSessionSchema, transitionTokenSchema } from '../../contract/growth'
import { z } from '../../contract/zod'
import { endpoint } from '../endpoint'
import type { ApiEnv } from '../env'
import { AppError } from '../errors'
import { endSession, findUser, issueTransitionToken, redeemTransitionToken } from '../services/accounts'
import { clearCookieSession, startCookieSession } from '../session-cookie'

export const growthRoutes = new Hono<ApiEnv>()

endpoint(
  growthRoutes,
  {
    method: 'get',
    path: '/growth/transition-token',
    tag: 'growth',
    summary: 'Issue a one-time transition code for the signed-in user (expires in 5 minutes)',
    auth: 'user',
    response: transitionTokenSchema,
  },
  async ({ user }, c) => {
    const { db, now } = c.get('deps')
    const { code, expiresAt } = await issueTransitionToken(db, user.id, now())
    return { transitionToken: code, expiresAt: expiresAt.toISOString() }
  },
)

endpoint(
  growthRoutes,
  {
    method: 'post',
    path: '/growth/transition-token',
    tag: 'growth',
    summary: 'Sign in with a transition code carried in the Authorization header',
    auth: 'none',
    headers: { authorization: 'Bearer <transition code>' },
    response: authenticateSessionSchema,
  },
  async (_input, c) => {
    const header = c.req.header('authorization')?.trim() ?? ''
    const code = header.replace(/^Bearer\s+/i, '').trim()
    if (!code) throw new AppError('unauthenticated', 'Send the transition code in the Authorization header')
    const { db, now } = c.get('deps')
    const userId = code.length <= 128 ? await redeemTransitionToken(db, code, now()) : null
    if (!userId) throw new AppError('unauthenticated', 'This sign-in link has expired or was already used')
    await startCookieSession(c, userId)
    return { authenticated: true, user: await findUser(db, userId) }
  },
)

endpoint(
  growthRoutes,
  {
    method: 'get',
    path: '/growth/authenticate-session',
    tag: 'growth',
    summary: 'Check the session: 200 with the user, or 401 when signed out',
    auth: 'user',
    response: authenticateSessionSchema,
  },
  ({ user }) => ({ authenticated: true, user }),
)

endpoint(
  growthRoutes,
  {
    method: 'delete',
    path: '/growth/authenticate-session',
    tag: 'growth',
    summary: 'Sign out: end the session and clear its cookie',
    auth: 'none',
    response: z.object({ authenticated: z.literal(false) }),
  },
  async (_input, c) => {
    const token = c.get('sessionToken')
    if (token) await endSession(c.get('deps').db, token)
    clearCookieSession(c)
    return { authenticated: false as const }
  },
)
