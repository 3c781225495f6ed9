import { ornamentVariants } from '~/catalogue/ornaments'
import type { SavedDesign } from '~/contract/saved-designs'
import { pushDraft } from './api/save-design.functions'
import { readDraft, removeDraft } from './draft'
import { reconcile } from './draft-merge'

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
