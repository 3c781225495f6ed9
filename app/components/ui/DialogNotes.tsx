import { useEffect, useState } from 'react'
import { raiseNote, showNotesIn, type Note } from '~/lib/toast'

/** A success note leaves on its own after this long; an error stays until it is dismissed or acted on. */
const SUCCESS_MS = 6_000
/** A note raised this shortly before the dialog closes is shown again by the page's toaster. */
const HAND_BACK_MS = 1_500

/**
 * The notes (toasts) raised while this modal dialog is open, shown inside it at its top, where the
 * shopper is looking, with their action (Retry…) clickable (issue 15, bug 14). Render it only while
 * the dialog is open: mounting takes the notes, unmounting gives them back to the page's toaster.
 */
export function DialogNotes({ className = '' }: { className?: string }) {
  const [notes, setNotes] = useState<(Note & { id: number })[]>([])
  useEffect(() => {
    let next = 0
    const timers = new Set<ReturnType<typeof setTimeout>>()
    // Notes raised just before the dialog closed (often by the same tap) go on to the page's toaster.
    const recent: { note: Note; at: number }[] = []
    const release = showNotesIn((note) => {
      const id = next++
      recent.push({ note, at: Date.now() })
      setNotes((all) => [...all.slice(-2), { ...note, id }])
      if (note.kind === 'success') {
        const timer = setTimeout(() => setNotes((all) => all.filter((n) => n.id !== id)), SUCCESS_MS)
        timers.add(timer)
      }
    })
    return () => {
      release()
      timers.forEach(clearTimeout)
      for (const { note, at } of recent) if (Date.now() - at < HAND_BACK_MS) raiseNote(note)
    }
  }, [])
  const dismiss = (id: number) => setNotes((all) => all.filter((n) => n.id !== id))
  return (
    <div aria-live="polite" className={`space-y-2 empty:hidden ${className}`} data-testid="dialog-notes">
      {notes.map((note) => (
        <div
          key={note.id}
          role={note.kind === 'error' ? 'alert' : 'status'}
          className={`flex items-start gap-3 rounded-card border px-4 py-3 text-sm font-semibold ${
            note.kind === 'error' ? 'border-cranberry/30 bg-cranberry/5 text-cranberry-dark' : 'border-pine/30 bg-pine/5 text-pine'
          }`}
          data-testid="dialog-note"
        >
          <p className="min-w-0 flex-1 py-1.5">{note.message}</p>
          {note.action ? (
            <button
              type="button"
              className="min-h-9 shrink-0 rounded-full border border-current px-3 font-semibold"
              onClick={() => {
                dismiss(note.id)
                note.action!.onClick()
              }}
            >
              {note.action.label}
            </button>
          ) : null}
          <button
            type="button"
            className="grid size-9 shrink-0 place-items-center rounded-full text-lg leading-none hover:bg-ink/5"
            aria-label="Dismiss"
            onClick={() => dismiss(note.id)}
          >
            <span aria-hidden="true">×</span>
          </button>
        </div>
      ))}
    </div>
  )
}
