import type { ReactNode } from 'react'
import { LogoMark } from './Logo'
import { Spinner } from './Spinner'

/**
 * The whole page a payment provider sends the shopper back to, while it says one thing: a centred
 * message with the logo, a title, a few words and what to do next.
 */
export function ReturnMessage({ title, children, actions, testId }: { title: string; children: ReactNode; actions?: ReactNode; testId: string }) {
  return (
    <main id="main" className="mx-auto flex min-h-[60dvh] max-w-xl flex-col items-center justify-center px-6 py-16 text-center" data-testid={testId}>
      <LogoMark className="mb-6 size-14" />
      <h1 className="text-3xl font-bold tracking-tight">{title}</h1>
      <div className="mt-3 text-lg text-ink-soft">{children}</div>
      {actions ? <div className="mt-8 flex flex-wrap items-center justify-center gap-3">{actions}</div> : null}
    </main>
  )
}

/** While the payment is being confirmed. */
export function ReturnConfirming({ label = 'Confirming your payment…', testId }: { label?: string; testId: string }) {
  return (
    <main id="main" className="mx-auto flex min-h-[60dvh] max-w-xl flex-col items-center justify-center px-6 py-16 text-center" data-testid={testId}>
      <h1 className="text-3xl font-bold tracking-tight">Almost there</h1>
      <Spinner label={label} />
    </main>
  )
}
