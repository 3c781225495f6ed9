import { useId, type ReactNode } from 'react'
import { usStates } from '~/catalogue/us-states'

/**
 * The store's form fields: one label, one control, an optional hint and an inline error, wired with
 * `aria-invalid` and `aria-describedby` so a field focused for its error reads the error out. The
 * forms focus their first invalid field, so a field's error is not also an alert.
 */
export const inputClass = (invalid: boolean) =>
  // scroll-mt: a field focused for its error stays clear of the sticky header.
  `mt-1 block min-h-11 w-full scroll-mt-32 rounded-xl border-2 bg-cream-card px-3 py-2 text-base text-ink placeholder:text-ink-faint ${
    invalid ? 'border-cranberry' : 'border-ink/20 hover:border-ink/35'
  }`

/** The ids a control is described by: its hint, then its error, when there are any. */
export function describedBy(id: string, hint: unknown, error: unknown): string | undefined {
  return [hint ? `${id}-hint` : null, error ? `${id}-error` : null].filter(Boolean).join(' ') || undefined
}

export function FieldError({ id, error, alert }: { id: string; error?: string | null; alert?: boolean }) {
  if (!error) return null
  return (
    <p id={id} className="mt-1 flex items-start gap-1.5 text-sm font-semibold text-cranberry-dark" role={alert ? 'alert' : undefined} data-testid="field-error">
      <span aria-hidden="true">!</span>
      {error}
    </p>
  )
}

export function FieldHint({ id, children }: { id: string; children?: ReactNode }) {
  if (!children) return null
  return (
    <p id={id} className="mt-1 text-sm text-ink-soft">
      {children}
    </p>
  )
}

function FieldLabel({ htmlFor, label, optional }: { htmlFor: string; label: ReactNode; optional?: boolean }) {
  return (
    <label htmlFor={htmlFor} className="text-sm font-semibold">
      {label}
      {optional ? <span className="font-normal text-ink-soft"> (optional)</span> : null}
    </label>
  )
}

type FieldProps = {
  label: ReactNode
  name: string
  value: string
  onChange: (value: string) => void
  error?: string
  hint?: ReactNode
  optional?: boolean
  autoComplete: string
}

export type TextFieldProps = FieldProps & {
  type?: 'text' | 'email' | 'tel'
  inputMode?: 'numeric' | 'text'
  placeholder?: string
  maxLength?: number
  /** A three-row text area instead of a one-line input. */
  multiline?: boolean
}

export function TextField({
  label,
  name,
  value,
  onChange,
  error,
  hint,
  optional,
  autoComplete,
  type = 'text',
  inputMode,
  placeholder,
  maxLength,
  multiline,
}: TextFieldProps) {
  const id = useId()
  const shared = {
    id,
    name,
    value,
    autoComplete,
    placeholder,
    maxLength,
    'aria-invalid': error ? true : undefined,
    'aria-describedby': describedBy(id, hint, error),
    className: inputClass(Boolean(error)),
  }
  return (
    <div>
      <FieldLabel htmlFor={id} label={label} optional={optional} />
      {multiline ? (
        <textarea {...shared} rows={3} onChange={(e) => onChange(e.target.value)} />
      ) : (
        <input {...shared} type={type} inputMode={inputMode} onChange={(e) => onChange(e.target.value)} />
      )}
      <FieldHint id={`${id}-hint`}>{hint}</FieldHint>
      <FieldError id={`${id}-error`} error={error} />
    </div>
  )
}

/** A US state, by its two-letter code (what the print provider and Stripe take). */
export function StateSelect({
  label = 'State',
  name = 'state',
  value,
  onChange,
  error,
  hint,
  autoComplete = 'address-level1',
}: Omit<FieldProps, 'label' | 'name' | 'autoComplete'> & Partial<Pick<FieldProps, 'label' | 'name' | 'autoComplete'>>) {
  const id = useId()
  return (
    <div>
      <FieldLabel htmlFor={id} label={label} />
      <select
        id={id}
        name={name}
        value={value}
        onChange={(e) => onChange(e.target.value)}
        autoComplete={autoComplete}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy(id, hint, error)}
        className={inputClass(Boolean(error))}
      >
        <option value="">Choose…</option>
        {usStates.map(([code, stateName]) => (
          <option key={code} value={code}>
            {stateName}
          </option>
        ))}
      </select>
      <FieldHint id={`${id}-hint`}>{hint}</FieldHint>
      <FieldError id={`${id}-error`} error={error} />
    </div>
  )
}
