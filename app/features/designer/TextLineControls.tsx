import { useId, useState } from 'react'
import {
  DEFAULT_COLOUR,
  DEFAULT_TYPEFACE,
  normalisePersonalLine,
  PERSONAL_LINE_MAX_LENGTH,
  personalLineColours,
  personalLineLength,
  personalLineProblem,
  personalLineTypefaces,
  typefaceCssFamily,
  type ColourId,
  type PersonalLine,
  type TypefaceId,
} from '~/catalogue/personal-line'

type TextLineControlsProps = {
  /** The line the design carries now (restored from the draft, or the last one that could be printed). */
  text: PersonalLine | null
  /** A line that can be printed, or null when the field is empty. Not called while the field holds a refused line. */
  onChange: (text: PersonalLine | null) => void
  /** Whether the field holds a line that cannot be printed (the preview button waits for it to be fixed). */
  onProblem: (problem: boolean) => void
}

/**
 * The personal line (issue 19, part 1): a text field with a live counter, a typeface choice (each shown
 * in its own face) and a colour choice. A line the typeface cannot print is refused here, with the same
 * rule the API applies (catalogue/personal-line.ts), before it reaches the preview.
 */
export function TextLineControls({ text, onChange, onProblem }: TextLineControlsProps) {
  const id = useId()
  const [raw, setRaw] = useState(text?.line ?? '')
  const [typeface, setTypeface] = useState<TypefaceId>(text?.typeface ?? DEFAULT_TYPEFACE)
  const [colour, setColour] = useState<ColourId>(text?.colour ?? DEFAULT_COLOUR)
  const line = normalisePersonalLine(raw)
  const problem = line ? personalLineProblem(line, typeface) : null
  const count = personalLineLength(line)

  const update = (next: { raw?: string; typeface?: TypefaceId; colour?: ColourId }) => {
    const r = next.raw ?? raw
    const t = next.typeface ?? typeface
    const c = next.colour ?? colour
    setRaw(r)
    setTypeface(t)
    setColour(c)
    const l = normalisePersonalLine(r)
    const refused = l ? personalLineProblem(l, t) !== null : false
    onProblem(refused)
    if (!refused) onChange(l ? { line: l, typeface: t, colour: c } : null)
  }

  const hintId = `${id}-hint`
  const errorId = `${id}-error`
  return (
    <section aria-labelledby={`${id}-heading`}>
      <h2 id={`${id}-heading`} className="text-lg font-semibold">
        Personal line <span className="text-sm font-normal text-ink-soft">(optional)</span>
      </h2>
      <p className="text-sm text-ink-soft">A name, a date or a few words, printed on the front of both ornaments.</p>
      <div className="mt-3">
        <div className="flex items-baseline justify-between gap-3">
          <label htmlFor={`${id}-line`} className="font-medium">
            Your text
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
          value={raw}
          maxLength={PERSONAL_LINE_MAX_LENGTH * 4}
          autoComplete="off"
          placeholder="e.g. Ava · 2026"
          aria-invalid={problem ? true : undefined}
          aria-describedby={problem ? `${errorId} ${hintId}` : hintId}
          onChange={(event) => update({ raw: event.target.value })}
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
                checked={typeface === t.id}
                onChange={() => update({ typeface: t.id })}
                className="peer sr-only"
              />
              <span
                className="flex min-h-11 items-center justify-center rounded-lg border border-ink/20 bg-cream-card px-2 py-2 text-center text-lg leading-tight text-ink peer-checked:border-pine peer-checked:bg-pine-tint peer-checked:ring-2 peer-checked:ring-pine peer-focus-visible:outline peer-focus-visible:outline-2 peer-focus-visible:outline-offset-2 peer-focus-visible:outline-pine"
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
                checked={colour === c.id}
                onChange={() => update({ colour: c.id })}
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
          {personalLineColours.find((c) => c.id === colour)?.name}
        </p>
      </fieldset>
    </section>
  )
}
