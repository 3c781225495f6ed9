import { queryOptions } from '@tanstack/react-query'
import { createServerFn } from '@tanstack/react-start'
import { growthApi } from '~/contract/endpoints/growth'
import { orSignedOut } from '~/lib/api-outcome.server'
import { apiMiddleware } from '~/lib/api.middleware'

/**
 * Who is signed in, which the header's account menu asks on every page. Only that lives here: the demo sign-in's
 * functions (demo-sign-in.functions.ts) and signing out (sign-in.functions.ts) would ride along in every page's
 * first load (decision 049).
 */

/** The signed-in user, or null when the API says there is no session. */
export const getCurrentUser = createServerFn({ method: 'GET' })
  .middleware([apiMiddleware])
  .handler(({ context: { api } }) => orSignedOut(async () => (await api.call(growthApi.authenticateSession)).user))

export const currentUserQuery = () => queryOptions({ queryKey: ['current-user'], queryFn: () => getCurrentUser() })
