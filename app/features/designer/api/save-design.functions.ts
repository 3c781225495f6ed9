import { createServerFn } from '@tanstack/react-start'
import { savedDesignsApi } from '~/contract/endpoints/saved-designs'
import { saveDesignRequestSchema, savedDesignVariantParamsSchema, type SavedDesign } from '~/contract/saved-designs'
import { outcomeOf } from '~/lib/api-outcome.server'
import { apiMiddleware } from '~/lib/api.middleware'
import { readDraft, writeDraft, type Draft } from '../draft'
import { saveRequestOf } from '../draft-merge'

/** Saves the design of one variant to the account (404 when it names a photo the shopper cannot see). */
export const saveDesign = createServerFn({ method: 'POST' })
  .middleware([apiMiddleware])
  .validator(savedDesignVariantParamsSchema.extend({ design: saveDesignRequestSchema }))
  .handler(({ data, context: { api } }) => outcomeOf(() => api.call(savedDesignsApi.saveDesign, { params: { variantId: data.variantId }, body: data.design })))

/** Saves a device draft to the account; on success this device's copy is marked as the account's. */
export async function pushDraft(variantId: number, draft: Draft, userId: string): Promise<SavedDesign | null> {
  const outcome = await saveDesign({ data: { variantId, design: saveRequestOf(draft) } })
  if (!outcome.ok) return null
  // Only if it was not changed again meanwhile.
  const now = readDraft(variantId)
  if (now && now.editedAt === draft.editedAt) writeDraft(variantId, { ...now, owner: userId, synced: true })
  return outcome.data
}
