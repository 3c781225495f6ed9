import type { ReactNode } from 'react'
import { usePublicConfig } from '~/lib/public-config'

/** Referral pages that belong to a signed-in family: they open from the Keepsake app. */
export function ReferralAccountPage({ eyebrow, title, children }: { eyebrow: string; title: string; children: ReactNode }) {
  const { deepLinks } = usePublicConfig()
  return (
    <main id="main" className="mx-auto max-w-2xl px-4 py-12 sm:px-6">
      <p className="text-sm font-semibold uppercase tracking-[0.16em] text-pine">{eyebrow}</p>
      <h1 className="mt-2 text-4xl font-bold tracking-tight">{title}</h1>
      <div className="mt-4 space-y-4 text-lg text-ink-soft">{children}</div>
      <a
        href={deepLinks.download}
        className="mt-8 inline-flex min-h-11 items-center justify-center rounded-full bg-cranberry px-6 font-semibold text-white hover:bg-cranberry-dark"
      >
        Open in the Keepsake app
      </a>
    </main>
  )
}
