import { useQuery, useQueryClient } from '@tanstack/react-query'
import { useEffect, useRef, useState, type ReactNode } from 'react'
import { Button, buttonClass } from '~/components/ui/Button'
import { LoadFailedPanel, StatePanel } from '~/components/ui/StatePanel'
import { SignInActions, signInHint } from '~/components/ui/SignInActions'
import type { AddressBook, AddressBookEntry } from '~/contract/addresses'
import { PostalAddress } from '~/components/ui/AddressFields'
import { usePublicConfig } from '~/lib/public-config'
import { notify } from '~/lib/toast'
import { addressBookQuery, removeAddress } from './addresses.functions'
import { AddressForm, draftOf, emptyDraft } from './AddressForm'

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
  else if (book.isLoadingError) body = <LoadFailed onRetry={() => void book.refetch()} retrying={book.isFetching} />
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
