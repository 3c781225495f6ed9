import { useEffect } from 'react'
import { track } from '~/lib/analytics'

/** The variant whose DidSelectPodTemplate the shape chooser already tracked, so its page does not track it twice. */
let chosenByClick: number | null = null

/** The shape chooser's click: tracked there, with its source. */
export function trackShapeChosen(variantId: number, pseudoTemplateId: string) {
  chosenByClick = variantId
  track('DidSelectPodTemplate', { variantId, pseudoTemplateId, source: 'shape-chooser' })
}

/** The shape shown, once per page visit, unless the chooser's click already said so. */
export function useTrackShapeShown(variantId: number, pseudoTemplateId: string) {
  useEffect(() => {
    if (chosenByClick === variantId) {
      chosenByClick = null
      return
    }
    track('DidSelectPodTemplate', { variantId, pseudoTemplateId, source: 'page' })
  }, [variantId, pseudoTemplateId])
}
