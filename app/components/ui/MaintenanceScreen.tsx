import { LogoMark } from './Logo'

/**
 * SPEC.md §1: the maintenance screen — a logo, the title and two text blocks. `outage`: the same screen for a page
 * whose data could not be loaded because a dependency (the database) is not answering: "we'll be right back", with
 * a Try again, never the crash screen (issue 43, item 6; decision 073).
 */
export function MaintenanceScreen({ outage }: { outage?: { onRetry: () => void } } = {}) {
  return (
    <main id="main" className="flex min-h-dvh flex-col items-center justify-center bg-cream px-6 py-16 text-center">
      <LogoMark className="size-20" />
      <h1 className="mt-8 text-3xl font-bold tracking-tight text-ink sm:text-4xl">{outage ? 'We’ll be right back' : 'Maintenance in progress'}</h1>
      <p className="mt-4 max-w-md text-lg text-ink-soft">
        {outage
          ? 'Part of Keepsake is not answering right now. Please try again in a moment.'
          : 'Keepsake is undergoing maintenance right now. We will be back soon.'}
      </p>
      <p className="mt-3 max-w-md text-base text-ink-soft">Thank you for your understanding.</p>
      {outage ? (
        <button
          type="button"
          onClick={outage.onRetry}
          className="mt-8 inline-flex min-h-11 items-center rounded-full bg-cranberry px-6 font-semibold text-white hover:bg-cranberry-dark"
        >
          Try again
        </button>
      ) : null}
    </main>
  )
}
