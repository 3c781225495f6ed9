import { useId, type ReactNode } from 'react'
import { MAX_ZOOM } from '~/catalogue/ornaments'
import type { PhotoTransform } from '~/compositor/layout'
import { ZOOM_STEP } from './design-state'

/** How far the controls move things: buttons move further than a key press. */
export const NUDGE_STEP = 50
export const ROTATE_STEP = 15

export type AdjustMode = 'commit' | 'live'

type AdjustControlsProps = {
  slotName: string
  transform: PhotoTransform
  hasPhoto: boolean
  canUndo: boolean
  onChange: (next: PhotoTransform, mode: AdjustMode) => void
  onUndo: () => void
  onReset: () => void
}

const control =
  'inline-flex min-h-11 min-w-11 items-center justify-center gap-1.5 rounded-full border-2 border-ink/15 bg-cream-card px-3 text-sm font-semibold text-ink hover:border-ink/30 disabled:cursor-not-allowed disabled:opacity-50'

function Group({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div role="group" aria-label={label} className="flex items-center gap-1.5">
      <span aria-hidden="true" className="w-14 shrink-0 text-sm font-semibold text-ink-soft">
        {label}
      </span>
      {children}
    </div>
  )
}

/** Zoom, rotate, move, undo and reset for the selected photo: everything a drag or pinch does, without one. */
export function AdjustControls({ slotName, transform: t, hasPhoto, canUndo, onChange, onUndo, onReset }: AdjustControlsProps) {
  const zoomId = useId()
  const zoomBy = (delta: number) => onChange({ ...t, zoom: Math.min(MAX_ZOOM, Math.max(1, t.zoom + delta)) }, 'commit')
  const move = (dx: number, dy: number) => onChange({ ...t, x: t.x + dx, y: t.y + dy }, 'commit')
  const rotate = (degrees: number) => onChange({ ...t, rotation: t.rotation + degrees }, 'commit')

  return (
    <section aria-labelledby="adjust-heading">
      <h2 id="adjust-heading" className="text-lg font-semibold">
        Adjust the photo on the {slotName.toLowerCase()}
      </h2>
      {hasPhoto ? (
        <p className="text-sm text-ink-soft">Or drag it on the preview; pinch or scroll to zoom.</p>
      ) : (
        <p className="text-sm text-ink-soft">Choose a photo for the {slotName.toLowerCase()} first.</p>
      )}
      <fieldset disabled={!hasPhoto} className="mt-3 space-y-3 rounded-card bg-cream-card p-3 shadow-card disabled:opacity-70">
        <legend className="sr-only">Adjust the photo on the {slotName.toLowerCase()}</legend>
        <div className="flex items-center gap-1.5">
          <label htmlFor={zoomId} className="w-14 shrink-0 text-sm font-semibold text-ink-soft">
            Zoom
          </label>
          <button type="button" className={control} onClick={() => zoomBy(-ZOOM_STEP)} disabled={t.zoom <= 1} aria-label="Zoom out">
            <span aria-hidden="true" className="text-lg leading-none">
              −
            </span>
          </button>
          <input
            id={zoomId}
            type="range"
            min={1}
            max={MAX_ZOOM}
            step={0.01}
            value={t.zoom}
            aria-valuetext={`${Math.round(t.zoom * 100)}%`}
            onChange={(e) => onChange({ ...t, zoom: Number(e.target.value) }, 'live')}
            className="h-11 min-w-0 flex-1 cursor-pointer accent-cranberry"
          />
          <button type="button" className={control} onClick={() => zoomBy(ZOOM_STEP)} disabled={t.zoom >= MAX_ZOOM} aria-label="Zoom in">
            <span aria-hidden="true" className="text-lg leading-none">
              +
            </span>
          </button>
          <output htmlFor={zoomId} className="w-12 shrink-0 text-right text-sm tabular-nums text-ink-soft">
            {t.zoom.toFixed(1)}×
          </output>
        </div>
        <div className="flex flex-wrap items-center justify-between gap-x-3 gap-y-3">
          <Group label="Rotate">
            <button type="button" className={control} onClick={() => rotate(-ROTATE_STEP)} aria-label={`Rotate left ${ROTATE_STEP}°`}>
              <span aria-hidden="true">↺ {ROTATE_STEP}°</span>
            </button>
            <button type="button" className={control} onClick={() => rotate(ROTATE_STEP)} aria-label={`Rotate right ${ROTATE_STEP}°`}>
              <span aria-hidden="true">↻ {ROTATE_STEP}°</span>
            </button>
          </Group>
          <div className="flex gap-1.5">
            <button type="button" className={control} onClick={onUndo} disabled={!canUndo}>
              Undo
            </button>
            <button type="button" className={control} onClick={onReset}>
              Reset
            </button>
          </div>
        </div>
        <Group label="Move">
          <button type="button" className={control} onClick={() => move(-NUDGE_STEP, 0)} aria-label="Move photo left">
            <span aria-hidden="true">←</span>
          </button>
          <button type="button" className={control} onClick={() => move(0, -NUDGE_STEP)} aria-label="Move photo up">
            <span aria-hidden="true">↑</span>
          </button>
          <button type="button" className={control} onClick={() => move(0, NUDGE_STEP)} aria-label="Move photo down">
            <span aria-hidden="true">↓</span>
          </button>
          <button type="button" className={control} onClick={() => move(NUDGE_STEP, 0)} aria-label="Move photo right">
            <span aria-hidden="true">→</span>
          </button>
        </Group>
      </fieldset>
    </section>
  )
}
