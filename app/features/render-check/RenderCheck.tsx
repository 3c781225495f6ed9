import { useEffect, useRef, useState } from 'react'
import type { PhotoTransform } from '~/compositor/layout'
import { pseudoTemplates, type OrnamentShape, ornamentShapes, photoCells } from '~/catalogue/ornaments'
import type { OrnamentSide, PersonalText } from '~/catalogue/personal-line'
import type { LineContrast } from '~/compositor/line-contrast'
import { usePublicConfig } from '~/lib/public-config'

/** What CI asks the page to draw: one shape, its photos by URL, at one of the preview widths. */
export type RenderSpec = {
  shape: OrnamentShape
  width: number
  mipmaps?: boolean
  side?: 'front' | 'back'
  backSidePath?: string
  photos: Record<string, { url: string; transform: PhotoTransform }>
  /** The personal lines, each in its ornament's Text cell. */
  text?: PersonalText
}

export type RenderResult = {
  rendererType: string
  width: number
  height: number
  pixels: string
  /** How each line reads on its photo, as the preview measures it (pixi-preview's lineContrast); with text only. */
  lineContrast?: Partial<Record<OrnamentSide, LineContrast>>
}

declare global {
  interface Window {
    keepsakeRenderCheck?: {
      render: (spec: RenderSpec) => Promise<RenderResult>
      /**
       * Drags the first photo for `frames` animation frames. Answers each frame's interval as the page
       * saw it, the time of each render call, and of frames drawn and waited for (GPU included).
       */
      dragFrames: (spec: RenderSpec, frames: number) => Promise<{ intervals: number[]; render: number[]; synced: number[] }>
    }
  }
}

function toBase64(bytes: Uint8Array) {
  let binary = ''
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000))
  return btoa(binary)
}

/** A checkerboard with a colour ramp: misplacement by a pixel shows, which a smooth photo would hide. */
async function checkerUrl(width: number, height: number, square: number, hue: number) {
  const canvas = new OffscreenCanvas(width, height)
  const ctx = canvas.getContext('2d')!
  for (let y = 0; y < height; y += square) {
    for (let x = 0; x < width; x += square) {
      const on = (x / square + y / square) % 2 === 0
      ctx.fillStyle = on ? `hsl(${hue + (x / width) * 60} 70% 45%)` : `hsl(${hue + 180} 30% ${85 - (y / height) * 30}%)`
      ctx.fillRect(x, y, square, square)
    }
  }
  return URL.createObjectURL(await canvas.convertToBlob({ type: 'image/png' }))
}

/**
 * /utils/render-check: the live preview renderer drawing each shape, for people checking a device
 * and for CI, which drives `window.keepsakeRenderCheck` to compare pixi's pixels with goldens and
 * with the print renderer.
 */
