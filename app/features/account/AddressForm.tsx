import { useEffect, useRef, useState, type FormEvent } from 'react'
import { FIELD_LIMITS } from '~/catalogue/field-limits'
import { Button, buttonClass } from '~/components/ui/Button'
import { TextField } from '~/components/ui/fields'
import { StreetAddressFields, streetFields, type StreetField } from '~/components/ui/AddressFields'
import type { AddressBookEntry } from '~/contract/addresses'
import { fieldErrorsOf } from '~/lib/field-errors'
import { saveAddress } from './addresses.functions'

type Field = 'label' | 'name' | 'email' | 'phone' | StreetField
export type Draft = Record<Field, string>
type FieldErrors = Partial<Record<Field, string>>

const fieldOrder: Field[] = ['label', 'name', 'email', 'phone', ...streetFields]
export const emptyDraft: Draft = { label: '', name: '', email: '', phone: '', line1: '', line2: '', city: '', state: '', postalCode: '' }
export const draftOf = (entry: AddressBookEntry): Draft => Object.fromEntries(fieldOrder.map((f) => [f, entry[f]])) as Draft

/** An address book entry's form, new or changed: the address book's, and the cart's when it sends to a new address. */
export function AddressForm({
  title,
  id,
  initial,
  onSaved,
  onCancel,
  className = '',
}: {
  title: string
  id?: string
  initial: Draft
  onSaved: (saved: AddressBookEntry) => Promise<void>
  onCancel: () => void
  className?: string
}) {
  const [draft, setDraft] = useState<Draft>(initial)
  const [errors, setErrors] = useState<FieldErrors>({})
  const [problem, setProblem] = useState<string | null>(null)
  const [saving, setSaving] = useState(false)
  const form = useRef<HTMLFormElement>(null)
  const set = (field: Field) => (value: string) => setDraft((d) => ({ ...d, [field]: value }))
  const focusField = (field: Field) => form.current?.querySelector<HTMLElement>(`[name="${field}"]`)?.focus()

  // The form takes focus when it opens, at its first field.
  useEffect(() => {
    form.current?.querySelector<HTMLElement>('[name="label"]')?.focus()
  }, [])

  const save = async (event: FormEvent) => {
    event.preventDefault()
    if (saving) return
    setSaving(true)
    setErrors({})
    setProblem(null)
    try {
      const outcome = await saveAddress({ data: { id, address: { ...draft, country: 'US' } } })
      if (outcome.ok) {
        await onSaved(outcome.data)
        return
      }
      const { fields, other } = fieldErrorsOf(outcome.error, fieldOrder)
      setErrors(fields)
      setProblem(other.length > 0 ? other.join(' ') : outcome.error.issues.length > 0 ? 'Please check the highlighted fields.' : outcome.error.message)
      const first = fieldOrder.find((f) => fields[f])
      if (first) focusField(first)
    } catch (error) {
      setProblem(`We couldn’t save the address: ${error instanceof Error ? error.message : 'Unknown error'}. Try again.`)
    }
    setSaving(false)
  }

  return (
    <form
      ref={form}
      onSubmit={(e) => void save(e)}
      noValidate
      aria-label={title}
      className={`rounded-card bg-cream-card p-5 shadow-card ring-2 ring-gold/40 ${className}`}
      data-testid="address-form"
    >
      <h2 className="text-xl font-bold">{title}</h2>
      <div className="mt-4 grid gap-4">
        <TextField
          label="Name for this address"
          name="label"
          autoComplete="off"
          maxLength={FIELD_LIMITS.addressLabel}
          placeholder="Grandma Rose"
          value={draft.label}
          onChange={set('label')}
          error={errors.label}
          hint="How you’ll pick it in the cart."
        />
        <TextField
          label="Recipient’s full name"
          name="name"
          autoComplete="name"
          maxLength={FIELD_LIMITS.personName}
          value={draft.name}
          onChange={set('name')}
          error={errors.name}
        />
        <StreetAddressFields value={draft} onChange={set} errors={errors} />
        <p className="-mt-2 text-sm text-ink-soft">We ship to the United States only for now.</p>
        <TextField
          label="Recipient’s e-mail"
          optional
          name="email"
          type="email"
          autoComplete="email"
          maxLength={FIELD_LIMITS.email}
          value={draft.email}
          onChange={set('email')}
          error={errors.email}
          hint="Only if you want them to hear a gift is on its way."
        />
        <TextField
          label="Phone"
          optional
          name="phone"
          type="tel"
          autoComplete="tel"
          maxLength={FIELD_LIMITS.phone}
          value={draft.phone}
          onChange={set('phone')}
          error={errors.phone}
          hint="Only for the courier, if they need it."
        />
      </div>
      {problem ? (
        <p
          role="alert"
          className="mt-4 rounded-xl border-2 border-cranberry/30 bg-cranberry-tint px-4 py-3 font-semibold text-cranberry-dark"
          data-testid="address-problem"
        >
          {problem}
        </p>
      ) : null}
      <div className="mt-5 flex flex-wrap gap-2">
        <Button type="submit" disabled={saving} className="flex-1 sm:flex-none">
          {saving ? 'Saving…' : 'Save address'}
        </Button>
        <button type="button" className={buttonClass('secondary', 'flex-1 sm:flex-none')} onClick={onCancel} disabled={saving}>
          Cancel
        </button>
      </div>
    </form>
  )
}
