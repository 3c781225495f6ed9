import { Component, lazy, Suspense, useEffect, useState, type ReactNode } from 'react'
import { startDelivery, whenFirstNote, type Note } from '~/lib/toast'

const SonnerToaster = lazy(() =>
  import('sonner').then(({ Toaster, toast }) => {
    // Rendered after <Toaster>, so its effect runs once the toaster is listening.
    function Deliver() {
      useEffect(() => startDelivery((note) => toast[note.kind](note.message, note.action ? { action: note.action, duration: 10_000 } : undefined)), [])
      return null
    }
    return {
      default: () => (
        <>
          <Toaster position="top-center" richColors closeButton />
          <Deliver />
        </>
      ),
    }
  }),
)

/** Shows `fallback` instead of its children once they fail (sonner could not be fetched). */
class UnlessFailed extends Component<{ fallback: ReactNode; children: ReactNode }, { failed: boolean }> {
  override state = { failed: false }
  static getDerivedStateFromError() {
    return { failed: true }
  }
  override render() {
    return this.state.failed ? this.props.fallback : this.props.children
  }
}

let sequence = 0

/**
 * The notes, plainly, when sonner could not be fetched: offline, the first toast's chunk cannot load, and "the
 * connection was lost" would otherwise never be shown (issue 42, item 17). The same place, words and action.
 */
function PlainToaster() {
  const [notes, setNotes] = useState<(Note & { id: number })[]>([])
  useEffect(() => startDelivery((note) => setNotes((shown) => [...shown, { ...note, id: ++sequence }])), [])
  const close = (id: number) => setNotes((shown) => shown.filter((n) => n.id !== id))
  if (notes.length === 0) return null
  return (
    <section aria-label="Notifications" className="fixed inset-x-0 top-4 z-50 flex justify-center px-4">
      <ol className="grid w-full max-w-sm gap-2">
        {notes.map((note) => (
          <li key={note.id}>
            <div
              role={note.kind === 'error' ? 'alert' : 'status'}
              data-testid="plain-toast"
              className={`flex flex-wrap items-center gap-3 rounded-xl border px-4 py-3 text-sm shadow-card ${
                note.kind === 'error' ? 'border-cranberry/40 bg-cream-card text-cranberry-dark' : 'border-ink/15 bg-cream-card text-ink'
              }`}
            >
              <p className="min-w-0 flex-1">{note.message}</p>
              {note.action ? (
                <button
                  type="button"
                  className="min-h-11 rounded-lg bg-cranberry-dark px-3 font-semibold text-white"
                  onClick={() => {
                    close(note.id)
                    note.action!.onClick()
                  }}
                >
                  {note.action.label}
                </button>
              ) : null}
              <button type="button" className="min-h-11 px-2 font-semibold underline-offset-4 hover:underline" onClick={() => close(note.id)}>
                Close
              </button>
            </div>
          </li>
        ))}
      </ol>
    </section>
  )
}

/**
 * SPEC.md §9: toasts at top-centre; sonner loads with the first toast. When it cannot be fetched (offline), the
 * page's notes are shown plainly from then on: a browser keeps a failed import failed until the page is loaded again.
 */
export function LazyToaster() {
  const [needed, setNeeded] = useState(false)
  useEffect(() => whenFirstNote(() => setNeeded(true)), [])
  if (!needed) return null
  return (
    <UnlessFailed fallback={<PlainToaster />}>
      <Suspense fallback={null}>
        <SonnerToaster />
      </Suspense>
    </UnlessFailed>
  )
}
