import { useId, type ReactNode } from 'react'
import { DialogNotes } from '~/components/ui/DialogNotes'
import { DialogCloseButton, useModalDialog } from '~/components/ui/modal-dialog'
import type { SmokescreenProduct } from '~/contract/smokescreens'
import { SmokescreenArt } from './SmokescreenArt'

type SmokescreenDialogProps = {
  product: SmokescreenProduct | null
  title: string
  description: string
  onClose: () => void
  children: ReactNode
}

/**
 * A small modal on <dialog> (the browser traps focus, Escape closes, focus returns to the opener):
 * a bottom sheet in thumb reach on phones, a centred card from `sm` up. Content mounts only while open.
 */
export function SmokescreenDialog({ product, title, description, onClose, children }: SmokescreenDialogProps) {
  const titleId = useId()
  const descriptionId = useId()
  const open = product !== null
  const dialogProps = useModalDialog(open, onClose)
  return (
    <dialog
      {...dialogProps}
      aria-labelledby={titleId}
      aria-describedby={descriptionId}
      className="fixed inset-x-0 bottom-0 top-auto m-0 max-h-[92dvh] w-full max-w-none rounded-t-[1.5rem] bg-cream p-0 text-ink shadow-card backdrop:bg-ink/60 open:flex sm:inset-0 sm:m-auto sm:h-fit sm:max-h-[88dvh] sm:w-[min(100%-3rem,34rem)] sm:rounded-card"
    >
      <div className="flex min-h-0 w-full flex-col">
        <header className="flex items-start gap-3 border-b border-ink/10 bg-cream-card px-4 pb-3 pt-4 sm:px-6">
          {product ? <SmokescreenArt product={product} className="mt-0.5 h-12 w-auto shrink-0" /> : null}
          <div className="min-w-0 flex-1">
            <h2 id={titleId} className="text-lg font-semibold leading-snug sm:text-xl">
              {title}
            </h2>
            <p id={descriptionId} className="mt-0.5 text-sm text-ink-soft">
              {description}
            </p>
          </div>
          <DialogCloseButton onClose={onClose} className="-mr-2 -mt-1" />
        </header>
        {open ? <DialogNotes className="px-4 pt-3 sm:px-6" /> : null}
        <div className="min-h-0 flex-1 overflow-y-auto overscroll-contain px-4 pb-[max(1.25rem,env(safe-area-inset-bottom))] pt-4 sm:px-6 sm:pb-6">
          {open ? children : null}
        </div>
      </div>
    </dialog>
  )
}
