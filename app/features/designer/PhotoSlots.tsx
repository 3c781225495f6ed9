import type { PhotoTransform } from '~/compositor/layout'
import { buttonClass } from '~/components/ui/Button'
import { urlAtSize } from '~/lib/photo-conversion'
import type { DesignCell } from './design-state'
import type { DraftPhoto } from './draft'
import { cellPrintQuality, PrintQualityNote } from './PrintQualityBadge'

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

/** One slot per ornament of the pair: its photo, a way to change it, and its print quality as it is zoomed (decision 060). */
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
          const quality = cellPrintQuality(cell, photo, transforms[cell.id])
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
              <PrintQualityNote quality={quality} subject={name} />
            </li>
          )
        })}
      </ul>
    </section>
  )
}
