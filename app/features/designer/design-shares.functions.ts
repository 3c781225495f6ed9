import { queryOptions } from '@tanstack/react-query'
import { createServerFn } from '@tanstack/react-start'
import { createDesignShareRequestSchema, designSharesQuerySchema, designShareTokenParamsSchema } from '~/contract/design-shares'
import { designSharesApi } from '~/contract/endpoints/design-shares'
import { z } from '~/contract/zod'
import { orSignedOut, outcomeOf } from '~/lib/api-outcome.server'
import { apiMiddleware } from '~/lib/api.middleware'

/** The live shares of one saved design with the family's answers, and the families it can go to; null when signed out. */
export const getDesignShares = createServerFn({ method: 'GET' })
  .middleware([apiMiddleware])
  .validator(designSharesQuerySchema)
  .handler(({ data, context: { api } }) => orSignedOut(() => api.call(designSharesApi.listDesignShares, { query: data })))

/** Sends a saved design to one of the shopper's families (422 with the reason when it cannot go). */
export const shareDesign = createServerFn({ method: 'POST' })
  .middleware([apiMiddleware])
  .validator(createDesignShareRequestSchema)
  .handler(({ data, context: { api } }) => outcomeOf(() => api.call(designSharesApi.createDesignShare, { body: data })))

export const revokeDesignShare = createServerFn({ method: 'POST' })
  .middleware([apiMiddleware])
  .validator(designShareTokenParamsSchema)
  .handler(({ data, context: { api } }) => outcomeOf(() => api.call(designSharesApi.revokeDesignShare, { params: data })))

/** A shared design as a family member sees it: 401 signed out, 404 when it is not theirs to see. */
export const getSharedDesign = createServerFn({ method: 'GET' })
  .middleware([apiMiddleware])
  .validator(designShareTokenParamsSchema)
  .handler(({ data, context: { api } }) => outcomeOf(() => api.call(designSharesApi.getSharedDesign, { params: data })))

export const setShareLove = createServerFn({ method: 'POST' })
  .middleware([apiMiddleware])
  .validator(designShareTokenParamsSchema.extend({ loved: z.boolean() }))
  .handler(({ data: { token, loved }, context: { api } }) =>
    outcomeOf(() => api.call(loved ? designSharesApi.loveSharedDesign : designSharesApi.unloveSharedDesign, { params: { token } })),
  )

/** Writes the member's note (`note`), or deletes it (null); the API checks the note, so its refusal comes back as an outcome. */
export const setShareNote = createServerFn({ method: 'POST' })
  .middleware([apiMiddleware])
  .validator(designShareTokenParamsSchema.extend({ note: z.string().nullable() }))
  .handler(({ data: { token, note }, context: { api } }) =>
    outcomeOf(() =>
      note === null
        ? api.call(designSharesApi.deleteShareNote, { params: { token } })
        : api.call(designSharesApi.writeShareNote, { params: { token }, body: { note } }),
    ),
  )

export const designSharesQuery = (designId: string) =>
  queryOptions({ queryKey: ['design-shares', designId], queryFn: () => getDesignShares({ data: { designId } }) })

export const sharedDesignQuery = (token: string) => queryOptions({ queryKey: ['shared-design', token], queryFn: () => getSharedDesign({ data: { token } }) })
