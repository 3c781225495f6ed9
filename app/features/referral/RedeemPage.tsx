import { useQuery, useQueryClient } from '@tanstack/react-query'
import { Link } from '@tanstack/react-router'
import { useEffect, useRef, useState, type ReactNode } from 'react'
import { Button, ButtonLink } from '~/components/ui/Button'
import { LoadFailedPanel } from '~/components/ui/StatePanel'
import { SupportLine } from '~/components/ui/SupportLine'
import type { ReferralInvite, ReferredRedemption, ReferredState, RewardStatus } from '~/contract/referral'
import type { ApiFailure, ApiOutcome } from '~/lib/api-outcome'
import { formatCents } from '~/catalogue/currency'
import { usePublicConfig } from '~/lib/public-config'
import { formatDay } from '~/lib/dates'
import { formatAmount } from '~/catalogue/currency'
import { ReferralArt } from './ReferralArt'
import { redeemReferralInvite, referredStateQuery } from './referral.functions'
import { StatusIcon } from './RewardStatus'
import { SignInPrompt } from './SignInPrompt'
import { logAction, useLogOnce } from './user-actions'

/** /referral/redeem: a signed-in friend claims the invite they landed on (remembered by a cookie, or named by ?code=). */
export function RedeemPage({ code, lookedUp }: { code?: string; lookedUp: ApiOutcome<ReferralInvite> | null }) {
  const queryClient = useQueryClient()
  const state = useQuery(referredStateQuery())
  const [refusal, setRefusal] = useState<ApiFailure | null>(null)
  const [justRedeemed, setJustRedeemed] = useState(false)
  const [claiming, setClaiming] = useState(false)
  const here = code ? `/referral/redeem?code=${encodeURIComponent(code)}` : '/referral/redeem'

  const urlInvite = lookedUp?.ok ? lookedUp.data : null
  const invite = state.data ? (state.data.invite ?? urlInvite) : urlInvite
  const view: 'loading' | 'failed' | 'signed-out' | 'redeemed' | 'claim' | 'no-invite' = state.isPending
    ? 'loading'
    : state.isLoadingError
      ? 'failed'
      : state.data === null
        ? 'signed-out'
        : state.data.redemption
          ? 'redeemed'
          : invite
            ? 'claim'
            : 'no-invite'
  useLogOnce(view === 'loading' ? null : 'referred', 'viewed_redeem', { view, ...(invite ? { code: invite.code } : {}) })

  const claim = async () => {
    if (claiming) return
    setClaiming(true)
    setRefusal(null)
    try {
      const result = await redeemReferralInvite({ data: { timezone: Intl.DateTimeFormat().resolvedOptions().timeZone } })
      if (result.ok) {
        queryClient.setQueryData<ReferredState | null>(referredStateQuery().queryKey, result.data)
        void queryClient.invalidateQueries({ queryKey: ['cart'] })
        setJustRedeemed(true)
        logAction('referred', 'redeemed', { code: result.data.redemption?.code ?? invite?.code ?? null })
      } else {
        setRefusal(result.error)
        logAction('referred', 'redeem_refused', { code: result.error.code })
        // Already redeemed: show the redemption that exists.
        if (result.error.status === 409) void state.refetch()
      }
    } catch (error) {
      setRefusal({ status: 0, code: 'network', message: error instanceof Error ? error.message : 'Unknown error', issues: [] })
    } finally {
      setClaiming(false)
    }
  }

  let title: string
  let body: ReactNode
  switch (view) {
    case 'loading':
      title = 'Claim your friend’s gift'
      body = <RedeemSkeleton />
      break
    case 'failed':
      title = 'Claim your friend’s gift'
      body = (
        <LoadFailedPanel
          testId="redeem-error"
          title="We couldn’t load your invite"
          reassurance="Your friend’s invite is still saved on this device. Check your connection and try again."
          supportLead="Still stuck?"
          onRetry={() => void state.refetch()}
          retrying={state.isFetching}
        />
      )
      break
    case 'signed-out':
      title = invite ? `${invite.advocateFirstName}’s invite: ${formatAmount(invite.referredCreditCents)} off your first order` : 'Claim your friend’s gift'
      body = (
        <SignInPrompt
          title={invite ? `Sign in to claim ${formatAmount(invite.referredCreditCents)}` : 'Sign in to claim your gift'}
          redirect={here}
          signInLabel="Sign in"
          onSignIn={() => logAction('referred', 'clicked_sign_in', { from: 'redeem' })}
          testId="redeem-signed-out"
        >
          <p>
            {invite
              ? `We’ve saved ${invite.advocateFirstName}’s invite on this device. Sign in and the credit goes straight to your account, ready for your first order.`
              : 'Invites are claimed by the family that was invited, signed in to Keepsake. Sign in, then open your friend’s invite link.'}
          </p>
        </SignInPrompt>
      )
      break
    case 'redeemed': {
      const redemption = state.data!.redemption!
      title = redeemedTitle(redemption)
      body = <RedeemedCard redemption={redemption} balanceCents={state.data!.balanceCents} justRedeemed={justRedeemed} />
      break
    }
    case 'claim':
      title = `${invite!.advocateFirstName}’s invite: ${formatAmount(invite!.referredCreditCents)} off your first order`
      body = <ClaimCard invite={invite!} claiming={claiming} onClaim={() => void claim()} />
      break
    case 'no-invite':
      title = 'Open your friend’s invite link first'
      body = <NoInvite />
      break
  }

  return (
    <main id="main" className="mx-auto max-w-2xl px-4 pb-16 pt-8 sm:px-6 sm:pt-12">
      <p className="text-sm font-semibold uppercase tracking-[0.16em] text-pine">Redeem an invite</p>
      <h1 className="mt-2 text-balance text-3xl font-bold tracking-tight sm:text-4xl">{title}</h1>
      {refusal ? <RefusalAlert refusal={refusal} onDismiss={() => setRefusal(null)} /> : null}
      <div className="mt-6">{body}</div>
    </main>
  )
}

