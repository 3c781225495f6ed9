import { Link } from '@tanstack/react-router'
import type { ReactNode } from 'react'
import { ButtonLink } from '~/components/ui/Button'
import { StatePanel } from '~/components/ui/StatePanel'
import { ReferralArt } from './ReferralArt'

/** The frame of an advocate's own referral pages (one redemption, past referrals): a way back, the title, the page. */
export function ReferralAccountPage({ title, lead, children }: { title: string; lead?: ReactNode; children: ReactNode }) {
  return (
    <main id="main" className="mx-auto max-w-4xl px-4 pb-16 pt-6 sm:px-6 sm:pt-10">
      <Link to="/referral" className="-ml-2 inline-flex min-h-11 items-center gap-1 rounded-full px-2 text-sm font-semibold text-ink-soft hover:text-ink">
        <span aria-hidden="true">←</span> Refer a friend
      </Link>
      <h1 className="mt-2 text-balance text-3xl font-bold tracking-tight sm:text-4xl">{title}</h1>
      {lead ? <p className="mt-2 max-w-2xl text-pretty text-lg text-ink-soft">{lead}</p> : null}
      <div className="mt-6">{children}</div>
    </main>
  )
}

/** A redemption that is not this advocate's (or does not exist): said plainly, with the way to their own. */
export function ReferralNotFound() {
  return (
    <StatePanel
      testId="referral-not-found"
      title="We can’t find this referral"
      art={<ReferralArt className="w-28 opacity-80" />}
      action={<ButtonLink to="/referral">See your referrals</ButtonLink>}
    >
      <p>The link may be incomplete, or the referral belongs to another Keepsake account. Your own invites and rewards are on your Refer a friend page.</p>
    </StatePanel>
  )
}

export function ReferralPageSkeleton({ label }: { label: string }) {
  return (
    <div role="status" aria-label={label} className="space-y-4">
      <div className="h-40 animate-pulse rounded-card bg-cream-card shadow-card" />
      <div className="h-56 animate-pulse rounded-card bg-cream-card shadow-card" />
    </div>
  )
}
