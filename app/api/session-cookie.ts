import type { Context } from 'hono'
import { deleteCookie, setCookie } from 'hono/cookie'
import { SESSION_COOKIE } from '../contract/headers'
import type { ApiEnv } from './env'
import { createSession } from './services/accounts'

/** Starts a session for the user and hands the browser an HttpOnly, SameSite=Lax cookie (Secure over https). */
export async function startCookieSession(c: Context<ApiEnv>, userId: string) {
  const { db, config, now } = c.get('deps')
  const { token, expiresAt } = await createSession(db, userId, now())
  setCookie(c, SESSION_COOKIE, token, {
    path: '/',
    httpOnly: true,
    sameSite: 'Lax',
    secure: config.secureCookies,
    expires: expiresAt,
  })
}

export function clearCookieSession(c: Context<ApiEnv>) {
  deleteCookie(c, SESSION_COOKIE, { path: '/', secure: c.get('deps').config.secureCookies })
}
