import { useQuery } from '@tanstack/react-query'
import { useCallback, useEffect, useRef, useState, type Dispatch } from 'react'
import { currentUserQuery } from '~/features/account/account.functions'
import { useChosenPhotos } from '~/features/photos/chosen-photos'
import { pushDraft } from './api/save-design.functions'
import { savedDesignsQuery } from './api/saved-designs.functions'
import { draftOf, type DesignAction, type DesignCell, type DesignState } from './design-state'
import { readDraft, removeDraft, writeDraft, type Draft } from './draft'
import { planRestore } from './restore-plan'

/** A signed-in shopper's committed changes are saved to the account once they pause this long. */
const ACCOUNT_SAVE_MS = 800

type DesignDraftOptions = {
  variantId: number
  cells: DesignCell[]
  state: DesignState
  dispatch: Dispatch<DesignAction>
  /** Arriving from the photo picker: its chosen photos win over an older draft. */
  preferChosenPhotos: boolean
  onChosenPhotosUsed: () => void
}

/**
 * The draft (decision 033): read once on the client, with the account's copy when signed in, and
 * the picker's chosen photos (restore-plan.ts decides which wins); then saved after every committed
 * change (the model's `edits`), on this device and, signed in, to the account once the shopper
 * pauses. Answers who is signed in and `saveNow`, which sends a pending account save at once.
 */
export function useDesignDraft({ variantId, cells, state, dispatch, preferChosenPhotos, onChosenPhotosUsed }: DesignDraftOptions) {
  const [chosen] = useChosenPhotos()
  const { data: user, isPending: userPending } = useQuery(currentUserQuery())
  const userId = user?.id ?? null
  const saved = useQuery({ ...savedDesignsQuery(), enabled: Boolean(userId) })
  const accountKnown = !userPending && (!userId || !saved.isPending)
  // Read in an effect (the server has no storage); the chosen photos are read in the same commit.
  const [device, setDevice] = useState<{ draft: Draft | null } | null>(null)
  useEffect(() => setDevice({ draft: readDraft(variantId) }), [variantId])

  useEffect(() => {
    if (!device || !accountKnown || state.restored) return
    const account = userId && saved.data ? { userId, saved: saved.data.find((d) => d.variantId === variantId) } : null
    const plan = planRestore({ cells, device: device.draft, account, chosen, preferChosen: preferChosenPhotos })
    if (plan.drop) removeDraft(variantId)
    if (plan.push && device.draft && userId) void pushDraft(variantId, device.draft, userId)
    dispatch(plan.action)
    if (preferChosenPhotos) onChosenPhotosUsed()
  }, [device, accountKnown, userId, saved.data, variantId, state.restored, chosen, cells, preferChosenPhotos, onChosenPhotosUsed, dispatch])

  const pending = useRef<{ timer: number; run: () => Promise<unknown> } | null>(null)
  const saveNow = useCallback(async () => {
    const save = pending.current
    pending.current = null
    if (!save) return
    window.clearTimeout(save.timer)
    await save.run()
  }, [])
  useEffect(() => () => void saveNow(), [saveNow])

  useEffect(() => {
    if (!state.restored || state.edits === 0) return
    const edited: Draft = { ...draftOf(state), editedAt: new Date().toISOString(), owner: userId, synced: false }
    writeDraft(variantId, edited)
    if (!userId) return
    if (pending.current) window.clearTimeout(pending.current.timer)
    pending.current = { run: () => pushDraft(variantId, edited, userId), timer: window.setTimeout(() => void saveNow(), ACCOUNT_SAVE_MS) }
    // Saved when the model counts an edit, and only then: not on every change of state (a drag in progress is not an
    // edit), nor when the shopper signs in or out elsewhere (that would re-own an unchanged draft).
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [state.edits, state.restored])

  return { userId, saveNow }
}