function RefusalAlert({ refusal, onDismiss }: { refusal: ApiFailure; onDismiss: () => void }) {
  const { supportEmail } = usePublicConfig()
  const heading =
    refusal.status === 429 ? 'Too many tries just now' : refusal.code === 'network' ? 'We couldn’t reach Keepsake' : 'We couldn’t apply this invite'
  return (
    <div
      role="alert"
      className="mt-6 flex items-start gap-3 rounded-card border-2 border-cranberry/30 bg-cranberry-tint px-4 py-4 text-cranberry-dark"
      data-testid="redeem-refusal"
    >
      <span aria-hidden="true" className="mt-0.5 grid size-6 shrink-0 place-items-center rounded-full bg-cranberry text-sm font-bold text-white">
        !
      </span>
      <div className="min-w-0 flex-1">
        <p className="font-semibold">{heading}</p>
        <p className="mt-1" data-testid="redeem-refusal-message">
          {refusal.message}
        </p>
        <SupportLine email={supportEmail} lead="Think this is a mistake?" className="mt-2 text-sm" linkClassName="" />
      </div>
      <button
        type="button"
        onClick={onDismiss}
        className="-mr-2 -mt-2 grid size-11 shrink-0 place-items-center rounded-full text-xl hover:bg-cranberry/10"
        aria-label="Dismiss this message"
      >
        <span aria-hidden="true">×</span>
      </button>
    </div>
  )
}

