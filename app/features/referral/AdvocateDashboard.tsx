import { useQuery } from '@tanstack/react-query'
import { Link } from '@tanstack/react-router'
import { useEffect, useState, type ReactNode } from 'react'
import { EmptyState } from '~/components/ui/PageHero'
import { LoadFailedPanel } from '~/components/ui/StatePanel'
import type { AdvocateRedemption, AdvocateState } from '~/contract/referral'
import { REWARD_HOLD_DAYS } from '~/catalogue/referral-terms'
import { formatCents } from '~/catalogue/currency'
import { notify } from '~/lib/toast'
import { formatAmount } from '~/catalogue/currency'
import { onDarkButton } from './on-dark'
import { OpenInAppButton } from './OpenInAppButton'
import { advocateStateQuery } from './referral.functions'
import { ReferralHome } from './ReferralHome'
import { RedemptionDetailsLink, rewardExplanation, StatusBadge } from './RewardStatus'
import { logAction, useLogOnce } from './user-actions'

/** The dashboard lists the newest few; the rest are on the past-referrals page. */
const SHOWN_ON_DASHBOARD = 5

/** /referral: a signed-in family's invite code, link, credit and friends; the explainer when signed out. */
export function ReferralIndexPage() {
  const state = useQuery(advocateStateQuery())
  if (state.data === null) return <ReferralHome />
  if (state.data) return <AdvocateDashboard state={state.data} />
  return (
    <DashboardFrame>
      {state.isError ? (
        <LoadFailedPanel
          testId="referral-error"
          title="We couldn’t load your referrals"
          reassurance="Your invite link and any credit you earned are safe. Check your connection and try again."
          supportLead="Still stuck?"
          onRetry={() => void state.refetch()}
          retrying={state.isFetching}
        />
      ) : (
        <DashboardSkeleton />
      )}
    </DashboardFrame>
  )
}

function DashboardFrame({ title = 'Refer a friend', lead, children }: { title?: string; lead?: ReactNode; children: ReactNode }) {
  return (
    <main id="main" className="mx-auto max-w-6xl px-4 pb-16 pt-8 sm:px-6 sm:pt-12">
      <p className="text-sm font-semibold uppercase tracking-[0.16em] text-pine">Refer a friend</p>
      <h1 className="mt-2 text-balance text-3xl font-bold tracking-tight sm:text-4xl">{title}</h1>
      {lead ? <p className="mt-3 max-w-2xl text-pretty text-lg text-ink-soft">{lead}</p> : null}
      <div className="mt-8">{children}</div>
    </main>
  )
}

function AdvocateDashboard({ state }: { state: AdvocateState }) {
  useLogOnce('advocate', 'viewed_dashboard')
  const give = formatAmount(state.referredCreditCents)
  const get = formatAmount(state.advocateRewardCents)
  return (
    <DashboardFrame
      title={`Give ${give}, get ${get}`}
      lead={
        <>
          Share your link with another family, {state.advocateFirstName}. They get {give} off their first order, and when it’s paid you get {get} in Keepsake
          credit.
        </>
      }
    >
      <div className="grid gap-6 lg:grid-cols-[minmax(0,1fr)_22rem] lg:items-start">
        <div className="min-w-0 space-y-6">
          <ShareCard state={state} />
          <CreditSummary state={state} />
          <FriendsList state={state} />
        </div>
        <aside className="space-y-6" aria-label="About referrals">
          <HowItWorks give={give} get={get} />
          <section aria-labelledby="app-heading" className="rounded-card bg-cream-card p-5 shadow-card">
            <h2 id="app-heading" className="text-lg font-bold">
              Keepsake on your phone
            </h2>
            <p className="mt-1 text-ink-soft">Share from the app, and see your album and orders in one place.</p>
            <OpenInAppButton from="referral_dashboard" className="mt-4 w-full" />
            <p className="mt-4 border-t border-ink/10 pt-3 text-sm text-ink-soft">
              Got an invite from another family?{' '}
              <Link to="/referral/redeem" className="inline-flex min-h-11 items-center font-semibold text-cranberry-dark underline-offset-4 hover:underline">
                Claim your gift
              </Link>
            </p>
          </section>
        </aside>
      </div>
    </DashboardFrame>
  )
}

