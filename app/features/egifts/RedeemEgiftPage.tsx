import { useQuery, useQueryClient } from '@tanstack/react-query'
import { useEffect, useId, useRef, useState, type FormEvent } from 'react'
import { Button, ButtonLink } from '~/components/ui/Button'
import { FieldError, FieldHint } from '~/components/ui/fields'
import { LoadFailedPanel } from '~/components/ui/StatePanel'
import { SupportLine } from '~/components/ui/SupportLine'
import type { EgiftRedemption } from '~/contract/egifts'
import type { ApiFailure } from '~/lib/api-outcome'
import { currentUserQuery } from '~/features/account/account.functions'
import { track } from '~/lib/analytics'
import { formatCents } from '~/catalogue/currency'
import { usePublicConfig } from '~/lib/public-config'
import { redeemEgiftCode } from './egifts.functions'
import { EgiftSignInPrompt } from './EgiftSignInPrompt'
import { EGIFT_CARD_ART } from './gift-card'
import { formatAmount } from '~/catalogue/currency'

/** /egifts/redeem: a signed-in family turns the code from their e-mail into store credit (?code= fills it in). */
export function RedeemEgiftPage({ code: initialCode }: { code?: string }) {
  const user = useQuery(currentUserQuery())
  const [redeemed, setRedeemed] = useState<EgiftRedemption | null>(null)
  const here = initialCode ? `/egifts/redeem?code=${encodeURIComponent(initialCode)}` : '/egifts/redeem'

  let body
  if (user.isPending) body = <RedeemSkeleton />
  else if (user.isError) {
    body = (
      <LoadFailedPanel
        testId="egift-redeem-error"
        title="We couldn’t open the redeem form"
        reassurance="Your gift code is safe: it can be used until it expires. Check your connection and try again."
        supportLead="Still stuck?"
        onRetry={() => void user.refetch()}
        retrying={user.isFetching}
      />
    )
  } else if (user.data === null) {
    body = (
      <EgiftSignInPrompt title="Sign in to redeem your gift" redirect={here} testId="egift-redeem-signed-out">
        <p>
          The gift becomes credit on your Keepsake account.
          {initialCode ? ' Your code will be filled in for you when you come back.' : ''}
        </p>
      </EgiftSignInPrompt>
    )
  } else if (redeemed) {
    body = <Redeemed redemption={redeemed} onAnother={() => setRedeemed(null)} />
  } else {
    body = <RedeemForm initialCode={initialCode ?? ''} onRedeemed={setRedeemed} />
  }

  return (
    <main id="main" className="mx-auto max-w-2xl px-4 pb-16 pt-8 sm:px-6 sm:pt-12">
      <p className="text-sm font-semibold uppercase tracking-[0.16em] text-pine">E-gifts</p>
      <h1 className="mt-2 text-balance text-3xl font-bold tracking-tight sm:text-4xl">Redeem your e-gift</h1>
      <p className="mt-2 text-lg text-ink-soft">
        Someone sent you Keepsake credit. Enter the code from your e-mail and it’s yours to spend on photo ornaments.
      </p>
      <div className="mt-6">{body}</div>
    </main>
  )
}

function RedeemForm({ initialCode, onRedeemed }: { initialCode: string; onRedeemed: (r: EgiftRedemption) => void }) {
  const queryClient = useQueryClient()
  const [code, setCode] = useState(initialCode)
  const [refusal, setRefusal] = useState<ApiFailure | null>(null)
  const [fieldError, setFieldError] = useState<string | null>(null)
  const [redeeming, setRedeeming] = useState(false)
  const input = useRef<HTMLInputElement>(null)
  const id = useId()

  const submit = async (event: FormEvent) => {
    event.preventDefault()
    if (redeeming) return
    setRedeeming(true)
    setRefusal(null)
    setFieldError(null)
    try {
      const outcome = await redeemEgiftCode({ data: { code } })
      if (outcome.ok) {
        track('DidRedeemEgift', { amountCents: outcome.data.amountCents })
        void queryClient.invalidateQueries({ queryKey: ['cart'] })
        onRedeemed(outcome.data)
        return
      }
      const issue = outcome.error.issues.find((i) => i.path === 'body.code')
      if (issue) setFieldError(issue.message)
      else setRefusal(outcome.error)
    } catch (error) {
      setRefusal({
        status: 0,
        code: 'network',
        message: `${error instanceof Error ? error.message : 'Unknown error'}. Your code hasn’t been used; try again.`,
        issues: [],
      })
    }
    setRedeeming(false)
    // Back to the code, ready to fix or try again; the alert is read out on its own.
    requestAnimationFrame(() => input.current?.focus())
  }

  const described = [`${id}-hint`, fieldError ? `${id}-error` : null, refusal ? `${id}-refusal` : null].filter(Boolean).join(' ')
  return (
    <section aria-label="Redeem a code" className="overflow-hidden rounded-card bg-cream-card shadow-card" data-testid="egift-redeem-form">
      <div className="flex items-center gap-4 bg-cranberry-dark px-5 py-5 text-cream sm:px-7">
        <img src={EGIFT_CARD_ART} alt="" width={112} height={70} className="w-24 shrink-0 -rotate-3 rounded-lg shadow-card sm:w-28" />
        <p className="text-pretty">Your code is in the e-mail we sent you. It starts with KEEP and can be used once.</p>
      </div>
      <form onSubmit={(e) => void submit(e)} noValidate className="px-5 py-6 sm:px-7">
        <label htmlFor={id} className="font-semibold">
          Gift code
        </label>
        <input
          ref={input}
          id={id}
          name="code"
          value={code}
          onChange={(e) => {
            setCode(e.target.value.toUpperCase())
            setFieldError(null)
          }}
          autoCapitalize="characters"
          autoComplete="off"
          autoCorrect="off"
          spellCheck={false}
          maxLength={40}
          placeholder="KEEP-XXXX-XXXX-XXXX"
          aria-invalid={fieldError || refusal ? true : undefined}
          aria-describedby={described}
          className={`mt-1 block min-h-14 w-full rounded-xl border-2 bg-cream-card px-4 py-3 font-mono text-xl tracking-wider text-ink placeholder:text-ink-faint sm:text-2xl ${
            fieldError || refusal ? 'border-cranberry' : 'border-ink/20 hover:border-ink/35'
          }`}
        />
        <FieldHint id={`${id}-hint`}>Capitals, spaces and dashes don’t matter — paste it straight from the e-mail.</FieldHint>
        <FieldError id={`${id}-error`} error={fieldError} alert />
        {refusal ? <RefusalAlert id={`${id}-refusal`} refusal={refusal} /> : null}
        <Button type="submit" disabled={redeeming} className="mt-5 w-full sm:w-auto sm:px-10">
          {redeeming ? <span aria-hidden="true" className="size-4 animate-spin rounded-full border-2 border-white/40 border-t-white" /> : null}
          {redeeming ? 'Redeeming…' : 'Redeem my gift'}
        </Button>
      </form>
    </section>
  )
}