function ClaimCard({ invite, claiming, onClaim }: { invite: ReferralInvite; claiming: boolean; onClaim: () => void }) {
  const give = formatAmount(invite.referredCreditCents)
  return (
    <section aria-label="Your invite" className="overflow-hidden rounded-card bg-cream-card shadow-card" data-testid="redeem-claim">
      <div className="flex items-center gap-4 bg-cranberry-dark px-5 py-5 text-cream sm:px-7">
        <ReferralArt className="w-24 shrink-0" />
        <p className="text-pretty text-lg">
          <strong className="font-semibold">{invite.advocateFirstName}</strong> invited you to Keepsake, with {give} off your first photo ornament.
        </p>
      </div>
      <div className="px-5 py-6 sm:px-7">
        <ul className="space-y-2 text-ink-soft">
          <li className="flex gap-2">
            <Tick /> The credit goes into your account now and comes off your first order at checkout.
          </li>
          <li className="flex gap-2">
            <Tick /> When your order is paid, {invite.advocateFirstName} gets {formatAmount(invite.advocateRewardCents)} as a thank-you.
          </li>
          <li className="flex gap-2">
            <Tick /> One invite per family, for a first order.
          </li>
        </ul>
        <Button onClick={onClaim} disabled={claiming} className="mt-6 w-full sm:w-auto sm:px-10" aria-describedby="claim-code">
          {claiming ? <span aria-hidden="true" className="size-4 animate-spin rounded-full border-2 border-white/40 border-t-white" /> : null}
          {claiming ? 'Claiming…' : `Claim my ${give}`}
        </Button>
        <p id="claim-code" className="mt-3 text-sm text-ink-soft">
          Invite code <span className="font-mono font-semibold text-ink">{invite.code}</span>
        </p>
      </div>
    </section>
  )
}

function Tick() {
  return (
    <svg viewBox="0 0 20 20" className="mt-0.5 size-5 shrink-0 text-pine" aria-hidden="true">
      <path d="M4 10.5l4 4 8-9" fill="none" stroke="currentColor" strokeWidth="2.2" strokeLinecap="round" strokeLinejoin="round" />
    </svg>
  )
}

/** The friend's own view of their credit's state. */
const friendStatus: Record<RewardStatus, { label: string; className: string; icon: Parameters<typeof StatusIcon>[0]['name'] }> = {
  pending: { label: 'Ready to use', className: 'bg-pine-tint text-pine-dark', icon: 'check' },
  approved: { label: 'Used on your first order', className: 'bg-cream-deep text-ink', icon: 'star' },
  credited: { label: 'Used on your first order', className: 'bg-cream-deep text-ink', icon: 'star' },
  voided: { label: 'Order refunded', className: 'bg-cranberry-tint text-cranberry-dark', icon: 'cross' },
  expired: { label: 'Expired', className: 'bg-cream-deep text-ink-soft', icon: 'dash' },
}

function redeemedTitle(r: ReferredRedemption) {
  const amount = formatAmount(r.creditCents)
  if (r.status === 'pending') return `Your ${amount} credit is ready`
  if (r.status === 'expired') return `${r.advocateFirstName}’s gift has expired`
  return `You’ve used ${r.advocateFirstName}’s gift`
}

