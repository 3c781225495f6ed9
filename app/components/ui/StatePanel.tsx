import type { ReactNode } from 'react'
import { usePublicConfig } from '~/lib/public-config'
import { Button } from './Button'
import { SupportLine } from './SupportLine'

/** A designed empty, signed-out or failed state: a dashed card with a title, a few words and an action. */
export function StatePanel({
  title,
  children,
  action,
  art,
  testId,
}: {
  title: string
  children: ReactNode
  action?: ReactNode
  art?: ReactNode
  testId: string
}) {
  return (
    <section className="rounded-card border-2 border-dashed border-ink/15 bg-cream-card/60 px-6 py-12 text-center" data-testid={testId}>
      {art ? (
        <div aria-hidden="true" className="mb-6 flex items-end justify-center gap-2">
          {art}
        </div>
      ) : null}
      <h2 className="text-2xl font-bold tracking-tight">{title}</h2>
      <div className="mx-auto mt-2 max-w-md text-ink-soft">{children}</div>
      {action ? <div className="mt-6 flex flex-wrap justify-center gap-3">{action}</div> : null}
    </section>
  )
}

/** A load that failed: what is still safe, a retry, and the support e-mail. */
export function LoadFailedPanel({
  testId,
  title,
  reassurance,
  supportLead,
  onRetry,
  retrying,
}: {
  testId: string
  title: string
  reassurance: string
  supportLead: string
  onRetry: () => void
  retrying: boolean
}) {
  const { supportEmail } = usePublicConfig()
  return (
    <StatePanel
      testId={testId}
      title={title}
      action={
        <Button onClick={onRetry} disabled={retrying}>
          {retrying ? 'Trying again…' : 'Try again'}
        </Button>
      }
    >
      <p>{reassurance}</p>
      <SupportLine email={supportEmail} lead={supportLead} className="mt-2 text-sm" />
    </StatePanel>
  )
}
