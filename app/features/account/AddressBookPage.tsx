import { useQuery, useQueryClient } from '@tanstack/react-query'
import { useEffect, useRef, useState, type FormEvent, type ReactNode } from 'react'
import { FIELD_LIMITS } from '~/catalogue/field-limits'
import { Button, buttonClass } from '~/components/ui/Button'
import { TextField } from '~/components/ui/fields'
import { LoadFailedPanel, StatePanel } from '~/components/ui/StatePanel'
import { SignInActions, signInHint } from '~/components/ui/SignInActions'
import type { AddressBook, AddressBookEntry } from '~/contract/addresses'
import { PostalAddress, StreetAddressFields, streetFields, type StreetField } from '~/components/ui/AddressFields'
import { usePublicConfig } from '~/lib/public-config'
import { notify } from '~/lib/toast'
import { addressBookQuery, removeAddress, saveAddress } from './addresses.functions'
import { fieldErrorsOf } from '~/lib/field-errors'

type Field = 'label' | 'name' | 'email' | 'phone' | StreetField
type Draft = Record<Field, string>
type FieldErrors = Partial<Record<Field, string>>

const fieldOrder: Field[] = ['label', 'name', 'email', 'phone', ...streetFields]
export const emptyDraft: Draft = { label: '', name: '', email: '', phone: '', line1: '', line2: '', city: '', state: '', postalCode: '' }
const draftOf = (entry: AddressBookEntry): Draft => Object.fromEntries(fieldOrder.map((f) => [f, entry[f]])) as Draft

/** /photo-products/addresses: the shopper's own addresses and their family's, kept for shipping gifts. */
export function AddressBookPage() {
  const book = useQuery(addressBookQuery())
  const queryClient = useQueryClient()
  const heading = useRef<HTMLHeadingElement>(null)
  /** 'new', an address's id being changed, or null. */
  const [editing, setEditing] = useState<string | null>(null)
  /** Where focus goes once the list has been drawn again: an address's heading, or the page's. */
  const [focusAfter, setFocusAfter] = useState<string | null>(null)

  useEffect(() => {
    if (!focusAfter) return
    const target = focusAfter === 'page' ? heading.current : document.getElementById(`address-${focusAfter}`)
    target?.focus()
    setFocusAfter(null)
  }, [focusAfter, book.data])

  const onSaved = async (saved: AddressBookEntry) => {
    // The list is read again, in the API's order, before focus moves to the saved address.
    await queryClient.invalidateQueries({ queryKey: addressBookQuery().queryKey })
    notify.success(`Saved “${saved.label}”`)
    setEditing(null)
    setFocusAfter(saved.id)
  }
  const onRemoved = (entry: AddressBookEntry, left: AddressBook) => {
    queryClient.setQueryData(addressBookQuery().queryKey, left)
    notify.success(`Removed “${entry.label}”`)
    setFocusAfter('page')
  }

  let body: ReactNode
  if (book.isPending) body = <BookSkeleton />
  else if (book.isError) body = <LoadFailed onRetry={() => void book.refetch()} retrying={book.isFetching} />
  else if (book.data === null) body = <SignedOut />
  else {
    const { addresses, limit } = book.data
    const full = addresses.length >= limit
    body = (
      <>
        {addresses.length > 0 ? (
          <div className="flex flex-wrap items-center justify-between gap-3">
            <p className="text-sm text-ink-soft" data-testid="address-count">
              {addresses.length} of {limit} addresses saved.
            </p>
            {editing === 'new' ? null : (
              <Button onClick={() => setEditing('new')} disabled={full} data-testid="add-address">
                Add an address
              </Button>
            )}
          </div>
        ) : null}
        {full && editing !== 'new' ? (
          <p className="mt-2 text-sm font-semibold text-ink" role="status">
            Your address book is full. Remove an address you no longer need to add another.
          </p>
        ) : null}
        {editing === 'new' ? (
          <AddressForm
            className="mt-4"
            title="New address"
            initial={emptyDraft}
            onSaved={onSaved}
            onCancel={() => {
              setEditing(null)
              setFocusAfter('page')
            }}
          />
        ) : null}
        {addresses.length === 0 && editing !== 'new' ? (
          <div className="mt-6">
            <StatePanel
              testId="addresses-empty"
              title="Keep the addresses you send to"
              action={<Button onClick={() => setEditing('new')}>Add an address</Button>}
            >
              Save your own address and your family’s, with a name for each, like “Grandma Rose”. Only you can see them.
            </StatePanel>
          </div>
        ) : (
          <ul className="mt-6 grid items-start gap-4 sm:grid-cols-2" aria-label="Saved addresses">
            {addresses.map((entry) =>
              editing === entry.id ? (
                <li key={entry.id}>
                  <AddressForm
                    title={`Change “${entry.label}”`}
                    id={entry.id}
                    initial={draftOf(entry)}
                    onSaved={onSaved}
                    onCancel={() => {
                      setEditing(null)
                      setFocusAfter(entry.id)
                    }}
                  />
                </li>
              ) : (
                <AddressCard key={entry.id} entry={entry} onEdit={() => setEditing(entry.id)} onRemoved={onRemoved} />
              ),
            )}
          </ul>
        )}
      </>
    )
  }
  return (
    <main id="main" className="mx-auto max-w-5xl px-4 pb-16 pt-8 sm:px-6 sm:pt-12">
      <h1 ref={heading} tabIndex={-1} className="text-3xl font-bold tracking-tight outline-none sm:text-4xl">
        Address book
      </h1>
      <p className="mt-2 max-w-2xl text-ink-soft">Your own address and your family’s, ready for the gifts you send. Only you can see them.</p>
      <div className="mt-6">{body}</div>
    </main>
  )
}

