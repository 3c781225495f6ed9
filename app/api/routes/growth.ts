import { growthApi } from '../../contract/endpoints/growth'
import { Hono } from 'hono'
import { SIGN_IN_LINK_TTL_MINUTES } from '../../contract/growth'
import { endpoint } from '../endpoint'
import type { ApiEnv } from '../env'
import { AppError } from '../errors'
import { currentClientAddress } from '../client-address'
import { endAllSessions, endSession, findUser, issueTransitionToken, redeemTransitionToken } from '../services/accounts'
import { redeemSignInLink, requestSignInLink } from '../services/sign-in-links'
import { clearCookieSession, startCookieSession } from '../session-cookie'

export const growthRoutes = new Hono<ApiEnv>()

endpoint(growthRoutes, growthApi.getTransitionToken, async ({ user }, c) => {
  const { db, now } = c.get('deps')
  const { code, expiresAt } = await issueTransitionToken(db, user.id, now())
  return { transitionToken: code, expiresAt: expiresAt.toISOString() }
})

endpoint(growthRoutes, growthApi.exchangeTransitionToken, async (_input, c) => {
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
})

endpoint(growthRoutes, growthApi.authenticateSession, ({ user }) => ({ authenticated: true, user }))

endpoint(growthRoutes, growthApi.signOut, async (_input, c) => {
  const token = c.get('sessionToken')
  if (token) await endSession(c.get('deps').db, token)
  clearCookieSession(c)
  return { authenticated: false as const }
})

endpoint(growthRoutes, growthApi.createSignInLink, async ({ body }, c) => {
  await requestSignInLink(c.get('deps'), body, currentClientAddress())
  return { sent: true as const, expiresInMinutes: SIGN_IN_LINK_TTL_MINUTES }
})

endpoint(growthRoutes, growthApi.redeemSignInLink, async ({ body }, c) => {
  const deps = c.get('deps')
  const { userId, redirect } = await redeemSignInLink(deps, body.token, currentClientAddress())
  await startCookieSession(c, userId)
  return { authenticated: true, user: await findUser(deps.db, userId), redirect }
})

endpoint(growthRoutes, growthApi.signOutEverywhere, async ({ user }, c) => {
  const sessionsEnded = await endAllSessions(c.get('deps').db, user.id)
  clearCookieSession(c)
  return { authenticated: false as const, sessionsEnded }
})
