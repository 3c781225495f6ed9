import { queryOptions } from '@tanstack/react-query'
import { createServerFn } from '@tanstack/react-start'
import { demoSignInSchema } from '~/contract/growth'
import { demoApi } from '~/contract/endpoints/demo'
import { growthApi } from '~/contract/endpoints/growth'
import { orAbsent, orSignedOut } from '~/lib/api-outcome.server'
import { apiMiddleware } from '~/lib/api.middleware'

/** The signed-in user, or null when the API says there is no session. */
export const getCurrentUser = createServerFn({ method: 'GET' })
  .middleware([apiMiddleware])
  .handler(({ context: { api } }) => orSignedOut(async () => (await api.call(growthApi.authenticateSession)).user))

export const currentUserQuery = () => queryOptions({ queryKey: ['current-user'], queryFn: () => getCurrentUser() })

/** The demo accounts, or null when demo mode is off (the API then has no demo endpoints). */
export const getDemoUsers = createServerFn({ method: 'GET' })
  .middleware([apiMiddleware])
  .handler(({ context: { api } }) => orAbsent(() => api.call(demoApi.listDemoUsers)))

export const signInAsDemoUser = createServerFn({ method: 'POST' })
  .middleware([apiMiddleware])
  .validator(demoSignInSchema)
  .handler(({ data, context: { api } }) => api.call(demoApi.createDemoSession, { body: data }))

/** A brand-new demo family member (no orders yet, photos in the album), signed in. */
export const signInAsNewFamily = createServerFn({ method: 'POST' })
  .middleware([apiMiddleware])
  .handler(({ context: { api } }) => api.call(demoApi.createDemoGuest))

export const signOut = createServerFn({ method: 'POST' })
  .middleware([apiMiddleware])
  .handler(({ context: { api } }) => api.call(growthApi.signOut))
