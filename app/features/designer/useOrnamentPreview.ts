import { useEffect, useRef, useState } from 'react'
import type { PhotoTransform } from '~/compositor/layout'
import type { OrnamentPreview } from '~/compositor/pixi-preview'
import { previewWidths } from '~/catalogue/ornaments'
import type { DesignTemplate } from './design-state'

/** The smallest preview width that fills `pixels` device pixels, at most the largest (1280). */
export function previewWidthFor(pixels: number): number {
  return previewWidths.find((w) => w >= pixels) ?? Math.max(...previewWidths)
}

export type PreviewStatus = { state: 'loading' } | { state: 'ready' } | { state: 'failed'; message: string }

type Callbacks = {
  onGesture: (cellId: string, transform: PhotoTransform, phase: 'move' | 'end') => void
  onSelect: (cellId: string) => void
}

/**
 * The live pixi preview, created in the browser only. pixi arrives through the dynamic import
 * below, in chunks of its own that no other page loads. StrictMode mounts, cleans up and mounts
 * again: a preview that finishes starting after its effect was cleaned up is destroyed at once.
 */
export function useOrnamentPreview(template: DesignTemplate, apiBaseUrl: string, callbacks: Callbacks) {
  const hostRef = useRef<HTMLDivElement>(null)
  const [preview, setPreview] = useState<OrnamentPreview | null>(null)
  const [status, setStatus] = useState<PreviewStatus>({ state: 'loading' })
  const [attempt, setAttempt] = useState(0)
  const latest = useRef(callbacks)
  useEffect(() => {
    latest.current = callbacks
  })

  useEffect(() => {
    const host = hostRef.current
    if (!host) return
    let cancelled = false
    const leaving = new AbortController()
    let created: OrnamentPreview | null = null
    let detach: (() => void) | null = null
    setStatus({ state: 'loading' })
    const baseImageUrl = (path: string, width: number) => `${apiBaseUrl}/v1/printify/base-images?path=${encodeURIComponent(path)}&width=${width}`

    void (async () => {
      const { createOrnamentPreview, attachGestures } = await import('~/compositor/pixi-preview')
      if (cancelled) return
      const width = previewWidthFor(host.clientWidth * (window.devicePixelRatio || 1))
      const instance = await createOrnamentPreview({ template, width, baseImageUrl, signal: leaving.signal })
      if (cancelled) {
        instance.destroy()
        return
      }
      created = instance
      instance.canvas.className = 'block h-auto w-full select-none'
      instance.canvas.dataset.testid = 'ornament-canvas'
      host.replaceChildren(instance.canvas)
      detach = attachGestures(
        instance,
        (cellId, transform, phase) => latest.current.onGesture(cellId, transform, phase),
        (cellId) => latest.current.onSelect(cellId),
      )
      setPreview(instance)
      setStatus({ state: 'ready' })
    })().catch((error: unknown) => {
      if (cancelled) return
      console.error('The ornament preview could not start', error)
      setStatus({ state: 'failed', message: error instanceof Error ? error.message : String(error) })
    })

    return () => {
      cancelled = true
      leaving.abort()
      detach?.()
      created?.destroy()
      host.replaceChildren()
      setPreview(null)
    }
  }, [template, apiBaseUrl, attempt])

  return { hostRef, preview, status, retry: () => setAttempt((n) => n + 1) }
}
