import { useQuery } from '@tanstack/react-query'
import type { ReactNode } from 'react'
import { LoadFailedPanel } from '~/components/ui/StatePanel'
import type { AdvocateRedemption, AdvocateState, RewardStatus } from '~/contract/referral'
import { formatCents } from '~/catalogue/currency'
import { LocalDate } from '~/lib/dates'
import { ReferralAccountPage, ReferralNotFound, ReferralPageSkeleton } from './ReferralAccountPage'
import { advocateStateQuery } from './referral.functions'
import { RedemptionDetailsLink, rewardExplanation, StatusBadge } from './RewardStatus'
import { SignInPrompt } from './SignInPrompt'
import { useLogOnce } from './user-actions'

const groups: { title: string; intro: string; statuses: RewardStatus[]; testId: string }[] = [
  {
    title: 'On their way',
    intro: 'Friends who claimed your invite; the reward comes once their first order is paid and the refund window has passed.',
    statuses: ['approved', 'pending'],
    testId: 'open',
  },
  { title: 'Credited', intro: 'Rewards already in your store credit.', statuses: ['credited'], testId: 'credited' },
  { title: 'Didn’t pay out', intro: 'The friend’s order was refunded, or they didn’t order in time.', statuses: ['voided', 'expired'], testId: 'closed' },
]

/** /referral/advocate/{code}/redemptions/{id}/past: every friend the advocate invited, newest first, by where the reward is. */
export function PastReferralsPage({ code, redemptionId }: { code: string; redemptionId: string }) {
  const state = useQuery(advocateStateQuery())
  const here = `/referral/advocate/${encodeURIComponent(code)}/redemptions/${encodeURIComponent(redemptionId)}/past`
  let body: ReactNode
  if (state.isPending) body = <ReferralPageSkeleton label="Loading your referrals" />
  else if (state.isLoadingError) {
    body = (
      <LoadFailedPanel
        testId="past-error"
        title="We couldn’t load your referrals"
        reassurance="Your rewards are safe. Check your connection and try again."
        supportLead="Still stuck?"
        onRetry={() => void state.refetch()}
        retrying={state.isFetching}
      />
    )
  } else if (state.data === null) {
    body = (
      <SignInPrompt title="Sign in to see your referrals" redirect={here}>
        <p>Your referral history lives with your Keepsake account: every friend you invited and where each reward is.</p>
      </SignInPrompt>
    )
  } else if (state.data.code.toUpperCase() !== code.toUpperCase() || !state.data.redemptions.some((r) => r.id === redemptionId)) {
    body = <ReferralNotFound />
  } else {
    body = <History state={state.data} />
  }
  return (
    <ReferralAccountPage title="Your past referrals" lead="Every family you invited, newest first, and what each one earned you.">
      {body}
    </ReferralAccountPage>
  )
}

function History({ state }: { state: AdvocateState }) {
  useLogOnce('advocate', 'viewed_past', { count: state.redemptions.length })
  const newestFirst = [...state.redemptions].sort((a, b) => b.redeemedAt.localeCompare(a.redeemedAt))
  const totals = [
    { label: 'Friends invited', value: String(state.redemptions.length), testId: 'count' },
    { label: 'Earned', value: formatCents(state.earnedCents), testId: 'earned' },
    { label: 'On its way', value: formatCents(state.pendingCents), testId: 'pending' },
  ]
  return (
    <div className="space-y-8">
      <dl className="grid grid-cols-3 gap-2 sm:gap-4" data-testid="past-totals">
        {totals.map((t) => (
          <div key={t.label} className="rounded-card bg-cream-card p-3 shadow-card sm:p-5">
            <dt className="text-sm font-semibold text-ink-soft">{t.label}</dt>
            <dd className="mt-1 text-xl font-bold tabular-nums sm:text-2xl" data-testid={`past-${t.testId}`}>
              {t.value}
            </dd>
          </div>
        ))}
      </dl>
      {groups.map((group) => {
        const rows = newestFirst.filter((r) => group.statuses.includes(r.status))
        if (rows.length === 0) return null
        return (
          <section key={group.title} aria-labelledby={`group-${group.testId}`}>
            <h2 id={`group-${group.testId}`} className="text-2xl font-bold tracking-tight">
              {group.title} <span className="text-lg font-semibold text-ink-soft">({rows.length})</span>
            </h2>
            <p className="mt-1 text-ink-soft">{group.intro}</p>
            <ol className="mt-3 divide-y divide-ink/10 rounded-card bg-cream-card shadow-card">
              {rows.map((r) => (
                <PastRow key={r.id} code={state.code} redemption={r} />
              ))}
            </ol>
          </section>
        )
      })}
    </div>
  )
}

function PastRow({ code, redemption: r }: { code: string; redemption: AdvocateRedemption }) {
  return (
    <li className="px-4 py-4 sm:px-5" data-testid="past-redemption" data-friend={r.friendFirstName}>
      <div className="flex flex-wrap items-center justify-between gap-x-3 gap-y-1">
        <h3 className="text-lg font-semibold">{r.friendFirstName}</h3>
        <StatusBadge status={r.status} />
      </div>
      <p className="text-sm text-ink-soft">
        Claimed your invite <LocalDate iso={r.redeemedAt} /> · {formatCents(r.rewardCents)} reward
      </p>
      <p className="mt-1 text-ink-soft">{rewardExplanation(r)}</p>
      <RedemptionDetailsLink code={code} redemption={r} />
    </li>
  )
}
