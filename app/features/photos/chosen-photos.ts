import { useEffect, useState } from 'react'
import { readFocalPoint } from '~/catalogue/focal-point'
import type { ChosenPhoto } from '~/lib/photo-conversion'

const STORAGE_KEY = 'keepsake.chosen-photos'

/** The photos chosen for the next ornament, kept for the tab's session so the designer can pick them up. */
export function useChosenPhotos(): [ChosenPhoto[], (next: ChosenPhoto[]) => void] {
  const [chosen, setChosen] = useState<ChosenPhoto[]>([])
  useEffect(() => {
    try {
      const saved = JSON.parse(sessionStorage.getItem(STORAGE_KEY) ?? '[]') as unknown
      if (Array.isArray(saved)) {
        const kept = saved.filter((p): p is ChosenPhoto => typeof p?.id === 'string' && typeof p?.url === 'string')
        // A focal point that is not one (a hand-edited or older entry) is none: the photo starts centred.
        setChosen(kept.map((photo) => ({ ...photo, focalPoint: readFocalPoint(photo.focalPoint) })))
      }
    } catch {
      sessionStorage.removeItem(STORAGE_KEY)
    }
  }, [])
  const update = (next: ChosenPhoto[]) => {
    setChosen(next)
    // The base64 copy is large and can be made again; only ids and urls are kept.
    sessionStorage.setItem(STORAGE_KEY, JSON.stringify(next.map(({ base64: _base64, ...photo }) => photo)))
  }
  return [chosen, update]
}
