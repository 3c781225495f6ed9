/**
 * Toasts. sonner is fetched only when the first toast is raised, so it is in no page's first load
 * (the 100 KB budget of the Foundation issue); toasts raised before it arrives wait in a queue.
 */
export type Note = { kind: 'success' | 'error'; message: string; action?: { label: string; onClick: () => void } }

const waiting: Note[] = []
let deliver: ((note: Note) => void) | null = null
const onFirst = new Set<() => void>()
/** Open modal dialogs, innermost last: each takes the notes raised while it is on top. */
const dialogs: ((note: Note) => void)[] = []

/**
 * An open modal dialog shows the notes raised while it is on top, inside itself: the page's toasts
 * are drawn beneath a modal <dialog> (the top layer), where they can be neither read nor clicked
 * (issue 15, bug 14). Answers the function that gives them back to the page's toaster.
 */
export function showNotesIn(dialog: (note: Note) => void) {
  dialogs.push(dialog)
  return () => {
    const at = dialogs.lastIndexOf(dialog)
    if (at >= 0) dialogs.splice(at, 1)
  }
}

/** Raises a note as `notify` does (DialogNotes hands back the ones raised just before it closed). */
export function raiseNote(note: Note) {
  raise(note)
}

function raise(note: Note) {
  const top = dialogs.at(-1)
  if (top) return top(note)
  if (deliver) return deliver(note)
  waiting.push(note)
  for (const listener of onFirst) listener()
}

export const notify = {
  success: (message: string, action?: Note['action']) => raise({ kind: 'success', message, action }),
  error: (message: string, action?: Note['action']) => raise({ kind: 'error', message, action }),
}

/** Called by the toaster once something needs showing. */
export function whenFirstNote(listener: () => void) {
  onFirst.add(listener)
  if (waiting.length) listener()
  return () => {
    onFirst.delete(listener)
  }
}

/** Called by the toaster once it is mounted: shows what waited and everything after. */
export function startDelivery(show: (note: Note) => void) {
  deliver = show
  for (const note of waiting.splice(0)) show(note)
}
