import { useEffect, useRef, type MouseEvent } from 'react'

/**
 * A modal on <dialog>, opened and closed by `open`: the browser traps focus, Escape closes it, and
 * focus returns to the button that opened it. Spread `dialogProps` on the <dialog>; a tap on the
 * backdrop (the dialog element itself, outside its panel) closes it too.
 */
export function useModalDialog(open: boolean, onClose: () => void) {
  const ref = useRef<HTMLDialogElement>(null)
  useEffect(() => {
    const dialog = ref.current
    if (!dialog) return
    if (open && !dialog.open) dialog.showModal()
    if (!open && dialog.open) dialog.close()
  }, [open])
  return {
    ref,
    onClose,
    onClick: (e: MouseEvent<HTMLDialogElement>) => {
      if (e.target === e.currentTarget) onClose()
    },
  }
}

/** The × in a dialog's header. */
export function DialogCloseButton({ onClose, className = '' }: { onClose: () => void; className?: string }) {
  return (
    <button
      type="button"
      onClick={onClose}
      className={`grid size-11 shrink-0 place-items-center rounded-full text-2xl leading-none text-ink-soft hover:bg-ink/5 hover:text-ink ${className}`}
      aria-label="Close"
    >
      <span aria-hidden="true">×</span>
    </button>
  )
}
