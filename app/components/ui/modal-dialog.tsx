import { useEffect, useRef, type MouseEvent, type RefObject } from 'react'

/**
 * A modal on <dialog>, opened and closed by `open`: the browser traps focus, Escape closes it, and
 * focus returns to the button that opened it. Spread `dialogProps` on the <dialog>; a tap on the
 * backdrop (the dialog element itself, outside its panel) closes it too.
 *
 * The browser gives focus back to what had it when the dialog opened; where that was nothing (a dialog opened by
 * work the shopper waited for, its button disabled meanwhile) or the dialog is unmounted while open, focus would
 * fall to <body>. `returnFocus` names where it goes instead; by default, what had focus when the dialog opened.
 */
export function useModalDialog(open: boolean, onClose: () => void, returnFocus?: RefObject<HTMLElement | null>) {
  const ref = useRef<HTMLDialogElement>(null)
  const shown = useRef(false)
  const opener = useRef<HTMLElement | null>(null)
  useEffect(() => {
    const dialog = ref.current
    if (!dialog) return
    if (open && !dialog.open) {
      const active = document.activeElement
      opener.current = active instanceof HTMLElement && active !== document.body ? active : null
      dialog.showModal()
      shown.current = true
    }
    if (!open && dialog.open) dialog.close()
    if (!open && shown.current) {
      shown.current = false
      giveFocusBack(returnFocus?.current ?? opener.current)
    }
  }, [open, returnFocus])
  // Unmounted while open (a keyed dialog replaced as it closes): the same way back. `returnFocus` is a ref object,
  // the same one on every render, so this runs at unmount only.
  useEffect(
    () => () => {
      if (shown.current) giveFocusBack(returnFocus?.current ?? opener.current)
    },
    [returnFocus],
  )
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

/** Focus to `to` once a dialog has closed, unless focus already went somewhere (not <body>) or `to` cannot take it. */
function giveFocusBack(to: HTMLElement | null) {
  const active = document.activeElement
  if (active && active !== document.body && active.isConnected && !active.closest('dialog:not([open])')) return
  if (!to?.isConnected || (to as HTMLButtonElement).disabled) return
  to.focus()
}
