import type { SaveDesignRequest, SavedDesign } from '~/contract/saved-designs'
import type { Draft } from './draft'

/**
 * A device's draft meets the account's saved design (decision 033). The account's copy is the truth
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
    photos: Object.fromEntries(
      Object.entries(design.photos).map(([cellId, p]) => [cellId, { id: p.id, url: p.url, width: p.width, height: p.height, focalPoint: p.focalPoint }]),
    ),
    transforms: design.transforms,
    backSideId: design.backSideId,
    ...(design.text ? { text: design.text } : {}),
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
    text: draft.text ?? null,
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