function AddressCard({
  entry,
  onEdit,
  onRemoved,
}: {
  entry: AddressBookEntry
  onEdit: () => void
  onRemoved: (entry: AddressBookEntry, left: AddressBook) => void
}) {
  const [confirming, setConfirming] = useState(false)
  const [busy, setBusy] = useState(false)
  const keep = useRef<HTMLButtonElement>(null)
  const askRemove = useRef<HTMLButtonElement>(null)
  const asked = useRef(false)

  // Focus follows the question: to Keep it when asked, back to Remove when kept.
  useEffect(() => {
    if (confirming) keep.current?.focus()
    else if (asked.current) askRemove.current?.focus()
    asked.current = confirming
  }, [confirming])

  async function confirmRemove() {
    setBusy(true)
    try {
      const outcome = await removeAddress({ data: { id: entry.id } })
      if (outcome.ok) return onRemoved(entry, outcome.data)
      notify.error(
        outcome.error.status === 404
          ? 'That address was already removed. Reload to see your addresses.'
          : 'We could not remove the address just now. Try again.',
      )
    } catch {
      notify.error('We could not remove the address just now. Check your connection and try again.')
    } finally {
      setBusy(false)
    }
  }

  return (
    <li className="flex flex-col rounded-card bg-cream-card p-5 shadow-card" data-testid="address-card">
      <h2 id={`address-${entry.id}`} tabIndex={-1} className="text-xl font-bold outline-none">
        {entry.label}
      </h2>
      <PostalAddress address={entry} country className="mt-2 not-italic leading-relaxed" />
      {entry.email || entry.phone ? <p className="mt-2 break-all text-sm text-ink-soft">{[entry.email, entry.phone].filter(Boolean).join(' · ')}</p> : null}
      <div className="mt-4 flex flex-wrap gap-2">
        {confirming ? (
          <div role="group" aria-label={`Remove “${entry.label}”?`} className="w-full rounded-xl bg-cranberry-tint p-3">
            <p className="text-sm font-semibold text-ink">Remove “{entry.label}” from your address book?</p>
            <div className="mt-2 flex flex-wrap gap-2">
              <Button onClick={() => void confirmRemove()} disabled={busy} className="px-4">
                {busy ? 'Removing…' : 'Remove address'}
              </Button>
              <button ref={keep} type="button" className={buttonClass('secondary', 'px-4')} onClick={() => setConfirming(false)} disabled={busy}>
                Keep it
              </button>
            </div>
          </div>
        ) : (
          <>
            <button type="button" className={buttonClass('secondary', 'flex-1')} onClick={onEdit}>
              Change<span className="sr-only"> “{entry.label}”</span>
            </button>
            <button ref={askRemove} type="button" className={buttonClass('secondary', 'flex-1')} onClick={() => setConfirming(true)}>
              Remove<span className="sr-only"> “{entry.label}”</span>
            </button>
          </>
        )}
      </div>
    </li>
  )
}

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

function SignedOut() {
  const { demoMode } = usePublicConfig()
  return (
    <StatePanel testId="addresses-signed-out" title="Sign in to see your address book" action={<SignInActions redirect="/photo-products/addresses" />}>
      <p>Addresses you save are kept with your Keepsake account, for the gifts you send.</p>
      <p className="mt-2">{signInHint(demoMode)}</p>
    </StatePanel>
  )
}

function LoadFailed({ onRetry, retrying }: { onRetry: () => void; retrying: boolean }) {
  return (
    <LoadFailedPanel
      testId="addresses-error"
      title="We couldn’t load your address book"
      reassurance="Your addresses are safe. Check your connection and try again."
      supportLead="Need a hand?"
      onRetry={onRetry}
      retrying={retrying}
    />
  )
}

function BookSkeleton() {
  return (
    <div className="grid gap-4 sm:grid-cols-2" role="status" aria-label="Loading your address book">
      {[0, 1].map((i) => (
        <div key={i} className="h-56 animate-pulse rounded-card bg-cream-card shadow-card" />
      ))}
    </div>
  )
}
