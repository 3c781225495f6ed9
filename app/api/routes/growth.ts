import { Hono } from 'hono'
import {
  authenticateSessionSchema,
  SIGN_IN_LINK_TTL_MINUTES,
  signedInSchema,
  signedOutSchema,
  signInLinkRedeemSchema,
  signInLinkRequestSchema,
  signInLinkSentSchema,
  transitionTokenSchema,
} from '../../contract/growth'
import { z } from '../../contract/zod'
import { endpoint } from '../endpoint'
import type { ApiEnv } from '../env'
import { AppError } from '../errors'
import { currentClientAddress } from '../client-address'
import { endAllSessions, endSession, findUser, issueTransitionToken, redeemTransitionToken } from '../services/accounts'
import { redeemSignInLink, requestSignInLink } from '../services/sign-in-links'
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
    if (!userId) {
      console.warn(`[sign-in] spent, expired or unknown transition code refused (client ${currentClientAddress()})`)
      throw new AppError('unauthenticated', 'This sign-in link has expired or was already used')
    }
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

endpoint(
  growthRoutes,
  {
    method: 'post',
    path: '/growth/sign-in-links',
    tag: 'growth',
    summary: `E-mail a one-time sign-in link (valid ${SIGN_IN_LINK_TTL_MINUTES} minutes) to the address of an album account; the same answer whether or not the address has one`,
    auth: 'none',
    body: signInLinkRequestSchema,
    response: signInLinkSentSchema,
    status: 202,
  },
  async ({ body }, c) => {
    await requestSignInLink(c.get('deps'), body, currentClientAddress())
    return { sent: true as const, expiresInMinutes: SIGN_IN_LINK_TTL_MINUTES }
  },
)

endpoint(
  growthRoutes,
  {
    method: 'post',
    path: '/growth/sign-in-links/redeem',
    tag: 'growth',
    summary: 'Sign in with the token of an e-mailed sign-in link (once); answers where to land',
    auth: 'none',
    body: signInLinkRedeemSchema,
    response: signedInSchema,
  },
  async ({ body }, c) => {
    const deps = c.get('deps')
    const { userId, redirect } = await redeemSignInLink(deps, body.token, currentClientAddress())
    await startCookieSession(c, userId)
    return { authenticated: true, user: await findUser(deps.db, userId), redirect }
  },
)

endpoint(
  growthRoutes,
  {
    method: 'delete',
    path: '/growth/sessions',
    tag: 'growth',
    summary: 'Sign out everywhere: end every session of the signed-in user, on every browser and device',
    auth: 'user',
    response: signedOutSchema,
  },
  async ({ user }, c) => {
    const sessionsEnded = await endAllSessions(c.get('deps').db, user.id)
    clearCookieSession(c)
    return { authenticated: false as const, sessionsEnded }
  },
)
