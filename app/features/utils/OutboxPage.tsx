import { useQuery } from '@tanstack/react-query'
import { Link } from '@tanstack/react-router'
import { useId, useState } from 'react'
import { Button } from '~/components/ui/Button'
import { EmptyState } from '~/components/ui/PageHero'
import { LoadFailedPanel } from '~/components/ui/StatePanel'
import type { OutboxEmail } from '~/contract/egifts'
import { currentUserQuery } from '../account/account.functions'
import { outboxQuery } from './outbox.functions'
import { formatTeamTime } from '~/lib/dates'

/** While an e-mail due now is still 'scheduled', the job worker is about to send it: the list asks again this often. */
const POLL_EVERY_MS = 2000

const dueNow = (emails: OutboxEmail[] | null | undefined) =>
  Boolean(emails?.some((e) => e.status === 'scheduled' && new Date(e.sendAfter).getTime() <= Date.now()))

const statusStyles: Record<OutboxEmail['status'], { label: string; className: string }> = {
  scheduled: { label: 'Scheduled', className: 'bg-gold-tint text-gold-dark' },
  sent: { label: 'Sent', className: 'bg-pine-tint text-pine-dark' },
  failed: { label: 'Failed', className: 'bg-cranberry-tint text-cranberry-dark' },
}

/** /utils/outbox (demo mode only): every e-mail the store has written, newest first, sent or not. */
export function OutboxPage() {
  const outbox = useQuery({ ...outboxQuery(), refetchInterval: (q) => (dueNow(q.state.data) ? POLL_EVERY_MS : false) })
  const user = useQuery(currentUserQuery())
  const emails = outbox.data ?? []

  let body
  if (outbox.isPending || user.isPending) body = <OutboxSkeleton />
  else if (user.isSuccess && !user.data) {
    // A gift e-mail holds a redeemable code: the outbox shows each shopper only their own (issue 15, bug 7).
    body = (
      <EmptyState
        level={2}
        title="Sign in to see your e-mails"
        body="The outbox shows the e-mails you sent or received as a demo family — each one holds a real gift code, so nobody else’s."
        action={
          <Link
            to="/utils/demo-sign-in"
            search={{ redirect: '/utils/outbox' }}
            className="inline-flex min-h-11 items-center px-2 font-semibold text-cranberry-dark underline-offset-4 hover:underline"
          >
            Sign in as a demo family
          </Link>
        }
      />
    )
  } else if (outbox.isError) {
    body = (
      <LoadFailedPanel
        testId="outbox-error"
        title="We couldn’t load the outbox"
        reassurance="The e-mails are still stored; this page only reads them. Try again in a moment."
        supportLead="Still stuck?"
        onRetry={() => void outbox.refetch()}
        retrying={outbox.isFetching}
      />
    )
  } else if (emails.length === 0) {
    body = (
      <EmptyState
        level={2}
        title="No e-mails yet"
        body="E-mails appear here as the store writes them — for example when an e-gift is paid for."
        action={
          <Link to="/egifts" className="inline-flex min-h-11 items-center px-2 font-semibold text-cranberry-dark underline-offset-4 hover:underline">
            Send an e-gift
          </Link>
        }
      />
    )
  } else {
    body = (
      <ol className="space-y-3" aria-label="E-mails, newest first" data-testid="outbox-list">
        {emails.map((email) => (
          <OutboxItem key={email.id} email={email} />
        ))}
      </ol>
    )
  }

  return (
    <main id="main" className="mx-auto max-w-4xl px-4 pb-16 pt-8 sm:px-6 sm:pt-12">
      <p className="text-sm font-semibold uppercase tracking-[0.16em] text-pine">Demo mode</p>
      <div className="mt-2 flex flex-wrap items-end justify-between gap-4">
        <div className="min-w-0">
          <h1 className="text-3xl font-bold tracking-tight sm:text-4xl">Outbox</h1>
          <p className="mt-2 max-w-2xl text-lg text-ink-soft">
            The e-mails the store has written to you or for gifts you sent, newest first. On this demo store nothing leaves the building: open one to read it as
            its recipient would.
          </p>
        </div>
        <Button variant="secondary" onClick={() => void outbox.refetch()} disabled={outbox.isFetching} data-testid="outbox-refresh">
          <svg viewBox="0 0 20 20" aria-hidden="true" className={`size-5 ${outbox.isFetching ? 'animate-spin' : ''}`}>
            <path d="M16 10a6 6 0 1 1-1.8-4.3M16 3.5v3.2h-3.2" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" strokeLinejoin="round" />
          </svg>
          {outbox.isFetching ? 'Refreshing…' : 'Refresh'}
        </Button>
      </div>
      <p className="sr-only" role="status" aria-live="polite">
        {outbox.isSuccess ? `${emails.length} ${emails.length === 1 ? 'e-mail' : 'e-mails'}` : ''}
      </p>
      <div className="mt-8">{body}</div>
    </main>
  )
}

