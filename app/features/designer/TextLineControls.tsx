import { useId, useState } from 'react'
import {
  checkPersonalLine,
  DEFAULT_COLOUR,
  DEFAULT_TYPEFACE,
  findColour,
  haloColourOf,
  normalisePersonalLine,
  PERSONAL_LINE_MAX_LENGTH,
  personalLineColours,
  personalLineLength,
  personalLineTypefaces,
  samePersonalLine,
  textOrNull,
  typefaceCssFamily,
  type ColourId,
  type OrnamentSide,
  type PersonalLine,
  type PersonalText,
  type TypefaceId,
} from '~/catalogue/personal-line'
import { contrastFor, POOR_CONTRAST, type LineContrast } from '~/compositor/line-contrast'

type TextLineControlsProps = {
  /** The lines the design carries now (restored from the draft, or the last ones that could be printed). */
  text: PersonalText | null
  /** Lines that can be printed, or null when every field is empty. Not called while a field holds a refused line. */
  onChange: (text: PersonalText | null) => void
  /** Whether a field holds a line that cannot be printed (the preview button waits for it to be fixed). */
  onProblem: (problem: boolean) => void
  /**
   * How each ornament's line reads on its photo, as last measured (the live preview's `lineContrast()`, or the
   * generated preview's `lineContrast`). A field whose line is hard to read there says so and offers the colour
   * that reads best, or a halo. The measurement answers for any colour and for the halo (contrastFor), so a
   * change of colour shows at once; absent or null: no warning.
   */
  contrast?: Partial<Record<OrnamentSide, LineContrast | null>>
}

/** What one field holds as the shopper types: the raw text, its typeface, colour and halo. */
type FieldDraft = { raw: string; typeface: TypefaceId; colour: ColourId; halo: boolean }

type Fields = {
  /** One line printed on both ornaments, or a line for each. */
  separate: boolean
  /** The left ornament's field; with `separate` off, the one field, printed on both. */
  left: FieldDraft
  right: FieldDraft
}

const fieldOf = (line: PersonalLine | undefined): FieldDraft => ({
  raw: line?.line ?? '',
  typeface: line?.typeface ?? DEFAULT_TYPEFACE,
  colour: line?.colour ?? DEFAULT_COLOUR,
  halo: line?.halo === true,
})

/** What a field would print (null when empty or refused) and why it cannot, in the shopper's words. */
const verdict = (field: FieldDraft) => checkPersonalLine({ line: field.raw, typeface: field.typeface, colour: field.colour, halo: field.halo })

const placeholders: Record<OrnamentSide, string> = { left: 'e.g. Ava · 2026', right: 'e.g. Baby’s first Christmas' }

/**
 * The personal lines (issue 19, part 1): on each ornament of the pair, an optional line. By default one
 * field prints the same line on both; "A line for each" gives each ornament its own field, typeface and
 * colour. Each field has a live counter, and a line its typeface cannot print is refused here, with the
 * same rule the API applies (catalogue/personal-line.ts), before it reaches the preview.
 */
