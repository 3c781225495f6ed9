import { useSessionContext } from '~/lib/session'

/** /utils/session: the tab's session context, for support conversations and campaign-link checks. */
export function SessionInfo() {
  const session = useSessionContext()
  const rows = [
    ['Session id (sid)', session?.sid],
    ['Market', session?.market],
    ['User (uuid)', session?.uuid],
    ['Campaign data', session?.data],
  ] as const
  return (
    <main id="main" className="mx-auto max-w-2xl px-4 py-10 sm:px-6">
      <h1 className="text-4xl font-bold tracking-tight">Your session</h1>
      <p className="mt-3 text-lg text-ink-soft">If support asks for your session id, this is it. Nothing here identifies you outside Keepsake.</p>
      {session ? (
        <dl className="mt-6 divide-y divide-ink/10 rounded-card bg-cream-card shadow-card" data-testid="session-context">
          {rows.map(([label, value]) => (
            <div key={label} className="grid gap-1 px-5 py-4 sm:grid-cols-[12rem_1fr]">
              <dt className="font-semibold">{label}</dt>
              <dd className="break-all font-mono text-sm text-ink-soft" data-field={label}>
                {value ?? '—'}
              </dd>
            </div>
          ))}
        </dl>
      ) : (
        <p className="mt-6 text-ink-soft">Starting your session…</p>
      )}
    </main>
  )
}
