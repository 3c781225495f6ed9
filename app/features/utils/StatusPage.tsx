import { Link } from '@tanstack/react-router'
import type { ReactNode } from 'react'
import type { EngineStatus, StatusSummary } from './engine-status'
import type { JobsStatus } from './jobs-status'

const jobsBadges: Record<JobsStatus['tone'], string> = {
  ok: 'bg-pine-tint text-pine-dark',
  attention: 'bg-cranberry-tint text-cranberry-dark',
  unknown: 'bg-ink/10 text-ink-soft',
}

const modeBadges: Record<EngineStatus['mode'], { label: string; className: string }> = {
  embedded: { label: 'Embedded', className: 'bg-gold-tint text-gold-dark' },
  production: { label: 'Production', className: 'bg-pine-tint text-pine-dark' },
}

function Badge({ className, children }: { className: string; children: ReactNode }) {
  return <span className={`inline-flex items-center rounded-full px-2.5 py-0.5 text-xs font-bold uppercase tracking-wider ${className}`}>{children}</span>
}

function Row({ label, testId, children }: { label: string; testId: string; children: ReactNode }) {
  return (
    <li className="grid gap-1 px-5 py-4 sm:grid-cols-[10rem_1fr] sm:gap-6" data-testid={testId}>
      <span className="font-semibold text-ink-soft">{label}</span>
      <div>{children}</div>
    </li>
  )
}

/** /utils/status: which engines this server runs on, embedded or production, in plain words. */
export function StatusPage({ summary }: { summary: StatusSummary & { jobs: JobsStatus } }) {
  const demoMode = summary.switches.some((s) => s.id === 'demo' && s.on)
  return (
    <main id="main" className="mx-auto max-w-3xl px-4 py-10 sm:px-6">
      <p className="text-sm font-semibold uppercase tracking-[0.16em] text-pine">Help and tools</p>
      <h1 className="mt-2 text-4xl font-bold tracking-tight">Engine status</h1>
      <p className="mt-3 text-lg text-ink-soft">
        What this Keepsake server runs on. Embedded engines come built in and need no set-up; production engines are the outside services a live store uses.
        Only names and switches are shown here, never addresses, keys or passwords.
      </p>

      <h2 className="mt-10 text-xl font-bold tracking-tight">Engines</h2>
      <ul className="mt-3 divide-y divide-ink/10 rounded-card bg-cream-card shadow-card" data-testid="engines">
        {summary.engines.map((engine) => (
          <Row key={engine.id} label={engine.label} testId={`engine-${engine.id}`}>
            <p className="flex flex-wrap items-center gap-2">
              <span className="text-lg font-semibold" data-testid="engine-name">
                {engine.engine}
              </span>
              <Badge className={modeBadges[engine.mode].className}>{modeBadges[engine.mode].label}</Badge>
            </p>
            <p className="mt-0.5 text-ink-soft">{engine.explanation}</p>
          </Row>
        ))}
      </ul>

      <h2 className="mt-10 text-xl font-bold tracking-tight">Switches</h2>
      <ul className="mt-3 divide-y divide-ink/10 rounded-card bg-cream-card shadow-card" data-testid="switches">
        {summary.switches.map((s) => (
          <Row key={s.id} label={s.label} testId={`switch-${s.id}`}>
            <Badge className={s.on ? 'bg-pine-tint text-pine-dark' : 'bg-ink/10 text-ink-soft'}>{s.on ? 'On' : 'Off'}</Badge>
            <p className="mt-1 text-ink-soft">{s.explanation}</p>
          </Row>
        ))}
      </ul>

      <h2 className="mt-10 text-xl font-bold tracking-tight">Background jobs</h2>
      <ul className="mt-3 divide-y divide-ink/10 rounded-card bg-cream-card shadow-card" data-testid="jobs">
        <Row label="Failed jobs" testId="jobs-failed">
          <p className="flex flex-wrap items-center gap-2">
            <span className="text-lg font-semibold" data-testid="jobs-failed-count">
              {summary.jobs.failed ?? '—'}
            </span>
            <Badge className={jobsBadges[summary.jobs.tone]}>{summary.jobs.label}</Badge>
          </p>
          <p className="mt-0.5 text-ink-soft">{summary.jobs.explanation}</p>
          {demoMode && summary.jobs.tone === 'attention' ? (
            <Link
              to="/utils/failed-jobs"
              className="mt-1 inline-flex min-h-11 items-center font-semibold text-cranberry-dark underline-offset-4 hover:underline"
            >
              See the failed jobs
            </Link>
          ) : null}
        </Row>
      </ul>

      <p className="mt-8 text-sm text-ink-soft" data-testid="app-version">
        {summary.version ? `Keepsake version ${summary.version}.` : 'The version of this build is not recorded.'}{' '}
        <Link to="/utils" className="font-semibold text-cranberry underline-offset-4 hover:underline">
          Back to help and tools
        </Link>
      </p>
    </main>
  )
}