function ShareCard({ state }: { state: AdvocateState }) {
  const [canShare, setCanShare] = useState(false)
  // The Web Share API exists only in some browsers; the button appears only where it works.
  useEffect(() => setCanShare(typeof navigator.share === 'function'), [])

  const copy = async (text: string, what: 'link' | 'code') => {
    try {
      await navigator.clipboard.writeText(text)
      notify.success(what === 'link' ? 'Link copied' : 'Code copied')
      logAction('advocate', what === 'link' ? 'copied_link' : 'copied_code')
    } catch {
      notify.error(`We couldn’t copy your ${what}. Select it above and copy it yourself.`)
    }
  }
  const share = async () => {
    try {
      await navigator.share({
        title: 'Keepsake',
        text: `${state.advocateFirstName} invited you to Keepsake: ${formatAmount(state.referredCreditCents)} off your first photo ornament.`,
        url: state.link,
      })
      logAction('advocate', 'shared_link')
    } catch (error) {
      if (error instanceof DOMException && error.name === 'AbortError') logAction('advocate', 'share_dismissed')
      else notify.error('Sharing didn’t work on this device. Copy the link instead.')
    }
  }
  const cream = onDarkButton.solid('text-pine-dark')
  const outline = onDarkButton.outline
  return (
    <section aria-labelledby="share-heading" className="rounded-card bg-pine p-5 text-cream shadow-card sm:p-7" data-testid="share-card">
      <h2 id="share-heading" className="text-sm font-semibold uppercase tracking-[0.16em] text-gold-tint">
        Your invite code
      </h2>
      <p
        className="mt-2 break-words text-[1.75rem] font-bold leading-tight tracking-[0.04em] tabular-nums sm:text-4xl sm:tracking-[0.08em]"
        data-testid="referral-code"
      >
        {state.code}
      </p>
      <p className="mt-5 text-sm font-semibold text-cream/90" id="share-link-label">
        Your invite link
      </p>
      <p className="mt-1 select-all break-all rounded-xl bg-pine-dark px-4 py-3 text-sm" aria-labelledby="share-link-label">
        {state.link}
      </p>
      <div className="mt-5 flex flex-wrap gap-3">
        <button type="button" className={`${cream} grow sm:grow-0`} onClick={() => void copy(state.link, 'link')}>
          <svg viewBox="0 0 20 20" className="size-5 shrink-0" aria-hidden="true">
            <rect x="7" y="7" width="10" height="11" rx="2" fill="none" stroke="currentColor" strokeWidth="1.8" />
            <path d="M13 4.5V4a2 2 0 0 0-2-2H5a2 2 0 0 0-2 2v7a2 2 0 0 0 2 2h.5" fill="none" stroke="currentColor" strokeWidth="1.8" />
          </svg>
          Copy link
        </button>
        {canShare ? (
          <button type="button" className={`${outline} grow sm:grow-0`} onClick={() => void share()}>
            <svg viewBox="0 0 20 20" className="size-5 shrink-0" aria-hidden="true">
              <path
                d="M10 13V3M6 6.5 10 2.5l4 4M4 10v6.5A1.5 1.5 0 0 0 5.5 18h9a1.5 1.5 0 0 0 1.5-1.5V10"
                fill="none"
                stroke="currentColor"
                strokeWidth="1.8"
                strokeLinecap="round"
                strokeLinejoin="round"
              />
            </svg>
            Share
          </button>
        ) : null}
        <button type="button" className={`${outline} grow sm:grow-0`} onClick={() => void copy(state.code, 'code')}>
          Copy code
        </button>
      </div>
    </section>
  )
}

function CreditSummary({ state }: { state: AdvocateState }) {
  const tiles = [
    { label: 'Earned', value: state.earnedCents, note: 'Rewards already credited', testId: 'earned' },
    { label: 'On its way', value: state.pendingCents, note: 'From friends who redeemed', testId: 'pending' },
    { label: 'Balance', value: state.balanceCents, note: 'Store credit to spend', testId: 'balance' },
  ]
  return (
    <section aria-labelledby="credit-heading">
      <h2 id="credit-heading" className="sr-only">
        Your credit
      </h2>
      <dl className="grid grid-cols-3 gap-2 sm:gap-4">
        {tiles.map((tile) => (
          <div key={tile.label} className="rounded-card bg-cream-card p-3 shadow-card sm:p-5">
            <dt className="text-sm font-semibold text-ink-soft">{tile.label}</dt>
            <dd className="mt-1 text-xl font-bold tabular-nums sm:text-2xl" data-testid={`credit-${tile.testId}`}>
              {formatCents(tile.value)}
            </dd>
            <dd className="mt-1 text-xs leading-snug text-ink-soft sm:text-sm">{tile.note}</dd>
          </div>
        ))}
      </dl>
    </section>
  )
}

