import type { SavedDesign } from '~/contract/saved-designs'
import { urlAtSize, type ChosenPhoto } from '~/lib/photo-conversion'
import { backSides as catalogueBackSides, findOrnamentVariant, photoCells, templateForVariant } from '~/catalogue/ornaments'
import type { BackSide, DesignAction, DesignCell, DesignState } from './design-state'
import type { Draft, DraftPhoto } from './draft'
import { reconcile } from './draft-merge'

/** A photo chosen in the picker as the designer keeps it. */
export const draftPhotoOf = (photo: ChosenPhoto): DraftPhoto => ({
  id: photo.id,
  // A chosen photo's url is its smartphone rendition (the preview's texture); width and height are the original's.
  url: urlAtSize(photo.url, 'smartphone') ?? photo.url,
  width: photo.width,
  height: photo.height,
  focalPoint: photo.focalPoint ?? null,
})

export type RestoreInput = {
  cells: DesignCell[]
  /** This device's draft of the variant. */
  device: Draft | null
  /** Signed in: who, and the account's saved design of the variant (undefined when it has none). */
  account: { userId: string; saved: SavedDesign | undefined } | null
  /** The photos chosen in the picker this visit, in fill order. */
  chosen: ChosenPhoto[]
  /** Arriving from the picker: its chosen photos win over an older draft. */
  preferChosen: boolean
}

export type RestorePlan = {
  /** What the designer starts from. */
  action: Extract<DesignAction, { type: 'restore' }>
  /** This device's draft should be saved to the account (decision 033). */
  push: boolean
  /** This device's draft was deleted from the account elsewhere: forget it here too. */
  drop: boolean
}

/**
 * Where the designer starts: the device's draft and the account's copy reconciled (draft-merge.ts),
 * then the picker's chosen photos over it when the shopper arrives from the picker (or has no
 * photos placed yet). A chosen photo that is already in its cell keeps its placement.
 */
export function planRestore({ cells, device, account, chosen, preferChosen }: RestoreInput): RestorePlan {
  let draft = device
  let push = false
  let drop = false
  if (account) {
    const merged = reconcile(account.userId, device, account.saved)
    push = merged.push && device !== null
    drop = merged.drop
    draft = merged.draft
  }
  const base = { type: 'restore' as const, backSideId: draft?.backSideId ?? null, text: draft?.text ?? null }
  const draftHasPhotos = Object.keys(draft?.photos ?? {}).length > 0
  if (chosen.length === 0 || (!preferChosen && draftHasPhotos)) {
    return { action: { ...base, photos: draft?.photos ?? {}, transforms: draft?.transforms ?? {} }, push, drop }
  }
  const photos: Draft['photos'] = {}
  const transforms: Draft['transforms'] = {}
  cells.forEach((cell, i) => {
    const photo = chosen[i]
    if (!photo) return
    photos[cell.id] = draftPhotoOf(photo)
    const kept = draft?.photos[cell.id]?.id === photo.id ? draft.transforms[cell.id] : undefined
    if (kept) transforms[cell.id] = kept
  })
  return { action: { ...base, photos, transforms, changed: true }, push, drop }
}

/**
 * Choosing another shape: the photos travel to the new shape's cells in the same order (their
 * placement starts afresh) with the same back design and text, as that variant's draft. Null when
 * there are no photos to carry (the new shape's own draft, if any, stays).
 */
export function draftForShape(state: DesignState, cells: DesignCell[], backSides: BackSide[], targetVariantId: number, userId: string | null): Draft | null {
  const targetTemplate = templateForVariant(targetVariantId)
  const targetVariant = findOrnamentVariant(targetVariantId)
  if (!targetTemplate || !targetVariant) return null
  const photos: Draft['photos'] = {}
  photoCells(targetTemplate).forEach((targetCell, i) => {
    const photo = cells[i] && state.photos[cells[i].id]
    if (photo) photos[targetCell.id] = photo
  })
  if (Object.keys(photos).length === 0) return null
  const designNumber = backSides.find((b) => b.id === state.backSideId)?.backsideId
  const backSideId = catalogueBackSides[targetVariant.shape].find((b) => b.backsideId === designNumber)?.id ?? null
  return {
    photos,
    transforms: {},
    backSideId,
    ...(state.text ? { text: state.text } : {}),
    editedAt: new Date().toISOString(),
    owner: userId,
    synced: false,
  }
}