export function TextLineControls({ text, onChange, onProblem, contrast }: TextLineControlsProps) {
  const id = useId()
  const [fields, setFields] = useState<Fields>(() => {
    const separate = text !== null && !samePersonalLine(text.left, text.right)
    return { separate, left: fieldOf(text?.left ?? (separate ? undefined : text?.right)), right: fieldOf(text?.right) }
  })

  const publish = (next: Fields) => {
    setFields(next)
    const left = verdict(next.left)
    const right = next.separate ? verdict(next.right) : left
    const refused = left.problem !== null || right.problem !== null
    onProblem(refused)
    if (!refused) onChange(textOrNull({ ...(left.line ? { left: left.line } : {}), ...(right.line ? { right: right.line } : {}) }))
  }

  const chooseSeparate = (separate: boolean) => {
    if (separate === fields.separate) return
    // A line for each starts from the shared line on both; going back keeps the left one (or the right one, if only it has text).
    if (separate) publish({ separate, left: fields.left, right: fields.left })
    else publish({ separate, left: fields.left.raw.trim() === '' && fields.right.raw.trim() !== '' ? fields.right : fields.left, right: fields.right })
  }

  return (
    <section aria-labelledby={`${id}-heading`}>
      <h2 id={`${id}-heading`} className="text-lg font-semibold">
        Personal line <span className="text-sm font-normal text-ink-soft">(optional)</span>
      </h2>
      <p className="text-sm text-ink-soft">A name, a date or a few words, printed on the front of the ornaments.</p>

      <fieldset className="mt-3">
        <legend className="sr-only">Where the text goes</legend>
        <div className="grid grid-cols-2 gap-2">
          {(
            [
              [false, 'Same line on both'],
              [true, 'A line for each'],
            ] as const
          ).map(([separate, label]) => (
            <label key={label} className="cursor-pointer">
              <input
                type="radio"
                name={`${id}-layout`}
                checked={fields.separate === separate}
                onChange={() => chooseSeparate(separate)}
                className="peer sr-only"
              />
              <span className="flex min-h-11 items-center justify-center rounded-full border border-ink/20 bg-cream-card px-3 py-2 text-center text-sm font-medium text-ink peer-checked:border-pine peer-checked:bg-pine-tint peer-checked:ring-2 peer-checked:ring-pine peer-focus-visible:outline peer-focus-visible:outline-2 peer-focus-visible:outline-offset-2 peer-focus-visible:outline-pine">
                {label}
              </span>
            </label>
          ))}
        </div>
      </fieldset>

      {fields.separate ? (
        (['left', 'right'] as const).map((side) => (
          <fieldset key={side} className="mt-4 rounded-xl border border-ink/15 px-2 pb-3 sm:px-3" data-testid={`text-line-${side}`}>
            <legend className="px-1 font-semibold">{side === 'left' ? 'Left ornament' : 'Right ornament'}</legend>
            <LineFields
              label={side === 'left' ? 'Text on the left ornament' : 'Text on the right ornament'}
              placeholder={placeholders[side]}
              field={fields[side]}
              onField={(field) => publish({ ...fields, [side]: field })}
              measured={measuredOf(contrast, [side])}
            />
          </fieldset>
        ))
      ) : (
        <LineFields
          label="Your text"
          placeholder={placeholders.left}
          field={fields.left}
          onField={(left) => publish({ ...fields, left })}
          measured={measuredOf(contrast, ['left', 'right'])}
        />
      )}
    </section>
  )
}

/** The measurements of the ornaments a field prints on (one, or both for the shared line). */
const measuredOf = (contrast: TextLineControlsProps['contrast'], sides: OrnamentSide[]): LineContrast[] =>
  sides.flatMap((side) => (contrast?.[side] ? [contrast[side]] : []))

/**
 * Whether a field's line is hard to read where it is printed, and what would help: the palette colour whose
 * worst ratio over the field's ornaments is highest, when that one reads (≥ POOR_CONTRAST) and is not the line's.
 */
export function contrastAdvice(measured: LineContrast[], field: Pick<FieldDraft, 'colour' | 'halo'>): { ratio: number; better: ColourId | null } | null {
  if (measured.length === 0) return null
  const ratio = Math.min(...measured.map((m) => contrastFor(m, field).ratio))
  if (ratio >= POOR_CONTRAST) return null
  const worst = (colour: ColourId) => Math.min(...measured.map((m) => m.ratios[colour]))
  const best = personalLineColours.map((c) => c.id).reduce((a, b) => (worst(b) > worst(a) ? b : a))
  return { ratio, better: best !== field.colour && worst(best) >= POOR_CONTRAST ? best : null }
}

type LineFieldsProps = {
  label: string
  placeholder: string
  field: FieldDraft
  onField: (field: FieldDraft) => void
  /** How this field's line reads on the photos it is printed on. */
  measured: LineContrast[]
}