function FriendsList({ state }: { state: AdvocateState }) {
  const shown = state.redemptions.slice(0, SHOWN_ON_DASHBOARD)
  const newest = state.redemptions[0]
  return (
    <section aria-labelledby="friends-heading">
      <div className="flex flex-wrap items-baseline justify-between gap-x-4">
        <h2 id="friends-heading" className="text-2xl font-bold tracking-tight">
          Friends you invited
        </h2>
        {newest ? (
          <Link
            to="/referral/advocate/$advocateReferralCode/redemptions/$redemptionId/past"
            params={{ advocateReferralCode: state.code, redemptionId: newest.id }}
            className="inline-flex min-h-11 items-center font-semibold text-cranberry-dark underline-offset-4 hover:underline"
          >
            {state.redemptions.length > shown.length ? `All ${state.redemptions.length} referrals` : 'Past referrals'}
          </Link>
        ) : null}
      </div>
      <div className="mt-3">
        {shown.length === 0 ? (
          <EmptyState
            title="No friends yet — share your link"
            body={`When a friend claims your invite, they’ll appear here with where your ${formatAmount(state.advocateRewardCents)} reward is.`}
          />
        ) : (
          <ul className="divide-y divide-ink/10 rounded-card bg-cream-card shadow-card" data-testid="redemptions">
            {shown.map((r) => (
              <RedemptionRow key={r.id} code={state.code} redemption={r} />
            ))}
          </ul>
        )}
      </div>
    </section>
  )
}

export function RedemptionRow({ code, redemption: r }: { code: string; redemption: AdvocateRedemption }) {
  return (
    <li className="px-4 py-4 sm:px-5" data-testid="redemption" data-friend={r.friendFirstName}>
      <div className="flex flex-wrap items-center justify-between gap-x-3 gap-y-1">
        <h3 className="text-lg font-semibold">{r.friendFirstName}</h3>
        <StatusBadge status={r.status} />
      </div>
      <p className="mt-1 text-ink-soft" data-testid="reward-explanation">
        {rewardExplanation(r)}
      </p>
      <RedemptionDetailsLink code={code} redemption={r} />
    </li>
  )
}

function HowItWorks({ give, get }: { give: string; get: string }) {
  const steps = [
    { title: `Your friend gets ${give}`, body: 'off their first Keepsake order, when they claim your invite.' },
    { title: `You get ${get}`, body: 'when their first order is paid.' },
    { title: `Credited ${REWARD_HOLD_DAYS} days later`, body: 'once the order can no longer be refunded. Spend it on any order.' },
  ]
  return (
    <section aria-labelledby="how-heading" className="rounded-card bg-cream-card p-5 shadow-card">
      <h2 id="how-heading" className="text-lg font-bold">
        How it works
      </h2>
      <ol className="mt-3 space-y-4">
        {steps.map((step, i) => (
          <li key={step.title} className="flex gap-3">
            <span aria-hidden="true" className="grid size-8 shrink-0 place-items-center rounded-full bg-cranberry-tint font-bold text-cranberry-dark">
              {i + 1}
            </span>
            <p className="pt-1">
              <strong className="font-semibold">{step.title}</strong> <span className="text-ink-soft">{step.body}</span>
            </p>
          </li>
        ))}
      </ol>
    </section>
  )
}

function DashboardSkeleton() {
  return (
    <div className="grid gap-6 lg:grid-cols-[minmax(0,1fr)_22rem]" role="status" aria-label="Loading your referrals">
      <div className="space-y-6">
        <div className="h-64 animate-pulse rounded-card bg-pine/20" />
        <div className="grid grid-cols-3 gap-2 sm:gap-4">
          {[0, 1, 2].map((i) => (
            <div key={i} className="h-24 animate-pulse rounded-card bg-cream-card shadow-card" />
          ))}
        </div>
        <div className="h-40 animate-pulse rounded-card bg-cream-card shadow-card" />
      </div>
      <div className="h-72 animate-pulse rounded-card bg-cream-card shadow-card" />
    </div>
  )
}
