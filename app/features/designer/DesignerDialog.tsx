import { useId, type ReactNode, type RefObject } from 'react'
import { DialogNotes } from '~/components/ui/DialogNotes'
import { DialogCloseButton, useModalDialog } from '~/components/ui/modal-dialog'

type DesignerDialogProps = {
  open: boolean
  onClose: () => void
  title: string
  children: ReactNode
  /** Shown under the title. */
  description?: ReactNode
  /** From `sm` up: 'tall' keeps a steady height while content loads; 'fit' hugs its content. */
  size?: 'tall' | 'fit'
  /** Where focus goes when it closes, if not to what had it when it opened (useModalDialog). */
  returnFocus?: RefObject<HTMLElement | null>
}

/**
 * A modal built on <dialog>: the browser traps focus, Escape closes it, and focus returns to the
 * button that opened it. A full-height sheet on phones, a centred panel from `sm` up. Its content
 * mounts only while open, so nothing is fetched for a closed dialog.
 */
export function DesignerDialog({ open, onClose, title, description, size = 'tall', returnFocus, children }: DesignerDialogProps) {
  const titleId = useId()
  const dialogProps = useModalDialog(open, onClose, returnFocus)
  return (
    <dialog
      {...dialogProps}
      aria-labelledby={titleId}
      className={`fixed inset-0 m-0 h-dvh max-h-none w-full max-w-none bg-cream p-0 text-ink backdrop:bg-ink/60 open:flex sm:m-auto sm:w-[min(100%-3rem,60rem)] sm:rounded-card sm:shadow-card ${
        size === 'tall' ? 'sm:h-[min(88dvh,56rem)]' : 'sm:h-fit sm:max-h-[88dvh]'
      }`}
    >
      <div className="flex min-h-0 w-full flex-col">
        <header className="flex items-start justify-between gap-3 border-b border-ink/10 bg-cream-card px-4 py-3 sm:px-6">
          <div className="min-w-0 pt-2">
            <h2 id={titleId} className="text-lg font-semibold sm:text-xl">
              {title}
            </h2>
            {description ? <p className="mt-0.5 text-sm text-ink-soft">{description}</p> : null}
          </div>
          <DialogCloseButton onClose={onClose} />
        </header>
        {open ? <DialogNotes className="px-4 pt-3 sm:px-6" /> : null}
        <div className="min-h-0 flex-1 overflow-y-auto overscroll-contain px-4 py-4 sm:px-6">{open ? children : null}</div>
      </div>
    </dialog>
  )
}
