import { createServerFn } from '@tanstack/react-start'
import { demoSignInSchema } from '~/contract/growth'
import { demoApi } from '~/contract/endpoints/demo'
import { orAbsent } from '~/lib/api-outcome.server'
import { apiMiddleware } from '~/lib/api.middleware'

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
