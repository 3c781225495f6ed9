import { useCallback, useEffect, useRef, useState, type Dispatch } from 'react'
import type { OrnamentSide } from '~/catalogue/personal-line'
import { IDENTITY_TRANSFORM } from '~/compositor/layout'
import type { LineContrast } from '~/compositor/line-contrast'
import type { OrnamentPreview } from '~/compositor/pixi-preview'
import { notify } from '~/lib/toast'
import type { BackSide, DesignAction, DesignCell, DesignState } from './design-state'

/** A line's contrast is measured once the photos under it have been still this long. */
const CONTRAST_SETTLE_MS = 150

export type LineContrasts = Partial<Record<OrnamentSide, LineContrast>>

/** Tasks run one after another per preview and key, so a slow load never lands after a newer one. */
function useSerialTasks() {
  const chains = useRef(new WeakMap<object, Map<string, Promise<unknown>>>())
  return useCallback(<T>(owner: object, key: string, task: () => Promise<T>): Promise<T> => {
    let byKey = chains.current.get(owner)
    if (!byKey) chains.current.set(owner, (byKey = new Map()))
    const next = (byKey.get(key) ?? Promise.resolve()).then(task, task)
    byKey.set(
      key,
      next.catch(() => undefined),
    )
    return next
  }, [])
}

type PreviewSyncOptions = {
  preview: OrnamentPreview | null
  state: DesignState
  cells: DesignCell[]
  backSides: BackSide[]
  slotName: (cell: DesignCell) => string
  dispatch: Dispatch<DesignAction>
}

/**
 * Draws the model on the live preview: each cell's photo (loaded in order, the latest choice
 * winning), its transform, the back side (telling the model once it is drawn) and the personal line.
 * Answers the cells whose photo is still loading, and how each personal line reads on the photo under
 * it (measured on the preview's own pixels once photos and line are drawn and still: never mid-drag).
 * A failure to draw says so in a toast.
 */
export function usePreviewSync({ preview, state, cells, backSides, slotName, dispatch }: PreviewSyncOptions) {
  const serial = useSerialTasks()
  /** What each preview was last asked to show per cell (a replaced preview starts afresh). */
  const applied = useRef(new WeakMap<OrnamentPreview, Map<string, string | null>>())
  /** Previews taken down: their late answers are ignored. */
  const retired = useRef(new WeakSet<OrnamentPreview>())
  const [loading, setLoading] = useState<ReadonlyMap<string, string>>(new Map())
  /** Counts the lines drawn, so the contrast is measured on the line the preview shows. */
  const [linesDrawn, setLinesDrawn] = useState(0)
  const [contrast, setContrast] = useState<LineContrasts | null>(null)

  useEffect(() => {
    const taken = retired.current
    if (!preview) return
    return () => void taken.add(preview)
  }, [preview])

  useEffect(() => {
    if (!preview) return
    let current = applied.current.get(preview)
    if (!current) applied.current.set(preview, (current = new Map()))
    const asked = current
    for (const cell of cells) {
      const url = state.photos[cell.id]?.url ?? null
      if ((asked.get(cell.id) ?? null) === url) continue
      asked.set(cell.id, url)
      setLoading((prev) => {
        const next = new Map(prev)
        if (url) next.set(cell.id, url)
        else next.delete(cell.id)
        return next
      })
      const start = state.transforms[cell.id] ?? IDENTITY_TRANSFORM
      serial(preview, cell.id, async () => {
        if (asked.get(cell.id) === url && !retired.current.has(preview)) await preview.setPhoto(cell.id, url, start)
      })
        .catch((error: unknown) => {
          if (retired.current.has(preview) || asked.get(cell.id) !== url) return
          asked.delete(cell.id)
          console.error('A photo could not be drawn in the preview', error)
          notify.error(`The photo for the ${slotName(cell).toLowerCase()} could not be shown in the preview. Check your connection and choose it again.`)
        })
        // Done loading: the render this causes applies the transform the shopper may have changed meanwhile.
        .finally(() =>
          setLoading((prev) => {
            if (prev.get(cell.id) !== url) return prev
            const next = new Map(prev)
            next.delete(cell.id)
            return next
          }),
        )
    }
    // The transforms a load starts from are read when it starts; later ones arrive through the effect below.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [preview, state.photos, cells, serial, slotName])

  useEffect(() => {
    if (!preview) return
    for (const cell of cells) {
      const t = state.transforms[cell.id]
      if (t && preview.photoSizeOf(cell.id)) preview.setTransform(cell.id, t)
    }
  }, [preview, state.transforms, cells, loading])

  useEffect(() => {
    if (!preview) return
    const backSide = backSides.find((b) => b.id === state.backSideId)
    if (!backSide) return
    serial(preview, 'back-side', () => preview.setBackSide(backSide.backsideUrl)).then(
      () => {
        if (!retired.current.has(preview)) dispatch({ type: 'backSideDrawn', backSideId: backSide.id })
      },
      (error: unknown) => {
        if (retired.current.has(preview)) return
        console.error('A back side could not be drawn in the preview', error)
        notify.error(`The ${backSide.name} back could not be shown in the preview. Check your connection and choose it again.`)
      },
    )
  }, [preview, state.backSideId, backSides, serial, dispatch])

  useEffect(() => {
    if (!preview) return
    const text = state.text
    serial(preview, 'text', () => preview.setText(text)).then(
      () => setLinesDrawn((n) => n + 1),
      (error: unknown) => {
        if (retired.current.has(preview)) return
        console.error('The personal line could not be drawn in the preview', error)
        notify.error('Your text could not be shown in the preview. Check your connection and try again.')
      },
    )
  }, [preview, state.text, serial])

  // Measured on what is committed (state.history), not on every move of a drag.
  const hasText = state.text !== null
  useEffect(() => {
    if (!preview || !hasText) return setContrast(null)
    const timer = window.setTimeout(() => {
      if (!retired.current.has(preview)) setContrast(preview.lineContrast())
    }, CONTRAST_SETTLE_MS)
    return () => window.clearTimeout(timer)
  }, [preview, hasText, linesDrawn, loading, state.history])

  return { loading, contrast }
}
