import type { Endpoint } from '../endpoint'
import { authenticateSessionSchema, demoSignInSchema, demoUsersSchema } from '../growth'

export const demoApi = {
  listDemoUsers: { method: 'get', path: '/demo/users', tag: 'demo', summary: 'The demo accounts (demo mode only)', auth: 'none', response: demoUsersSchema },
  createDemoSession: {
    method: 'post',
    path: '/demo/sessions',
    tag: 'demo',
    summary: 'Sign in as a demo account (demo mode only)',
    auth: 'none',
    body: demoSignInSchema,
    response: authenticateSessionSchema,
    status: 201,
  },
  createDemoGuest: {
    method: 'post',
    path: '/demo/guests',
    tag: 'demo',
    summary: 'Sign in as a brand-new demo shopper, to try the friend’s side of an invite (demo mode only)',
    auth: 'none',
    response: authenticateSessionSchema,
    status: 201,
  },
} as const satisfies Record<string, Endpoint>
