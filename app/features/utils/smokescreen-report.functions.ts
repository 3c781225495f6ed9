import { createServerFn } from '@tanstack/react-start'
import { smokescreensApi } from '~/contract/endpoints/smokescreens'
import { orAbsent } from '~/lib/api-outcome.server'
import { apiMiddleware } from '~/lib/api.middleware'

/** /utils/smokescreens: sign-ups per product, or null when demo mode is off (the API answers 404; the page is then absent). */
export const getSmokescreenReport = createServerFn({ method: 'GET' })
  .middleware([apiMiddleware])
  .handler(({ context: { api } }) => orAbsent(() => api.call(smokescreensApi.report)))
