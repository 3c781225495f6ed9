import { cellBox } from './cell-box'
import type { PhotoTransform, Size } from '~/compositor/layout'
import { gradeLabels, printQuality, shownDpi, type PrintGrade, type PrintQuality } from '~/compositor/print-quality'
import type { CellPrintQuality } from '~/contract/designs'

/**
 * Print quality as the shopper sees it (decision 060): a chip that says the grade in words (the colour only
 * repeats it), the dpi, and for a photo that may look soft, why and what to do. The grades come from
 * app/compositor/print-quality.ts, the same function the server grades and refuses with.
 */

/** Each grade's chip: text colour on its tint, all at least 5.4:1 (WCAG AA), and a mark that is not colour. */
const chipStyles: Record<PrintGrade, { className: string; mark: string }> = {
  great: { className: 'bg-pine-tint text-pine-dark', mark: '✓' },
  good: { className: 'bg-cream-deep text-ink', mark: '✓' },
  soft: { className: 'bg-gold-tint text-gold-dark', mark: '!' },
  refused: { className: 'bg-cranberry-tint text-cranberry-dark', mark: '×' },
}

type PrintQualityBadgeProps = {
  grade: PrintGrade
  /** Said before the grade to screen readers only, e.g. "Left ornament" (the chip alone reads "May look soft"). */
  subject?: string
  className?: string
}

/** A compact chip naming the grade: "Great for print", "Good for print", "May look soft", "Too small to print". */
export function PrintQualityBadge({ grade, subject, className = '' }: PrintQualityBadgeProps) {
  const { className: tone, mark } = chipStyles[grade]
  return (
    <span
      data-testid="print-quality-badge"
      data-grade={grade}
      className={`inline-flex items-center gap-1 whitespace-nowrap rounded-full px-2.5 py-0.5 text-xs font-semibold ${tone} ${className}`}
    >
      {subject ? <span className="sr-only">{subject} print quality: </span> : null}
      <span aria-hidden="true" className="font-bold">
        {mark}
      </span>
      {gradeLabels[grade]}
    </span>
  )
}

/** Why and what to do, for a photo that may look soft (or cannot be printed), on its grade's tint. */
function SoftDetails({ grade, reason, advice }: { grade: PrintGrade; reason: string; advice: string }) {
  const tint = grade === 'refused' ? 'bg-cranberry-tint' : 'bg-gold-tint'
  return (
    <span className={`mt-1.5 block rounded-lg px-3 py-2 text-sm text-ink ${tint}`} data-testid="print-quality-reason">
      {reason} <span className="font-semibold">{advice}</span>
    </span>
  )
}

type PrintQualityNoteProps = {
  quality: PrintQuality | null
  /** The ornament's name, for screen readers ("Left ornament"). */
  subject: string
}

/**
 * One photo's print quality under its slot, recomputed on every render so it follows the zoom. The chip is a
 * polite live region: it is announced when the grade changes, not on every step of the zoom (the dpi, the reason
 * and the advice sit beside it, to be read, not announced).
 */
export function PrintQualityNote({ quality, subject }: PrintQualityNoteProps) {
  return (
    <div data-testid="print-quality" data-grade={quality?.grade ?? 'none'} className={quality ? 'mx-1 mb-1 mt-2' : ''}>
      <span role="status" aria-atomic="true">
        {quality ? <PrintQualityBadge grade={quality.grade} subject={subject} /> : null}
      </span>
      {quality ? (
        quality.reason && quality.advice ? (
          <SoftDetails grade={quality.grade} reason={quality.reason} advice={quality.advice} />
        ) : (
          <span className="ml-2 text-xs text-ink-soft">about {shownDpi(quality.dpi)} dpi at print size</span>
        )
      ) : null}
    </div>
  )
}

/** The grade of a photo placed in its cell, or null with no photo: what PrintQualityNote and the stage badges take. */
export function cellPrintQuality(cell: Size, photo: Size | undefined, transform: PhotoTransform | undefined): PrintQuality | null {
  return photo && transform ? printQuality(cell, photo, transform) : null
}

type StageCell = Size & { id: string; absoluteCenterX: number; absoluteCenterY: number }

type PrintQualityStageBadgesProps = {
  /** The template the stage draws (its width and height in template pixels). */
  template: Size
  /** The photo cells, as the stage has them. */
  cells: readonly StageCell[]
  /** Each cell's photo (its original's size), by cell id. */
  photos: Partial<Record<string, Size>>
  /** Each cell's transform, by cell id. */
  transforms: Partial<Record<string, PhotoTransform>>
}

/**
 * Chips over the live preview, at the foot of each photo that may look soft or is too small to print (a great or
 * good photo shows nothing there). For PreviewStage's front side, inside its positioned box (the one the cells'
 * overlays use): hidden from screen readers, since the photo slots say the same and announce it.
 */
export function PrintQualityStageBadges({ template, cells, photos, transforms }: PrintQualityStageBadgesProps) {
  return cells.map((cell) => {
    const quality = cellPrintQuality(cell, photos[cell.id], transforms[cell.id])
    if (!quality || quality.grade === 'great' || quality.grade === 'good') return null
    return (
      <div
        key={cell.id}
        aria-hidden="true"
        data-testid="stage-print-quality"
        className="pointer-events-none absolute flex items-end justify-center pb-[4%]"
        style={cellBox(template, cell)}
      >
        <PrintQualityBadge grade={quality.grade} className="shadow" />
      </div>
    )
  })
}

type PreviewPrintQualityProps = {
  /** The server's grades, left ornament first (GeneratedPreview.printQuality). */
  quality: readonly CellPrintQuality[]
  /** The ornaments' names in the same order. */
  names?: readonly string[]
}

/** In the preview dialog: how each ornament of the pair will print, as the server graded it. */
export function PreviewPrintQuality({ quality, names = ['Left ornament', 'Right ornament'] }: PreviewPrintQualityProps) {
  if (quality.length === 0) return null
  return (
    <section aria-labelledby="print-quality-heading" className="mt-4" data-testid="preview-print-quality">
      <h3 id="print-quality-heading" className="text-sm font-semibold">
        Print quality
      </h3>
      <ul className="mt-1 space-y-2">
        {quality.map((q, i) => (
          <li key={q.cellId} data-cell-id={q.cellId} data-grade={q.grade} className="text-sm">
            <span className="flex flex-wrap items-center gap-x-2 gap-y-1">
              <span className="font-semibold">{names[i] ?? `Ornament ${i + 1}`}</span>
              <PrintQualityBadge grade={q.grade} />
              {!q.reason ? <span className="text-xs text-ink-soft">about {q.dpi} dpi at print size</span> : null}
            </span>
            {q.reason && q.advice ? <SoftDetails grade={q.grade} reason={q.reason} advice={q.advice} /> : null}
          </li>
        ))}
      </ul>
    </section>
  )
}