function RefusalAlert({ id, refusal }: { id: string; refusal: ApiFailure }) {
  const { supportEmail } = usePublicConfig()
  // The API's message says why (unknown, already redeemed, expired); the heading only says what happened.
  const heading =
    refusal.code === 'network' ? 'We couldn’t reach Keepsake' : refusal.status === 429 ? 'Too many tries just now' : 'We couldn’t redeem this code'
  return (
    <div
      id={id}
      role="alert"
      className="mt-4 flex items-start gap-3 rounded-xl border-2 border-cranberry/30 bg-cranberry-tint px-4 py-3 text-cranberry-dark"
      data-testid="egift-refusal"
    >
      <span aria-hidden="true" className="mt-0.5 grid size-6 shrink-0 place-items-center rounded-full bg-cranberry text-sm font-bold text-white">
        !
      </span>
      <div className="min-w-0 flex-1">
        <p className="font-semibold">{heading}</p>
        <p className="mt-1" data-testid="egift-refusal-message">
          {refusal.message}
        </p>
        <SupportLine email={supportEmail} lead="Think this is a mistake?" className="mt-2 text-sm" linkClassName="" />
      </div>
    </div>
  )
}

function Redeemed({ redemption: r, onAnother }: { redemption: EgiftRedemption; onAnother: () => void }) {
  const heading = useRef<HTMLHeadingElement>(null)
  useEffect(() => heading.current?.focus(), [])
  return (
    <section aria-labelledby="redeemed-heading" className="overflow-hidden rounded-card bg-cream-card shadow-card" data-testid="egift-redeemed">
      <div className="relative bg-pine px-5 pb-6 pt-6 text-cream sm:px-7">
        <p className="text-sm font-semibold uppercase tracking-[0.16em] text-gold-tint">Gift redeemed</p>
        <h2 id="redeemed-heading" ref={heading} tabIndex={-1} className="mt-1 text-balance text-3xl font-bold tracking-tight focus:outline-none">
          You’ve got {formatAmount(r.amountCents)} from {r.senderName}
        </h2>
      </div>
      <div className="px-5 py-6 sm:px-7">
        {r.message ? (
          <blockquote className="rounded-xl border-l-4 border-cranberry bg-cream px-4 py-3" data-testid="egift-redeemed-message">
            <p className="whitespace-pre-line break-words text-lg">“{r.message}”</p>
            <footer className="mt-1 text-right font-semibold text-ink-soft">— {r.senderName}</footer>
          </blockquote>
        ) : null}
        <dl className="mt-5 grid gap-x-6 gap-y-3 sm:grid-cols-2">
          <div>
            <dt className="text-sm text-ink-soft">Added to your account</dt>
            <dd className="text-2xl font-bold tabular-nums">{formatCents(r.amountCents)}</dd>
          </div>
          <div>
            <dt className="text-sm text-ink-soft">Your store credit now</dt>
            <dd className="text-2xl font-bold tabular-nums text-pine" data-testid="egift-balance">
              {formatCents(r.balanceCents)}
            </dd>
          </div>
        </dl>
        <p className="mt-4 text-ink-soft">It comes off your next order at checkout on its own — no code needed.</p>
        <div className="mt-6 flex flex-wrap items-center gap-3">
          <ButtonLink to="/photo-products" className="grow sm:grow-0">
            Make an ornament
          </ButtonLink>
          <Button variant="quiet" onClick={onAnother}>
            Redeem another code
          </Button>
        </div>
      </div>
    </section>
  )
}

function RedeemSkeleton() {
  return (
    <div role="status" aria-label="Loading" className="overflow-hidden rounded-card bg-cream-card shadow-card">
      <div className="h-28 animate-pulse bg-cranberry-tint" />
      <div className="space-y-3 p-6">
        <div className="h-4 w-24 animate-pulse rounded bg-cream-deep" />
        <div className="h-14 animate-pulse rounded-xl bg-cream-deep" />
        <div className="mt-4 h-11 w-44 animate-pulse rounded-full bg-cream-deep" />
      </div>
    </div>
  )
}
