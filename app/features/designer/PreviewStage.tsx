import type { KeyboardEvent, Ref, RefObject } from 'react'
import { Spinner } from '~/components/ui/Spinner'
import type { PhotoTransform } from '~/compositor/layout'
import { cellBox } from './cell-box'
import type { DesignCell, DesignState, DesignTemplate, PreviewSide } from './design-state'
import { PrintQualityStageBadges } from './PrintQualityBadge'
import type { PreviewStatus } from './useOrnamentPreview'

type PreviewStageProps = {
  template: DesignTemplate
  cells: DesignCell[]
  slotName: (cell: DesignCell) => string
  hostRef: RefObject<HTMLDivElement | null>
  flipRef: Ref<HTMLDivElement>
  status: PreviewStatus
  side: PreviewSide
  selectedCellId: string
  /** Cells with a photo chosen. */
  filled: Set<string>
  /** Cells whose photo is still loading into the preview. */
  loading: Set<string>
  /** Each cell's photo and what it shows, for the print-quality marks over the photos. */
  photos: DesignState['photos']
  transforms: Partial<Record<string, PhotoTransform>>
  onSide: (side: PreviewSide) => void
  onKeyDown: (event: KeyboardEvent<HTMLDivElement>) => void
  onChoose: (cellId: string) => void
  onRetry: () => void
}

const KEYS_HELP = 'Arrow keys move the selected photo, hold Shift to move further; plus and minus zoom; [ and ] rotate.'

/** The live preview with its front/back switch, keyboard control, and what shows while it starts or fails. */
export function PreviewStage(props: PreviewStageProps) {
  const { template, cells, slotName, hostRef, flipRef, status, side, selectedCellId, filled, loading } = props
  const selected = cells.find((c) => c.id === selectedCellId)
  const ready = status.state === 'ready'
  return (
    <section aria-labelledby="preview-heading" className="rounded-card bg-gradient-to-b from-cream-deep to-cream-card p-3 shadow-card sm:p-4">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2 id="preview-heading" className="pl-1 text-lg font-semibold">
          Preview
        </h2>
        <div role="group" aria-label="Show side" className="inline-flex rounded-full bg-ink/5 p-1">
          {(['front', 'back'] as const).map((s) => (
            <button
              key={s}
              type="button"
              aria-pressed={side === s}
              onClick={() => props.onSide(s)}
              className={`min-h-11 min-w-20 rounded-full px-4 text-sm font-semibold transition-colors ${
                side === s ? 'bg-ink text-cream shadow' : 'text-ink-soft hover:text-ink'
              }`}
            >
              {s === 'front' ? 'Front' : 'Back'}
            </button>
          ))}
        </div>
      </div>

      <div
        ref={flipRef}
        className={`relative mt-3 ${status.state === 'failed' ? 'min-h-64' : ''}`}
        data-testid="preview-stage"
        data-side={side}
        data-state={status.state}
      >
        <div
          role="application"
          tabIndex={0}
          aria-label={`Ornament preview, ${side} side${selected ? `, ${slotName(selected).toLowerCase()} selected` : ''}. ${KEYS_HELP}`}
          onKeyDown={props.onKeyDown}
          className="peer rounded-xl"
        >
          <div ref={hostRef} className="w-full" style={{ aspectRatio: `${template.width} / ${template.height}` }} />
        </div>

        {ready && side === 'front' && selected ? (
          <div
            aria-hidden="true"
            className="pointer-events-none absolute hidden rounded-lg border-2 border-dashed border-pine peer-focus-visible:block"
            style={cellBox(template, selected)}
          />
        ) : null}

        {ready && side === 'front' ? <PrintQualityStageBadges template={template} cells={cells} photos={props.photos} transforms={props.transforms} /> : null}

        {ready && side === 'front'
          ? cells.map((cell) =>
              !filled.has(cell.id) || loading.has(cell.id) ? (
                <div key={cell.id} className="pointer-events-none absolute grid place-items-center" style={cellBox(template, cell)}>
                  {loading.has(cell.id) ? (
                    <span className="rounded-full bg-cream-card/90 px-3 py-1.5 text-sm font-semibold text-ink shadow">Loading photo…</span>
                  ) : (
                    <button
                      type="button"
                      onClick={() => props.onChoose(cell.id)}
                      className="pointer-events-auto min-h-11 rounded-full bg-cranberry px-4 text-sm font-semibold text-white shadow-card hover:bg-cranberry-dark"
                    >
                      Add photo<span className="sr-only"> to the {slotName(cell).toLowerCase()}</span>
                    </button>
                  )}
                </div>
              ) : null,
            )
          : null}

        {status.state === 'loading' ? (
          <div className="absolute inset-0 grid place-items-center rounded-xl bg-cream-deep/80">
            <Spinner label="Starting the preview…" className="py-0" />
          </div>
        ) : null}

        {status.state === 'failed' ? (
          <div
            className="absolute inset-0 flex flex-col items-center justify-center gap-2 overflow-y-auto rounded-xl bg-cream-card px-4 py-3 text-center"
            role="alert"
          >
            <p className="font-semibold">Your browser could not start the preview</p>
            <p className="max-w-sm text-sm text-ink-soft">You can still choose photos and a back side: “Preview my ornament” shows exactly what we’ll print.</p>
            <button type="button" onClick={props.onRetry} className="min-h-11 rounded-full bg-cranberry px-6 font-semibold text-white hover:bg-cranberry-dark">
              Retry
            </button>
          </div>
        ) : null}
      </div>
      <p className="mt-2 px-1 text-sm text-ink-soft">Drag a photo to move it; pinch or scroll to zoom.</p>
    </section>
  )
}