function RedeemedCard({ redemption: r, balanceCents, justRedeemed }: { redemption: ReferredRedemption; balanceCents: number; justRedeemed: boolean }) {
  const status = friendStatus[r.status]
  // The expiry is shown in the zone the friend redeemed in, the same on the server and in the browser.
  const useBy = formatDay(r.expiresAt, r.timezone)
  // After "Claim", focus moves to the result, not to the top of the page (issue 15, bug 8).
  const success = useRef<HTMLParagraphElement>(null)
  useEffect(() => {
    if (justRedeemed) success.current?.focus()
  }, [justRedeemed])
  return (
    <>
      {justRedeemed ? (
        <p
          ref={success}
          tabIndex={-1}
          role="status"
          className="mb-4 flex outline-offset-4 items-start gap-3 rounded-card bg-pine-tint px-4 py-3 text-pine-dark"
          data-testid="redeem-success"
        >
          <span aria-hidden="true" className="mt-0.5 text-lg leading-none">
            ✦
          </span>
          <span>
            <strong>Claimed!</strong> {formatCents(r.creditCents)} from {r.advocateFirstName} is in your account.
          </span>
        </p>
      ) : null}
      <section aria-label="Your welcome credit" className="rounded-card bg-cream-card p-5 shadow-card sm:p-7">
        <div className="flex flex-wrap items-center justify-between gap-3">
          <p className="text-4xl font-bold tabular-nums" data-testid="redeem-credit">
            {formatCents(r.creditCents)}
          </p>
          <span
            className={`inline-flex items-center gap-1.5 rounded-full px-3 py-1 text-sm font-semibold ${status.className}`}
            data-testid="redeem-status"
            data-status={r.status}
          >
            <StatusIcon name={status.icon} />
            {status.label}
          </span>
        </div>
        <p className="mt-1 text-ink-soft">Welcome credit from {r.advocateFirstName}’s invite</p>
        <dl className="mt-5 grid gap-x-6 gap-y-3 border-t border-ink/10 pt-4 sm:grid-cols-2">
          {r.status === 'pending' ? (
            <Fact label="Use it by" value={<span data-testid="redeem-expiry">{useBy}</span>} />
          ) : r.status === 'expired' ? (
            <Fact label="Expired on" value={useBy} />
          ) : null}
          <Fact label="Your store credit" value={formatCents(balanceCents)} />
          <Fact label="Claimed on" value={formatDay(r.redeemedAt, r.timezone)} />
          <Fact label="Invite code" value={<span className="font-mono">{r.code}</span>} />
        </dl>
        <p className="mt-5 text-ink-soft">
          {r.status === 'pending'
            ? `Use it by ${useBy}: it comes off your first order at checkout, no code needed.`
            : r.status === 'expired'
              ? 'The credit lapsed because no order was placed in time. You can still make an ornament any time.'
              : 'Thank you for joining Keepsake! Your family album is ready for the next one.'}
        </p>
        <div className="mt-6 flex flex-wrap gap-3">
          <ButtonLink to="/photo-products" className="grow sm:grow-0">
            {r.status === 'pending' ? 'Design an ornament' : 'Make another ornament'}
          </ButtonLink>
          <ButtonLink to="/referral" variant="secondary" className="grow sm:grow-0">
            Invite your own friends
          </ButtonLink>
        </div>
      </section>
    </>
  )
}

function Fact({ label, value }: { label: string; value: ReactNode }) {
  return (
    <div>
      <dt className="text-sm text-ink-soft">{label}</dt>
      <dd className="font-semibold">{value}</dd>
    </div>
  )
}

function NoInvite() {
  return (
    <section className="rounded-card border-2 border-dashed border-ink/15 bg-cream-card/60 px-6 py-10 text-center" data-testid="redeem-no-invite">
      <ReferralArt className="mx-auto w-32" />
      <div className="mx-auto mt-4 max-w-md space-y-2 text-ink-soft">
        <p>
          We don’t have an invite saved for you yet. Open the invite link your friend sent you on this device — we’ll remember it — then come back here to claim
          your credit.
        </p>
        <p>Lost the link? Ask your friend to send it again from their Refer a friend page.</p>
      </div>
      <div className="mt-6 flex flex-wrap justify-center gap-3">
        <ButtonLink to="/photo-products">Browse photo ornaments</ButtonLink>
        <Link to="/referral" className="inline-flex min-h-11 items-center px-2 font-semibold text-cranberry-dark underline-offset-4 hover:underline">
          How referrals work
        </Link>
      </div>
    </section>
  )
}

function RedeemSkeleton() {
  return (
    <div role="status" aria-label="Loading your invite" className="overflow-hidden rounded-card bg-cream-card shadow-card">
      <div className="h-28 animate-pulse bg-cranberry-tint" />
      <div className="space-y-3 p-6">
        <div className="h-4 w-3/4 animate-pulse rounded bg-cream-deep" />
        <div className="h-4 w-2/3 animate-pulse rounded bg-cream-deep" />
        <div className="mt-4 h-11 w-44 animate-pulse rounded-full bg-cream-deep" />
      </div>
    </div>
  )
}
