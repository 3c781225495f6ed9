import { LogoMark } from './Logo'
import { SupportLine } from './SupportLine'

type ErrorPageProps = {
  /** The error's text; "Unknown error" when there is none (SPEC.md §8). */
  title?: string
  message?: string
  /** Shown as a button when given. */
  onRetry?: () => void
  retryLabel?: string
  supportEmail?: string
}

/** SPEC.md §8: the generic error page — the error text or "Unknown error", a message, an optional Retry button. */
export function ErrorPage({ title, message, onRetry, retryLabel = 'Retry', supportEmail }: ErrorPageProps) {
  return (
    <main id="main" className="mx-auto flex min-h-[60dvh] max-w-xl flex-col items-center justify-center px-6 py-16 text-center">
      <LogoMark className="mb-6 size-14 opacity-90" />
      <h1 className="text-4xl font-bold tracking-tight text-ink">{title || 'Unknown error'}</h1>
      {message ? <p className="mt-3 text-lg text-ink-soft">{message}</p> : null}
      {supportEmail ? <SupportLine email={supportEmail} /> : null}
      <div className="mt-8 flex flex-wrap justify-center gap-3">
        {onRetry ? (
          <button
            type="button"
            onClick={onRetry}
            className="inline-flex min-h-11 items-center rounded-full bg-cranberry px-6 font-semibold text-white hover:bg-cranberry-dark"
          >
            {retryLabel}
          </button>
        ) : null}
        <a
          href="/photo-products"
          className="inline-flex min-h-11 items-center rounded-full border-2 border-ink/15 px-6 font-semibold text-ink hover:border-ink/30"
        >
          Go to the store
        </a>
      </div>
    </main>
  )
}

/** SPEC.md §2, §8: any other path — title 404, message "Page Not Found", optional retry. */
export function NotFoundPage({ onRetry }: { onRetry?: () => void }) {
  return <ErrorPage title="404" message="Page Not Found" onRetry={onRetry} />
}

/**
 * A path that does not decode (a malformed percent escape, often a link cut short when it was copied): answered 400,
 * and not called a missing page (issue 32).
 */
export function BadLinkPage() {
  return (
    <ErrorPage title="400" message="This link is broken: part of its address cannot be read. Check the link you followed, or start again from the store." />
  )
}
