/**
 * Toasts. sonner is fetched only when the first toast is raised, so it is in no page's first load
 * (the 100 KB budget of the Foundation issue); toasts raised before it arrives wait in a queue.
 */
export type Note = { kind: 'success' | 'error'; message: string; action?: { label: string; onClick: () => void } }

const waiting: Note[] = []
let deliver: ((note: Note) => void) | null = null
const onFirst = new Set<() => void>()

function raise(note: Note) {
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
