import { useRef, type KeyboardEvent } from 'react'
import type { BackSide } from './design-state'

type BackSidePickerProps = {
  backSides: BackSide[]
  selectedId: string
  onSelect: (backSide: BackSide) => void
}

/** The fourteen back-side designs as a radio group: arrow keys move and choose, as in any radio group. */
export function BackSidePicker({ backSides, selectedId, onSelect }: BackSidePickerProps) {
  const refs = useRef<(HTMLButtonElement | null)[]>([])
  const selectedIndex = Math.max(
    0,
    backSides.findIndex((b) => b.id === selectedId),
  )

  const onKeyDown = (event: KeyboardEvent<HTMLButtonElement>, index: number) => {
    const last = backSides.length - 1
    const next =
      event.key === 'ArrowRight' || event.key === 'ArrowDown'
        ? index === last
          ? 0
          : index + 1
        : event.key === 'ArrowLeft' || event.key === 'ArrowUp'
          ? index === 0
            ? last
            : index - 1
          : event.key === 'Home'
            ? 0
            : event.key === 'End'
              ? last
              : null
    if (next === null) return
    event.preventDefault()
    onSelect(backSides[next]!)
    refs.current[next]?.focus()
  }

  return (
    <section aria-labelledby="back-side-heading">
      <h2 id="back-side-heading" className="text-lg font-semibold">
        Back side
      </h2>
      <p className="text-sm text-ink-soft">One design goes on the back of both ornaments.</p>
      <div
        role="radiogroup"
        aria-labelledby="back-side-heading"
        className="mt-3 grid grid-cols-3 gap-x-2 gap-y-3 min-[480px]:grid-cols-4 sm:grid-cols-5 lg:grid-cols-4"
      >
        {backSides.map((backSide, i) => {
          const checked = i === selectedIndex
          return (
            <button
              key={backSide.id}
              ref={(el) => {
                refs.current[i] = el
              }}
              type="button"
              role="radio"
              aria-checked={checked}
              tabIndex={checked ? 0 : -1}
              onClick={() => onSelect(backSide)}
              onKeyDown={(e) => onKeyDown(e, i)}
              data-back-side-id={backSide.id}
              className="group flex flex-col items-center rounded-xl p-1 text-center outline-offset-2"
            >
              <span
                className={`grid aspect-square w-full place-items-center rounded-xl bg-cream-deep p-2 transition-shadow ${
                  checked ? 'ring-4 ring-cranberry ring-offset-2 ring-offset-cream' : 'group-hover:ring-2 group-hover:ring-ink/20'
                }`}
              >
                <img src={backSide.thumbnailUrl} alt="" loading="lazy" decoding="async" className="size-full object-contain" />
              </span>
              <span className={`mt-1.5 text-xs leading-tight sm:text-sm ${checked ? 'font-bold text-cranberry-dark' : 'font-medium text-ink'}`}>
                {backSide.name}
              </span>
            </button>
          )
        })}
      </div>
    </section>
  )
}
