import { queryOptions } from '@tanstack/react-query'
import { createServerFn } from '@tanstack/react-start'
import { authenticateSessionSchema, demoSignInSchema, demoUsersSchema } from '~/contract/growth'
import { z } from '~/contract/zod'
import { ApiClientError } from '~/lib/api-client'
import { apiForRequest } from '~/lib/api-call.server'

/** The signed-in user, or null when the API says there is no session. */
export const getCurrentUser = createServerFn({ method: 'GET' }).handler(async () => {
  try {
    const session = await apiForRequest().call('/growth/authenticate-session', { schema: authenticateSessionSchema })
    return session.user
  } catch (error) {
    if (error instanceof ApiClientError && error.status === 401) return null
    throw error
  }
})

export const currentUserQuery = () => queryOptions({ queryKey: ['current-user'], queryFn: () => getCurrentUser() })

/** The demo accounts, or null when demo mode is off (the API then has no demo endpoints). */
export const getDemoUsers = createServerFn({ method: 'GET' }).handler(async () => {
  try {
    return await apiForRequest().call('/demo/users', { schema: demoUsersSchema })
  } catch (error) {
    if (error instanceof ApiClientError && error.status === 404) return null
    throw error
  }
})

export const signInAsDemoUser = createServerFn({ method: 'POST' })
  .validator(demoSignInSchema)
  .handler(({ data }) => apiForRequest().call('/demo/sessions', { method: 'POST', body: data, schema: authenticateSessionSchema }))

/** POST /v1/demo/guests: a brand-new demo family member (no orders yet, photos in the album), signed in. */
export const signInAsNewFamily = createServerFn({ method: 'POST' }).handler(() =>
  apiForRequest().call('/demo/guests', { method: 'POST', schema: authenticateSessionSchema }),
)

export const signOut = createServerFn({ method: 'POST' }).handler(() =>
  apiForRequest().call('/growth/authenticate-session', { method: 'DELETE', schema: z.object({ authenticated: z.literal(false) }) }),
)
