import { useCallback, useEffect, useRef, type Dispatch } from 'react'
import type { PhotoTransform } from '~/compositor/layout'
import type { AdjustMode } from './AdjustControls'
import { clampFor, type DesignAction, type DesignCell, type DesignState } from './design-state'

/** A slider or wheel change joins the undo history once it has settled this long. */
const SETTLE_MS = 400

/**
 * Adjusting a photo: a committed change (a button, a key) joins the undo history at once; a live one
 * (a slider, the wheel) moves the photo and joins the history once it settles. Every transform is
 * clamped so the cell stays covered.
 */
export function useAdjust(state: DesignState, cells: DesignCell[], dispatch: Dispatch<DesignAction>) {
  const settle = useRef(0)
  useEffect(() => () => window.clearTimeout(settle.current), [])
  const cancelSettle = useCallback(() => window.clearTimeout(settle.current), [])
  const adjust = (cellId: string, next: PhotoTransform, mode: AdjustMode) => {
    const cell = cells.find((c) => c.id === cellId)
    const photo = state.photos[cellId]
    if (!cell || !photo) return
    const transform = clampFor(cell, photo, next)
    window.clearTimeout(settle.current)
    if (mode === 'commit') return dispatch({ type: 'commit', cellId, transform })
    dispatch({ type: 'move', cellId, transform })
    settle.current = window.setTimeout(() => dispatch({ type: 'commit', cellId }), SETTLE_MS)
  }
  return { adjust, cancelSettle }
}
