import { lazy, Suspense, useEffect, useState } from 'react'
import { startDelivery, whenFirstNote } from '~/lib/toast'

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

/** SPEC.md §9: toasts at top-centre; sonner loads with the first toast. */
export function LazyToaster() {
  const [needed, setNeeded] = useState(false)
  useEffect(() => whenFirstNote(() => setNeeded(true)), [])
  if (!needed) return null
  return (
    <Suspense fallback={null}>
      <SonnerToaster />
    </Suspense>
  )
}
