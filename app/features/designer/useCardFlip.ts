import { useEffect, useRef } from 'react'
import type { OrnamentPreview } from '~/compositor/pixi-preview'
import type { PreviewSide } from './design-state'

/**
 * Shows the model's side on the live preview. A turn on the same preview is a card turning over:
 * the first half hides the old side edge-on, the second reveals the new one (none with reduced
 * motion). A new preview shows its side at once. Answers the ref of the element that turns.
 */
export function useCardFlip(preview: OrnamentPreview | null, side: PreviewSide) {
  const flipRef = useRef<HTMLDivElement>(null)
  const shown = useRef<{ preview: OrnamentPreview; side: PreviewSide } | null>(null)
  useEffect(() => {
    if (!preview) return
    const previous = shown.current
    shown.current = { preview, side }
    const show = () => preview.showSide(side)
    const el = flipRef.current
    const still = !el || typeof el.animate !== 'function' || window.matchMedia('(prefers-reduced-motion: reduce)').matches
    if (still || previous?.preview !== preview || previous.side === side) return show()
    let cancelled = false
    const half = el.animate([{ transform: 'perspective(1600px) rotateY(0deg)' }, { transform: 'perspective(1600px) rotateY(90deg)' }], {
      duration: 140,
      easing: 'ease-in',
    })
    half.finished
      .then(() => {
        show()
        el.animate([{ transform: 'perspective(1600px) rotateY(-90deg)' }, { transform: 'perspective(1600px) rotateY(0deg)' }], {
          duration: 160,
          easing: 'ease-out',
        })
      })
      .catch(() => {
        if (!cancelled) show()
      })
    return () => {
      cancelled = true
      half.cancel()
    }
  }, [preview, side])
  return flipRef
}
