import { createServerFn } from '@tanstack/react-start'
import { designSharesApi } from '~/contract/endpoints/design-shares'
import { designShareTokenParamsSchema } from '~/contract/design-shares'
import { z } from '~/contract/zod'
import { outcomeOf } from '~/lib/api-outcome.server'
import { apiMiddleware } from '~/lib/api.middleware'

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