/** One line's text field with its counter and refusal, its typeface, colour and halo, and a warning when it is hard to read. */
function LineFields({ label, placeholder, field, onField, measured }: LineFieldsProps) {
  const id = useId()
  const { problem, line } = verdict(field)
  const advice = line ? contrastAdvice(measured, field) : null
  const haloName = findColour(haloColourOf(field.colour))?.name ?? ''
  const count = personalLineLength(normalisePersonalLine(field.raw))
  const hintId = `${id}-hint`
  const errorId = `${id}-error`
  return (
    <>
      <div className="mt-3">
        <div className="flex items-baseline justify-between gap-3">
          <label htmlFor={`${id}-line`} className="font-medium">
            {label}
          </label>
          <span
            id={hintId}
            className={`text-sm tabular-nums ${count > PERSONAL_LINE_MAX_LENGTH ? 'font-semibold text-cranberry' : 'text-ink-soft'}`}
            aria-live="polite"
          >
            {count}/{PERSONAL_LINE_MAX_LENGTH}
            <span className="sr-only"> characters</span>
          </span>
        </div>
        <input
          id={`${id}-line`}
          type="text"
          value={field.raw}
          maxLength={PERSONAL_LINE_MAX_LENGTH * 4}
          autoComplete="off"
          placeholder={placeholder}
          aria-invalid={problem ? true : undefined}
          aria-describedby={problem ? `${errorId} ${hintId}` : hintId}
          onChange={(event) => onField({ ...field, raw: event.target.value })}
          className={`mt-1 block min-h-11 w-full rounded-lg border bg-cream-card px-3 py-2 text-base text-ink placeholder:text-ink-faint focus:outline-none focus-visible:ring-2 focus-visible:ring-pine ${problem ? 'border-cranberry' : 'border-ink/25'}`}
        />
        {problem ? (
          <p id={errorId} className="mt-1 text-sm font-medium text-cranberry" role="alert">
            {problem}
          </p>
        ) : null}
      </div>

      <fieldset className="mt-4">
        <legend className="font-medium">Typeface</legend>
        <div className="mt-2 grid grid-cols-3 gap-2">
          {personalLineTypefaces.map((t) => (
            <label key={t.id} className="cursor-pointer">
              <input
                type="radio"
                name={`${id}-typeface`}
                value={t.id}
                checked={field.typeface === t.id}
                onChange={() => onField({ ...field, typeface: t.id })}
                className="peer sr-only"
              />
              <span
                className="flex min-h-11 items-center justify-center rounded-lg border border-ink/20 bg-cream-card px-1 py-2 text-center text-base leading-tight min-[400px]:text-lg text-ink peer-checked:border-pine peer-checked:bg-pine-tint peer-checked:ring-2 peer-checked:ring-pine peer-focus-visible:outline peer-focus-visible:outline-2 peer-focus-visible:outline-offset-2 peer-focus-visible:outline-pine"
                style={{ fontFamily: typefaceCssFamily(t), fontWeight: t.weight }}
              >
                {t.name}
              </span>
            </label>
          ))}
        </div>
      </fieldset>

      <fieldset className="mt-4">
        <legend className="font-medium">Colour</legend>
        <div className="mt-2 flex flex-wrap gap-2">
          {personalLineColours.map((c) => (
            <label key={c.id} className="cursor-pointer" title={c.name}>
              <input
                type="radio"
                name={`${id}-colour`}
                value={c.id}
                checked={field.colour === c.id}
                onChange={() => onField({ ...field, colour: c.id })}
                aria-label={c.name}
                className="peer sr-only"
              />
              <span
                aria-hidden="true"
                className="block size-11 rounded-full border-2 border-ink/20 shadow-inner peer-checked:border-ink peer-checked:ring-2 peer-checked:ring-ink peer-checked:ring-offset-2 peer-checked:ring-offset-cream peer-focus-visible:outline peer-focus-visible:outline-2 peer-focus-visible:outline-offset-4 peer-focus-visible:outline-pine"
                style={{ backgroundColor: c.hex }}
              />
            </label>
          ))}
        </div>
        <p className="mt-1 text-sm text-ink-soft" aria-hidden="true">
          {personalLineColours.find((c) => c.id === field.colour)?.name}
        </p>
      </fieldset>

      <div className="mt-3">
        <label className="flex min-h-11 cursor-pointer items-center gap-3">
          <input
            type="checkbox"
            role="switch"
            checked={field.halo}
            onChange={(event) => onField({ ...field, halo: event.target.checked })}
            aria-describedby={`${id}-halo-hint`}
            className="size-5 shrink-0 accent-pine focus-visible:outline focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-pine"
          />
          <span className="font-medium">Halo around the letters</span>
        </label>
        <p id={`${id}-halo-hint`} className="text-sm text-ink-soft">
          A thin {haloName.toLowerCase()} outline, so the line reads on any photo.
        </p>
      </div>

      <div role="status" aria-live="polite">
        {advice ? (
          <div className="mt-3 rounded-xl border-2 border-gold/50 bg-gold-tint px-3 py-2 text-ink" data-testid="line-contrast-warning">
            <p className="font-semibold">Hard to read on this photo</p>
            <p className="text-sm">
              {findColour(field.colour)?.name} stands out only {advice.ratio.toFixed(1)}:1 from the photo under it (at least {POOR_CONTRAST}:1 reads well).
            </p>
            <div className="mt-2 flex flex-wrap gap-2">
              {advice.better ? (
                <button
                  type="button"
                  onClick={() => onField({ ...field, colour: advice.better! })}
                  className="min-h-11 rounded-full bg-cranberry px-4 py-2 text-sm font-semibold text-white focus-visible:outline focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-pine"
                >
                  Use {findColour(advice.better)?.name} instead
                </button>
              ) : null}
              {field.halo ? null : (
                <button
                  type="button"
                  onClick={() => onField({ ...field, halo: true })}
                  className="min-h-11 rounded-full border border-ink/25 bg-cream-card px-4 py-2 text-sm font-semibold text-ink focus-visible:outline focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-pine"
                >
                  Add a halo
                </button>
              )}
            </div>
          </div>
        ) : null}
      </div>
    </>
  )
}
