import { createServerFn } from '@tanstack/react-start'
import { designSharesApi } from '~/contract/endpoints/design-shares'
import { designShareTokenParamsSchema } from '~/contract/design-shares'
import { z } from '~/contract/zod'
import { outcomeOf } from '~/lib/api-outcome.server'
import { apiMiddleware } from '~/lib/api.middleware'

/** The family member loves the shared design (true) or takes it back (false). */
export const setShareLove = createServerFn({ method: 'POST' })
  .middleware([apiMiddleware])
  .validator(designShareTokenParamsSchema.extend({ loved: z.boolean() }))
  .handler(({ data: { token, loved }, context: { api } }) =>
    outcomeOf(() => api.call(loved ? designSharesApi.loveSharedDesign : designSharesApi.unloveSharedDesign, { params: { token } })),
  )
