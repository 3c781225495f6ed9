import { ornamentVariants } from '~/catalogue/ornaments'
import type { SavedDesign } from '~/contract/saved-designs'
import { readDraft, removeDraft, writeDraft, type Draft } from './draft'
import { reconcile, saveRequestOf } from './draft-merge'
import { saveDesign } from './saved-designs.functions'

/** Saves a device draft to the account; on success this device's copy is marked as the account's. */
export async function pushDraft(variantId: number, draft: Draft, userId: string): Promise<SavedDesign | null> {
  const outcome = await saveDesign({ data: { variantId, design: saveRequestOf(draft) } })
  if (!outcome.ok) return null
  // Only if it was not changed again meanwhile.
  const now = readDraft(variantId)
  if (now && now.editedAt === draft.editedAt) writeDraft(variantId, { ...now, owner: userId, synced: true })
  return outcome.data
}

/**
 * At sign-in (the first account page that sees this device): every variant's device draft is merged
 * into the account. Answers whether the account's designs changed.
 */
export async function mergeDeviceDrafts(userId: string, saved: SavedDesign[]): Promise<boolean> {
  let changed = false
  for (const variant of ornamentVariants) {
    const local = readDraft(variant.id)
    if (!local) continue
    const { push, drop } = reconcile(
      userId,
      local,
      saved.find((d) => d.variantId === variant.id),
    )
    if (drop) removeDraft(variant.id)
    // A draft naming photos this account cannot see is refused (404) and stays on the device only.
    if (push && (await pushDraft(variant.id, local, userId))) changed = true
  }
  return changed
}
