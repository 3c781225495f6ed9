import { useQuery } from '@tanstack/react-query'
import { Link } from '@tanstack/react-router'
import type { ReactNode } from 'react'
import { LoadFailedPanel } from '~/components/ui/StatePanel'
import type { AdvocateRedemption } from '~/contract/referral'
import { formatCents } from '~/catalogue/currency'
import { LocalDate } from '~/lib/dates'
import { ReferralAccountPage, ReferralNotFound, ReferralPageSkeleton } from './ReferralAccountPage'
import { advocateRedemptionQuery } from './referral.functions'
import { rewardExplanation, RewardTimeline, StatusBadge } from './RewardStatus'
import { SignInPrompt } from './SignInPrompt'
import { useLogOnce } from './user-actions'

export const REDEMPTION_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

const sameCode = (a: string, b: string) => a.toUpperCase() === b.toUpperCase()

/** /referral/advocate/{code}/redemptions/{id}: one friend's redemption and where the advocate's reward is. */
export function RedemptionPage({ code, redemptionId }: { code: string; redemptionId: string }) {
  const valid = REDEMPTION_ID.test(redemptionId)
  const query = useQuery({ ...advocateRedemptionQuery(redemptionId), enabled: valid })
  const here = `/referral/advocate/${encodeURIComponent(code)}/redemptions/${encodeURIComponent(redemptionId)}`

  let body: ReactNode
  let found: AdvocateRedemption | null = null
  if (!valid) body = <ReferralNotFound />
  else if (query.isPending) body = <ReferralPageSkeleton label="Loading this referral" />
  else if (query.isLoadingError || (!query.data.ok && query.data.error.status !== 401 && query.data.error.status !== 404)) {
    body = (
      <LoadFailedPanel
        testId="redemption-error"
        title="We couldn’t load this referral"
        reassurance="Your reward is safe. Check your connection and try again."
        supportLead="Still stuck?"
        onRetry={() => void query.refetch()}
        retrying={query.isFetching}
      />
    )
  } else if (!query.data.ok && query.data.error.status === 401) {
    body = (
      <SignInPrompt title="Sign in to see this referral" redirect={here}>
        <p>Referral rewards belong to the family that shared the invite. Sign in as that family to see this friend’s progress.</p>
      </SignInPrompt>
    )
  } else if (!query.data.ok || !sameCode(query.data.data.code, code)) {
    body = <ReferralNotFound />
  } else {
    found = query.data.data.redemption
    body = <RedemptionDetails code={query.data.data.code} redemption={found} />
  }
  return <ReferralAccountPage title={found ? `${found.friendFirstName}’s referral` : 'Your referral reward'}>{body}</ReferralAccountPage>
}

function RedemptionDetails({ code, redemption: r }: { code: string; redemption: AdvocateRedemption }) {
  useLogOnce('advocate', 'viewed_redemption', { status: r.status })
  return (
    <div className="grid gap-6 md:grid-cols-[minmax(0,1fr)_18rem] md:items-start">
      <section aria-labelledby="progress-heading" className="rounded-card bg-cream-card p-5 shadow-card sm:p-7" data-testid="redemption-detail">
        <div className="flex flex-wrap items-center justify-between gap-3">
          <h2 id="progress-heading" className="text-xl font-bold">
            Your reward
          </h2>
          <StatusBadge status={r.status} />
        </div>
        <p className="mt-2 text-ink-soft" data-testid="reward-explanation">
          {rewardExplanation(r)}
        </p>
        <div className="mt-6">
          <RewardTimeline redemption={r} />
        </div>
      </section>
      <aside aria-label="Summary" className="rounded-card bg-cream-card p-5 shadow-card">
        <dl className="space-y-3">
          <Fact label="Friend" value={r.friendFirstName} />
          <Fact label="Your reward" value={<span className="tabular-nums">{formatCents(r.rewardCents)}</span>} />
          <Fact label="Invite redeemed" value={<LocalDate iso={r.redeemedAt} />} />
          {r.status === 'pending' ? <Fact label="Invite good until" value={<LocalDate iso={r.expiresAt} />} /> : null}
          <Fact label="Invite code" value={<span className="font-mono">{code}</span>} />
        </dl>
        <Link
          to="/referral/advocate/$advocateReferralCode/redemptions/$redemptionId/past"
          params={{ advocateReferralCode: code, redemptionId: r.id }}
          className="mt-4 inline-flex min-h-11 items-center font-semibold text-cranberry-dark underline-offset-4 hover:underline"
        >
          All your referrals <span aria-hidden="true">&nbsp;→</span>
        </Link>
      </aside>
    </div>
  )
}

function Fact({ label, value }: { label: string; value: ReactNode }) {
  return (
    <div className="flex items-baseline justify-between gap-4">
      <dt className="text-ink-soft">{label}</dt>
      <dd className="text-right font-semibold">{value}</dd>
    </div>
  )
}
