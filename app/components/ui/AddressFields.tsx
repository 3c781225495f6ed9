import { FIELD_LIMITS } from '~/catalogue/field-limits'
import { StateSelect, TextField } from '~/components/ui/fields'

export type StreetField = 'line1' | 'line2' | 'city' | 'state' | 'postalCode'
export const streetFields: StreetField[] = ['line1', 'line2', 'city', 'state', 'postalCode']

/**
 * The street address of a US shipping address: the checkout's and the address book's, so the two forms ask
 * the same questions in the same words, with the same limits, autocomplete tokens and error placement.
 */
export function StreetAddressFields({
  value,
  onChange,
  errors,
}: {
  value: Record<StreetField, string>
  onChange: (field: StreetField) => (value: string) => void
  errors: Partial<Record<StreetField, string>>
}) {
  return (
    <>
      <TextField
        label="Address line 1"
        name="line1"
        autoComplete="address-line1"
        maxLength={FIELD_LIMITS.addressLine}
        value={value.line1}
        onChange={onChange('line1')}
        error={errors.line1}
      />
      <TextField
        label="Address line 2"
        optional
        name="line2"
        autoComplete="address-line2"
        maxLength={FIELD_LIMITS.addressLine}
        value={value.line2}
        onChange={onChange('line2')}
        error={errors.line2}
        hint="Apartment, suite, unit."
      />
      <TextField
        label="City"
        name="city"
        autoComplete="address-level2"
        maxLength={FIELD_LIMITS.city}
        value={value.city}
        onChange={onChange('city')}
        error={errors.city}
      />
      <div className="grid grid-cols-[minmax(0,1.4fr)_minmax(0,1fr)] gap-3">
        <StateSelect value={value.state} onChange={onChange('state')} error={errors.state} />
        <TextField
          label="ZIP code"
          name="postalCode"
          autoComplete="postal-code"
          inputMode="numeric"
          maxLength={10}
          value={value.postalCode}
          onChange={onChange('postalCode')}
          error={errors.postalCode}
        />
      </div>
    </>
  )
}

/** A US address as it is written on a parcel: name, street lines, "City, ST 12345", and optionally the country. */
export function PostalAddress({
  address,
  country = false,
  className = 'not-italic leading-relaxed',
  testId,
}: {
  address: { name: string; line1: string; line2?: string; city: string; state: string; postalCode: string }
  country?: boolean
  className?: string
  testId?: string
}) {
  return (
    <address className={className} data-testid={testId}>
      {address.name}
      <br />
      {address.line1}
      {address.line2 ? (
        <>
          <br />
          {address.line2}
        </>
      ) : null}
      <br />
      {address.city}, {address.state} {address.postalCode}
      {country ? (
        <>
          <br />
          <span className="text-ink-soft">United States</span>
        </>
      ) : null}
    </address>
  )
}
