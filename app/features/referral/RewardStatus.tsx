import { Link } from '@tanstack/react-router'
import type { ReactNode } from 'react'
import type { AdvocateRedemption, RewardStatus } from '~/contract/referral'
import { formatCents } from '~/catalogue/currency'
import { LocalDate } from '~/lib/dates'

const icons = {
  clock: <path d="M10 5.5V10l3 2M17 10a7 7 0 1 1-14 0 7 7 0 0 1 14 0Z" />,
  check: <path d="M4 10.5l4 4 8-9" />,
  star: <path d="m10 3 2.1 4.4 4.8.6-3.5 3.3.9 4.7L10 13.7 5.7 16l.9-4.7L3.1 8l4.8-.6Z" />,
  cross: <path d="m5 5 10 10M15 5 5 15" />,
  dash: <path d="M5 10h10" />,
}

/** A small line icon beside a status word. */
export function StatusIcon({ name }: { name: keyof typeof icons }) {
  return (
    <svg
      viewBox="0 0 20 20"
      className="size-4 shrink-0"
      aria-hidden="true"
      fill="none"
      stroke="currentColor"
      strokeWidth="2"
      strokeLinecap="round"
      strokeLinejoin="round"
    >
      {icons[name]}
    </svg>
  )
}

const badges: Record<RewardStatus, { label: string; icon: keyof typeof icons; className: string }> = {
  pending: { label: 'Pending', icon: 'clock', className: 'bg-gold-tint text-gold-dark' },
  approved: { label: 'Approved', icon: 'check', className: 'bg-pine-tint text-pine-dark' },
  credited: { label: 'Credited', icon: 'star', className: 'bg-pine text-white' },
  voided: { label: 'Voided', icon: 'cross', className: 'bg-cranberry-tint text-cranberry-dark' },
  expired: { label: 'Expired', icon: 'dash', className: 'bg-cream-deep text-ink-soft' },
}

/** A reward's state as a word with an icon (never colour alone). */
export function StatusBadge({ status }: { status: RewardStatus }) {
  const badge = badges[status]
  return (
    <span
      className={`inline-flex items-center gap-1.5 rounded-full px-3 py-1 text-sm font-semibold ${badge.className}`}
      data-testid="reward-status"
      data-status={status}
    >
      <StatusIcon name={badge.icon} />
      {badge.label}
    </span>
  )
}

/** One line, in plain words, on where an advocate's reward is and what happens next. */
export function rewardExplanation(r: AdvocateRedemption): ReactNode {
  const reward = formatCents(r.rewardCents)
  switch (r.status) {
    case 'pending':
      return (
        <>
          Waiting for {r.friendFirstName}’s first order: you get {reward} when it’s paid. Their invite is good until <LocalDate iso={r.expiresAt} />.
        </>
      )
    case 'approved':
      return r.creditsAt ? (
        <>
          Approved — {reward} credit on <LocalDate iso={r.creditsAt} year={false} />.
        </>
      ) : (
        <>Approved — {reward} credit is on its way.</>
      )
    case 'credited':
      return r.creditedAt ? (
        <>
          Credited — {reward} added to your balance on <LocalDate iso={r.creditedAt} />.
        </>
      ) : (
        <>Credited — {reward} added to your balance.</>
      )
    case 'voided':
      return <>Voided — {r.friendFirstName}’s first order was refunded or cancelled, so this reward won’t pay out.</>
    case 'expired':
      return (
        <>
          Expired — {r.friendFirstName} didn’t place an order by <LocalDate iso={r.endedAt ?? r.expiresAt} />, so this reward won’t pay out.
        </>
      )
  }
}

type Step = { label: string; at: string | null; state: 'done' | 'next' | 'ended'; note?: ReactNode }

/** The steps of a reward: redeemed → first order paid → credited, or where it stopped. */
function stepsOf(r: AdvocateRedemption): Step[] {
  const redeemed: Step = { label: `${r.friendFirstName} redeemed your invite`, at: r.redeemedAt, state: 'done' }
  if (r.status === 'expired') {
    return [redeemed, { label: 'Invite expired before a first order', at: r.endedAt ?? r.expiresAt, state: 'ended' }]
  }
  const paid: Step =
    r.status === 'pending'
      ? {
          label: `${r.friendFirstName}’s first order is paid`,
          at: null,
          state: 'next',
          note: (
            <>
              Waiting — the invite is good until <LocalDate iso={r.expiresAt} />.
            </>
          ),
        }
      : { label: `${r.friendFirstName}’s first order was paid`, at: r.approvedAt, state: 'done' }
  if (r.status === 'voided') {
    return [redeemed, paid, { label: 'Order refunded or cancelled — reward voided', at: r.endedAt, state: 'ended' }]
  }
  const credited: Step =
    r.status === 'credited'
      ? { label: `${formatCents(r.rewardCents)} added to your balance`, at: r.creditedAt, state: 'done' }
      : {
          label: `${formatCents(r.rewardCents)} credit to your balance`,
          at: null,
          state: 'next',
          note: r.creditsAt ? (
            <>
              Expected on <LocalDate iso={r.creditsAt} />, once the order can no longer be refunded.
            </>
          ) : (
            'After the friend’s first order is paid and the refund window has passed.'
          ),
        }
  return [redeemed, paid, credited]
}

const marks = {
  done: { glyph: '✓', className: 'bg-pine text-white', spoken: 'done' },
  next: { glyph: '', className: 'border-2 border-ink/25 bg-cream-card', spoken: 'not yet' },
  ended: { glyph: '✕', className: 'bg-cranberry text-white', spoken: 'stopped here' },
} as const

export function RewardTimeline({ redemption }: { redemption: AdvocateRedemption }) {
  const steps = stepsOf(redemption)
  return (
    <ol className="relative space-y-0" aria-label="Reward progress" data-testid="reward-timeline">
      {steps.map((step, i) => {
        const mark = marks[step.state]
        const last = i === steps.length - 1
        return (
          <li key={step.label} className="relative flex gap-4 pb-6 last:pb-0" data-state={step.state}>
            {!last ? (
              <span aria-hidden="true" className={`absolute left-[0.9375rem] top-8 bottom-0 w-0.5 ${step.state === 'done' ? 'bg-pine' : 'bg-ink/15'}`} />
            ) : null}
            <span aria-hidden="true" className={`relative grid size-8 shrink-0 place-items-center rounded-full text-sm font-bold ${mark.className}`}>
              {mark.glyph}
            </span>
            <div className="pt-1">
              <p className={`font-semibold ${step.state === 'next' ? 'text-ink-soft' : 'text-ink'}`}>
                {step.label}
                <span className="sr-only">, {mark.spoken}</span>
              </p>
              {step.at ? (
                <p className="text-sm text-ink-soft">
                  <LocalDate iso={step.at} />
                </p>
              ) : null}
              {step.note ? <p className="text-sm text-ink-soft">{step.note}</p> : null}
            </div>
          </li>
        )
      })}
    </ol>
  )
}

/** "Details →": one redemption's page. */
export function RedemptionDetailsLink({ code, redemption }: { code: string; redemption: AdvocateRedemption }) {
  return (
    <Link
      to="/referral/advocate/$advocateReferralCode/redemptions/$redemptionId"
      params={{ advocateReferralCode: code, redemptionId: redemption.id }}
      className="mt-1 inline-flex min-h-11 items-center font-semibold text-cranberry-dark underline-offset-4 hover:underline"
      aria-label={`Details of ${redemption.friendFirstName}’s reward`}
    >
      Details <span aria-hidden="true">&nbsp;→</span>
    </Link>
  )
}