export function RenderCheck() {
  const { apiBaseUrl } = usePublicConfig()
  const stage = useRef<HTMLDivElement>(null)
  const [status, setStatus] = useState<{ state: 'loading' } | { state: 'ready'; rendererType: string } | { state: 'failed'; message: string }>({
    state: 'loading',
  })

  useEffect(() => {
    const node = stage.current
    let cancelled = false
    const cleanups: (() => void)[] = []
    const baseImageUrl = (path: string, width: number) => `${apiBaseUrl}/v1/printify/base-images?path=${encodeURIComponent(path)}&width=${width}`
    ;(async () => {
      const { createOrnamentPreview } = await import('~/compositor/pixi-preview')
      const renderOne = async (spec: RenderSpec) => {
        const preview = await createOrnamentPreview({
          template: pseudoTemplates[spec.shape],
          width: spec.width,
          baseImageUrl,
          mipmaps: spec.mipmaps ?? false,
        })
        for (const [cellId, photo] of Object.entries(spec.photos)) await preview.setPhoto(cellId, photo.url, photo.transform)
        if (spec.text) await preview.setText(spec.text)
        if (spec.backSidePath) await preview.setBackSide(spec.backSidePath)
        preview.showSide(spec.side ?? 'front')
        return preview
      }
      window.keepsakeRenderCheck = {
        async render(spec) {
          const preview = await renderOne(spec)
          try {
            const pixels = toBase64(preview.readPixels())
            return { rendererType: preview.rendererType, ...preview.size, pixels, ...(spec.text ? { lineContrast: preview.lineContrast() } : {}) }
          } finally {
            preview.destroy()
          }
        },
        async dragFrames(spec, frames) {
          const preview = await renderOne(spec)
          try {
            const [cellId] = preview.cellIds
            document.body.append(preview.canvas)
            const move = (i: number) => {
              const t = preview.transformOf(cellId!)
              preview.setTransform(cellId!, { ...t, x: Math.sin(i / 5) * 150, y: Math.cos(i / 7) * 150, zoom: 1.5, rotation: i % 30 })
            }
            // One move per animation frame, as a finger does.
            const render: number[] = []
            const stamps = await new Promise<number[]>((resolve) => {
              const seen: number[] = []
              const step = (now: number) => {
                seen.push(now)
                move(seen.length)
                const start = performance.now()
                preview.renderNow()
                render.push(performance.now() - start)
                if (seen.length > frames) resolve(seen)
                else requestAnimationFrame(step)
              }
              requestAnimationFrame(step)
            })
            const synced: number[] = []
            for (let i = 0; i < Math.min(frames, 30); i++) {
              move(i)
              synced.push(preview.timeFrame())
            }
            return { intervals: stamps.slice(1).map((t, i) => t - stamps[i]!), render, synced }
          } finally {
            preview.destroy()
          }
        },
      }
      // Draw every shape for whoever opened the page.
      const urls = await Promise.all([checkerUrl(480, 360, 30, 20), checkerUrl(360, 480, 24, 200)])
      cleanups.push(() => urls.forEach((u) => URL.revokeObjectURL(u)))
      let rendererType = ''
      for (const shape of ornamentShapes) {
        if (cancelled) return
        const cells = photoCells(pseudoTemplates[shape])
        const preview = await renderOne({
          shape,
          width: 640,
          mipmaps: true,
          photos: Object.fromEntries(cells.map((cell, i) => [cell.id, { url: urls[i]!, transform: { x: 0, y: 0, zoom: 1.2, rotation: i === 0 ? -8 : 8 } }])),
        })
        if (cancelled) {
          preview.destroy()
          return
        }
        cleanups.push(() => preview.destroy())
        rendererType = preview.rendererType
        preview.canvas.className = 'h-auto w-full rounded-card bg-cream-deep'
        preview.canvas.setAttribute('role', 'img')
        preview.canvas.setAttribute('aria-label', `${shape} ornament pair drawn with checkerboard photos`)
        const figure = document.createElement('figure')
        figure.className = 'rounded-card bg-cream-card p-3 shadow-card'
        const caption = document.createElement('figcaption')
        caption.className = 'mt-2 text-sm text-ink-soft'
        caption.textContent = `${shape[0]!.toUpperCase()}${shape.slice(1)} — ${preview.size.width}×${preview.size.height}`
        figure.append(preview.canvas, caption)
        node?.append(figure)
      }
      if (!cancelled) setStatus({ state: 'ready', rendererType })
    })().catch((error: unknown) => {
      if (!cancelled) setStatus({ state: 'failed', message: error instanceof Error ? error.message : String(error) })
    })
    return () => {
      cancelled = true
      cleanups.forEach((fn) => fn())
      node?.replaceChildren()
      delete window.keepsakeRenderCheck
    }
  }, [apiBaseUrl])

  return (
    <main id="main" className="mx-auto max-w-5xl px-4 py-10 sm:px-6">
      <h1 className="text-4xl font-bold tracking-tight">Preview render check</h1>
      <p className="mt-3 max-w-2xl text-lg text-ink-soft">
        Each ornament drawn by the live preview renderer with checkerboard photos. The print files are rendered from the same layout on the server, and CI
        compares the two pixel by pixel.
      </p>
      <p className="mt-4 font-semibold" role="status" data-testid="render-check-status" data-state={status.state}>
        {status.state === 'loading' && 'Starting the renderer…'}
        {status.state === 'ready' && `Renderer: ${status.rendererType === 'webgl' ? 'WebGL' : status.rendererType}`}
        {status.state === 'failed' && `The renderer could not start: ${status.message}`}
      </p>
      <div ref={stage} className="mt-6 grid gap-5 sm:grid-cols-2" />
    </main>
  )
}
