import { Link, useRouter } from '@tanstack/react-router'
import { useState } from 'react'
import { Button } from '~/components/ui/Button'
import { EmptyState } from '~/components/ui/PageHero'
import type { FailedJob } from '~/contract/jobs'
import { formatTeamTime } from '~/lib/dates'

/** /utils/failed-jobs (demo mode only): background jobs that ran out of attempts, the most recent failure first. */
export function FailedJobsPage({ jobs, total }: { jobs: FailedJob[]; total: number }) {
  const router = useRouter()
  const [refreshing, setRefreshing] = useState(false)
  const refresh = async () => {
    setRefreshing(true)
    await router.invalidate()
    setRefreshing(false)
  }
  return (
    <main id="main" className="mx-auto max-w-3xl px-4 py-10 sm:px-6">
      <p className="text-sm font-semibold uppercase tracking-[0.16em] text-pine">Demo mode · for the team</p>
      <h1 className="mt-2 text-4xl font-bold tracking-tight">Failed jobs</h1>
      <p className="mt-3 text-lg text-ink-soft">
        Background jobs that ran out of attempts — sending an order to the printer, an e-mail, a referral reward — and now wait for a person. Each is also in
        the server log, on a line starting <code className="rounded bg-cream-deep px-1.5 py-0.5 text-base">[jobs] gave up</code>.
      </p>
      <div className="mt-6 flex flex-wrap items-center justify-between gap-3">
        <p className="text-ink-soft" aria-live="polite">
          <strong className="text-ink" data-testid="failed-jobs-total">
            {total} failed {total === 1 ? 'job' : 'jobs'}
          </strong>
          {total > jobs.length ? `, the ${jobs.length} most recent shown` : null}
        </p>
        <Button variant="secondary" onClick={() => void refresh()} disabled={refreshing}>
          {refreshing ? 'Refreshing…' : 'Refresh'}
        </Button>
      </div>
      <div className="mt-6">
        {jobs.length === 0 ? (
          <EmptyState
            level={2}
            title="No failed jobs"
            body="Every background job has finished or is still being retried. A job that runs out of attempts appears here."
            action={
              <Link to="/utils/status" className="inline-flex min-h-11 items-center px-2 font-semibold text-cranberry-dark underline-offset-4 hover:underline">
                See the engine status
              </Link>
            }
          />
        ) : (
          <ol className="space-y-3" aria-label="Failed jobs, most recent first" data-testid="failed-jobs-list">
            {jobs.map((job) => (
              <FailedJobItem key={job.id} job={job} />
            ))}
          </ol>
        )}
      </div>
      <p className="mt-8 text-sm text-ink-soft">
        <Link to="/utils" className="inline-flex min-h-11 items-center font-semibold text-cranberry-dark underline-offset-4 hover:underline">
          Back to help and tools
        </Link>
      </p>
    </main>
  )
}

function FailedJobItem({ job }: { job: FailedJob }) {
  return (
    <li className="rounded-card bg-cream-card px-4 py-4 shadow-card sm:px-5" data-testid="failed-job">
      <div className="flex flex-wrap items-start justify-between gap-x-3 gap-y-1">
        <h2 className="min-w-0 font-semibold leading-snug" data-testid="failed-job-kind">
          {job.kind}
        </h2>
        <span className="inline-flex shrink-0 items-center rounded-full bg-cranberry-tint px-2.5 py-0.5 text-sm font-semibold text-cranberry-dark">
          Failed {formatTeamTime(job.failedAt)}
        </span>
      </div>
      <dl className="mt-2 grid gap-x-4 gap-y-1 text-sm sm:grid-cols-[7rem_1fr]">
        <dt className="font-semibold text-ink-soft">Key</dt>
        <dd className="break-all font-mono text-ink" data-testid="failed-job-key">
          {job.dedupeKey}
        </dd>
        <dt className="font-semibold text-ink-soft">Attempts</dt>
        <dd className="text-ink" data-testid="failed-job-attempts">
          {job.attempts} of {job.maxAttempts}
        </dd>
        <dt className="font-semibold text-ink-soft">Queued</dt>
        <dd className="text-ink">{formatTeamTime(job.createdAt)}</dd>
        <dt className="font-semibold text-ink-soft">Last error</dt>
        <dd>
          <pre
            className="whitespace-pre-wrap break-words rounded-xl bg-cream px-3 py-2 font-mono text-sm leading-relaxed text-ink"
            data-testid="failed-job-error"
          >
            {job.lastError ?? 'No error was recorded.'}
          </pre>
        </dd>
      </dl>
    </li>
  )
}