function OutboxItem({ email }: { email: OutboxEmail }) {
  const id = useId()
  const status = statusStyles[email.status]
  // The body is drawn only once opened: a long outbox loads no frame it does not show.
  const [open, setOpen] = useState(false)
  return (
    <li className="overflow-hidden rounded-card bg-cream-card shadow-card" data-testid="outbox-email" data-status={email.status}>
      <details className="group" onToggle={(e) => setOpen(e.currentTarget.open)}>
        <summary className="flex min-h-11 cursor-pointer list-none gap-3 px-4 py-4 hover:bg-cream-deep/40 sm:px-5 [&::-webkit-details-marker]:hidden">
          <svg viewBox="0 0 20 20" aria-hidden="true" className="mt-1 size-5 shrink-0 text-ink-soft transition-transform group-open:rotate-90">
            <path d="M7 4l6 6-6 6" fill="none" stroke="currentColor" strokeWidth="2.2" strokeLinecap="round" strokeLinejoin="round" />
          </svg>
          <span className="min-w-0 flex-1">
            <span className="flex flex-wrap items-start justify-between gap-x-3 gap-y-1">
              <span className="min-w-0 font-semibold leading-snug" data-testid="outbox-subject">
                {email.subject}
              </span>
              <span
                className={`inline-flex shrink-0 items-center rounded-full px-2.5 py-0.5 text-sm font-semibold ${status.className}`}
                data-testid="outbox-status"
              >
                {status.label}
              </span>
            </span>
            <span className="mt-1 block break-all text-sm text-ink-soft">
              To{' '}
              <span className="font-medium text-ink" data-testid="outbox-to">
                {email.to}
              </span>
            </span>
            <span className="mt-1 flex flex-wrap gap-x-4 gap-y-0.5 text-sm text-ink-soft">
              <span>{email.status === 'sent' && email.sentAt ? `Sent ${formatTeamTime(email.sentAt)}` : `Send after ${formatTeamTime(email.sendAfter)}`}</span>
              <span>
                via {email.transport === 'smtp' ? 'SMTP' : 'the outbox only'} · {email.kind}
              </span>
            </span>
            {email.lastError ? <span className="mt-1 block text-sm font-semibold text-cranberry-dark">Last error: {email.lastError}</span> : null}
          </span>
        </summary>
        {open ? (
          <div className="grid gap-6 border-t border-ink/10 px-4 py-5 sm:px-5 lg:grid-cols-2">
            <section aria-labelledby={`${id}-text`}>
              <h2 id={`${id}-text`} className="text-sm font-semibold uppercase tracking-[0.12em] text-ink-soft">
                Plain text
              </h2>
              <pre
                className="mt-2 max-h-[28rem] overflow-auto whitespace-pre-wrap break-words rounded-xl bg-cream px-4 py-3 font-mono text-sm leading-relaxed text-ink"
                data-testid="outbox-text"
              >
                {email.text}
              </pre>
            </section>
            <section aria-labelledby={`${id}-html`}>
              <h2 id={`${id}-html`} className="text-sm font-semibold uppercase tracking-[0.12em] text-ink-soft">
                HTML
              </h2>
              {/* sandbox="": the e-mail's HTML runs no script, submits no form and opens nothing; it is only drawn. */}
              <iframe
                sandbox=""
                srcDoc={email.html}
                title={`HTML version of “${email.subject}”`}
                className="mt-2 h-[28rem] w-full rounded-xl border-2 border-ink/10 bg-white"
              />
            </section>
          </div>
        ) : null}
      </details>
    </li>
  )
}

function OutboxSkeleton() {
  return (
    <div role="status" aria-label="Loading the outbox" className="space-y-3">
      {Array.from({ length: 3 }, (_, i) => (
        <div key={i} className="space-y-2 rounded-card bg-cream-card p-5 shadow-card">
          <div className="h-4 w-2/3 animate-pulse rounded bg-cream-deep" />
          <div className="h-3 w-1/3 animate-pulse rounded bg-cream-deep" />
        </div>
      ))}
    </div>
  )
}
