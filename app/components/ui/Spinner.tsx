/** The one loading indicator: a ring that turns (still under prefers-reduced-motion) with a spoken label. */
export function Spinner({ label = 'Loading…', className = '' }: { label?: string; className?: string }) {
  return (
    <div role="status" aria-live="polite" className={`flex flex-col items-center justify-center gap-3 py-16 ${className}`}>
      <span aria-hidden="true" className="size-10 animate-spin rounded-full border-4 border-cranberry-tint border-t-cranberry" />
      <span className="text-sm text-ink-soft">{label}</span>
    </div>
  )
}

export function PageSpinner() {
  return (
    <div className="flex min-h-[50dvh] items-center justify-center" data-testid="page-spinner">
      <Spinner />
    </div>
  )
}
