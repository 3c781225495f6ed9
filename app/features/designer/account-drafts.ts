import { ornamentVariants } from '~/catalogue/ornaments'
import type { SaveDesignRequest, SavedDesign } from '~/contract/saved-designs'
import { readDraft, removeDraft, writeDraft, type Draft } from './draft'
import { saveDesign } from './saved-designs.functions'

/**
 * A device's draft meets the account's saved design (decision 032). The account's copy is the truth
 * for a draft this device already saved there; a draft made signed out (or before accounts kept
 * designs) or changed since it was saved joins the account, the later edit winning when both have
 * one. A draft another shopper made on this device is never theirs to take.
 */
export type Reconciled = {
  /** What the designer should show (null: start afresh). */
  draft: Draft | null
  /** The device's draft should be saved to the account. */
  push: boolean
  /** The device's draft was deleted from the account elsewhere: forget it here too. */
  drop: boolean
}

const time = (iso: string | undefined) => (iso ? Date.parse(iso) : Number.NEGATIVE_INFINITY)
const hasPhotos = (draft: Draft | null): draft is Draft => Object.keys(draft?.photos ?? {}).length > 0

export function draftOfSaved(design: SavedDesign, userId: string): Draft {
  return {
    photos: Object.fromEntries(Object.entries(design.photos).map(([cellId, p]) => [cellId, { id: p.id, url: p.url, width: p.width, height: p.height }])),
    transforms: design.transforms,
    backSideId: design.backSideId,
    editedAt: design.updatedAt,
    owner: userId,
    synced: true,
  }
}

export function saveRequestOf(draft: Draft): SaveDesignRequest {
  return {
    photos: Object.fromEntries(Object.entries(draft.photos).map(([cellId, p]) => [cellId, p.id])),
    transforms: draft.transforms,
    backSideId: draft.backSideId,
    ...(draft.editedAt ? { editedAt: draft.editedAt } : {}),
  }
}

export function reconcile(userId: string, local: Draft | null, saved: SavedDesign | undefined): Reconciled {
  const fromAccount = saved ? draftOfSaved(saved, userId) : null
  const mine = local && (local.owner === undefined || local.owner === null || local.owner === userId)
  if (!local || !mine) return { draft: fromAccount, push: false, drop: false }
  if (local.synced && local.owner === userId) {
    if (!saved) return { draft: null, push: false, drop: true }
    return time(local.editedAt) > time(saved.updatedAt) ? { draft: local, push: true, drop: false } : { draft: fromAccount, push: false, drop: false }
  }
  if (!hasPhotos(local)) return { draft: fromAccount ?? local, push: false, drop: false }
  if (!saved || time(local.editedAt) > time(saved.updatedAt)) return { draft: local, push: true, drop: false }
  return { draft: fromAccount, push: false, drop: false }
}

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
