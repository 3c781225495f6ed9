import { effectiveDpi, isLowResolution, MIN_PRINT_DPI, type PhotoTransform } from '~/compositor/layout'
import { buttonClass } from '~/components/ui/Button'
import { urlAtSize } from '~/lib/photo-conversion'
import type { DesignCell } from './design-state'
import type { DraftPhoto } from './draft'

type PhotoSlotsProps = {
  cells: DesignCell[]
  slotName: (cell: DesignCell) => string
  photos: Partial<Record<string, DraftPhoto>>
  transforms: Record<string, PhotoTransform>
  selectedCellId: string
  restored: boolean
  onSelect: (cellId: string) => void
  onChoose: (cellId: string) => void
}

/** SPEC.md §9-backed warning: below MIN_PRINT_DPI photo pixels per printed inch the print looks soft. */
export function lowResolutionMessage(cell: DesignCell, photo: DraftPhoto, transform: PhotoTransform): string | null {
  if (!isLowResolution(cell, photo, transform)) return null
  const dpi = Math.round(effectiveDpi(cell, photo, transform))
  return `Low resolution for print: about ${dpi} dpi at this size (we recommend at least ${MIN_PRINT_DPI} dpi). Zoom out or choose a sharper photo.`
}

/** One slot per ornament of the pair: its photo, a way to change it, and its print-quality warning. */
export function PhotoSlots({ cells, slotName, photos, transforms, selectedCellId, restored, onSelect, onChoose }: PhotoSlotsProps) {
  return (
    <section aria-labelledby="photos-heading">
      <h2 id="photos-heading" className="text-lg font-semibold">
        Photos
      </h2>
      <p className="text-sm text-ink-soft">One photo on the front of each ornament. Select one to adjust it.</p>
      <ul className="mt-3 space-y-2">
        {cells.map((cell) => {
          const name = slotName(cell)
          const photo = photos[cell.id]
          const selected = cell.id === selectedCellId
          const warning = photo ? lowResolutionMessage(cell, photo, transforms[cell.id]!) : null
          return (
            <li
              key={cell.id}
              data-testid="photo-slot"
              data-cell-id={cell.id}
              data-selected={selected}
              className={`rounded-card border-2 bg-cream-card p-2 transition-colors ${selected ? 'border-cranberry shadow-card' : 'border-ink/10'}`}
            >
              <div className="flex items-center gap-2">
                <button
                  type="button"
                  aria-pressed={selected}
                  onClick={() => (photo ? onSelect(cell.id) : onChoose(cell.id))}
                  className="flex min-h-14 min-w-0 flex-1 items-center gap-2.5 rounded-xl p-1 text-left sm:gap-3"
                >
                  <span className="grid size-14 shrink-0 place-items-center overflow-hidden rounded-lg border-2 border-dashed border-ink/20 bg-cream-deep">
                    {photo ? (
                      <img src={urlAtSize(photo.url, 'small') ?? photo.url} alt="" className="size-full object-cover" />
                    ) : restored ? (
                      <span aria-hidden="true" className="text-2xl leading-none text-ink-soft">
                        +
                      </span>
                    ) : (
                      <span className="size-full animate-pulse bg-cream-deep" />
                    )}
                  </span>
                  <span className="min-w-0">
                    <span className="block whitespace-nowrap font-semibold">{name}</span>
                    <span className="block text-sm text-ink-soft">{!photo ? 'No photo yet' : selected ? 'Selected' : 'Tap to adjust'}</span>
                  </span>
                </button>
                <button
                  type="button"
                  onClick={() => onChoose(cell.id)}
                  className={buttonClass(photo ? 'secondary' : 'primary', 'shrink-0 px-4 text-sm')}
                  aria-label={`${photo ? 'Change photo' : 'Choose photo'} for the ${name.toLowerCase()}`}
                >
                  {photo ? 'Change photo' : 'Choose photo'}
                </button>
              </div>
              <div role="status" data-testid="low-resolution-warning">
                {warning ? (
                  <p className="mx-1 mb-1 mt-2 flex gap-2 rounded-lg bg-gold-tint px-3 py-2 text-sm text-ink">
                    <span aria-hidden="true" className="font-bold text-gold-dark">
                      !
                    </span>
                    <span>{warning}</span>
                  </p>
                ) : null}
              </div>
            </li>
          )
        })}
      </ul>
    </section>
  )
}
