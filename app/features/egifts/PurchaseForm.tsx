import { useQueryClient } from '@tanstack/react-query'
import { Link } from '@tanstack/react-router'
import { useId, useRef, useState, type FormEvent } from 'react'
import { Button } from '~/components/ui/Button'
import { FieldError, FieldHint, inputClass, TextField } from '~/components/ui/fields'
import { SupportLine } from '~/components/ui/SupportLine'
import { EGIFT_MAX_DOLLARS, EGIFT_MAX_SEND_DAYS, EGIFT_MESSAGE_MAX, EGIFT_MIN_DOLLARS, EGIFT_NAME_MAX, EGIFT_PRESET_DOLLARS } from '~/catalogue/egift-terms'
import { FIELD_LIMITS } from '~/catalogue/field-limits'
import { formatWholeDollars } from '~/catalogue/currency'
import { parseWholeDollars } from '~/lib/money-input'
import { usePublicConfig } from '~/lib/public-config'
import { buyEgift, egiftPurchasesQuery } from './egifts.functions'
import { addDays, formatCalendarDay, todayHere } from '~/lib/dates'
import { GiftCardPreview } from './GiftCardPreview'
import { fieldErrorsOf } from '~/lib/field-errors'

type Field = 'amountCents' | 'recipientName' | 'recipientEmail' | 'senderName' | 'message' | 'sendOn'
type FieldErrors = Partial<Record<Field, string>>
const fieldOrder: Field[] = ['amountCents', 'recipientName', 'recipientEmail', 'senderName', 'message', 'sendOn']

type AmountChoice = (typeof EGIFT_PRESET_DOLLARS)[number] | 'other'

/**
 * The range of days a gift can be scheduled for: today to a year ahead (the send date the API checks is the buyer's).
 * Here, not beside the card art in gift-card.ts: the dates it needs are no part of a signed-out visitor's first load.
 */
const sendOnRange = (today = todayHere()) => ({ min: today, max: addDays(today, EGIFT_MAX_SEND_DAYS) })

/** The purchase form of /egifts, with a live preview of the card; paying happens on the checkout page it sends the shopper to. */
export function PurchaseForm({ defaultSenderName }: { defaultSenderName: string }) {
  const queryClient = useQueryClient()
  const { supportEmail, demoMode } = usePublicConfig()
  const [choice, setChoice] = useState<AmountChoice>(50)
  const [otherDollars, setOtherDollars] = useState('')
  const [recipientName, setRecipientName] = useState('')
  const [recipientEmail, setRecipientEmail] = useState('')
  const [senderName, setSenderName] = useState(defaultSenderName)
  const [message, setMessage] = useState('')
  const [when, setWhen] = useState<'now' | 'later'>('now')
  const [sendOn, setSendOn] = useState('')
  const [errors, setErrors] = useState<FieldErrors>({})
  const [problem, setProblem] = useState<{ message: string; signedOut?: boolean } | null>(null)
  const [sending, setSending] = useState(false)
  const form = useRef<HTMLFormElement>(null)
  const problemRef = useRef<HTMLDivElement>(null)
  const otherRef = useRef<HTMLInputElement>(null)
  const id = useId()

  // The amount as typed, within the range we sell: one outside it ($0, $501) is never shown as the gift's amount nor
  // as the price to pay (issue 32); Continue names the range, in the API's words.
  const other = parseWholeDollars(otherDollars, { min: EGIFT_MIN_DOLLARS, max: EGIFT_MAX_DOLLARS })
  const dollars = choice === 'other' ? (other.ok ? other.dollars : null) : choice
  const amountLabel = dollars === null ? null : formatWholeDollars(dollars)

  const focusField = (field: Field) => {
    if (field === 'amountCents') {
      if (choice === 'other') otherRef.current?.focus()
      else form.current?.querySelector<HTMLInputElement>('input[name="amount"]:checked')?.focus()
      return
    }
    form.current?.querySelector<HTMLElement>(`[name="${field}"]`)?.focus()
  }
  const clearError = (field: Field) => setErrors((e) => (e[field] ? { ...e, [field]: undefined } : e))

  const submit = async (event: FormEvent) => {
    event.preventDefault()
    if (sending) return
    if (choice === 'other' && !other.ok) {
      // Never send an amount other than the one the shopper typed: say what to change instead.
      setErrors({ amountCents: other.message })
      otherRef.current?.focus()
      return
    }
    setSending(true)
    setErrors({})
    setProblem(null)
    try {
      const outcome = await buyEgift({
        data: {
          amountCents: (dollars ?? 0) * 100,
          recipientName,
          recipientEmail,
          senderName,
          message,
          sendOn: when === 'later' ? sendOn : null,
        },
      })
      if (outcome.ok) {
        void queryClient.invalidateQueries({ queryKey: egiftPurchasesQuery().queryKey })
        // The checkout may be ours or Stripe's: a full navigation either way. The button stays busy meanwhile.
        if (outcome.data.checkoutUrl) window.location.assign(outcome.data.checkoutUrl)
        else window.location.assign(`/egifts/complete?gift=${outcome.data.id}`)
        return
      }
      const failure = outcome.error
      if (failure.issues.length > 0) {
        const { fields, other } = fieldErrorsOf(failure, fieldOrder)
        // "Choose a day" with no day picked: the API names sendOn; say it in the form's words.
        if (when === 'later' && !sendOn && fields.sendOn) fields.sendOn = 'Choose the day to send it, or send it as soon as it’s paid'
        setErrors(fields)
        const first = fieldOrder.find((f) => fields[f])
        if (other.length > 0 || !first) {
          setProblem({ message: other.length > 0 ? other.join(' ') : failure.message })
          requestAnimationFrame(() => problemRef.current?.focus())
        } else {
          requestAnimationFrame(() => focusField(first))
        }
      } else {
        setProblem({
          message:
            failure.status === 401 ? 'You’ve been signed out, so the gift wasn’t made and nothing was charged. Sign in again to send it.' : failure.message,
          signedOut: failure.status === 401,
        })
        requestAnimationFrame(() => problemRef.current?.focus())
      }
    } catch (error) {
      setProblem({ message: `We couldn’t reach Keepsake: ${error instanceof Error ? error.message : 'Unknown error'}. Nothing was charged; try again.` })
      requestAnimationFrame(() => problemRef.current?.focus())
    }
    setSending(false)
  }

  const range = sendOnRange()
  const preview = (
    <GiftCardPreview
      amount={amountLabel}
      recipientName={recipientName}
      senderName={senderName}
      message={message}
      caption={
        when === 'later' && sendOn
          ? `We’ll e-mail it ${recipientName.trim() ? `to ${recipientName.trim()} ` : ''}on ${formatCalendarDay(sendOn)}, at 9 am your time.`
          : `We’ll e-mail it ${recipientName.trim() ? `to ${recipientName.trim()} ` : ''}as soon as it’s paid.`
      }
    />
  )

  return (
    <div className="grid gap-8 lg:grid-cols-[minmax(0,1fr)_minmax(0,26rem)] lg:gap-12" data-lazy-part="egift-purchase-form">
      <form ref={form} onSubmit={(e) => void submit(e)} noValidate aria-labelledby={`${id}-heading`} className="space-y-7">
        <h3 id={`${id}-heading`} className="sr-only">
          Your gift
        </h3>
        <fieldset aria-describedby={errors.amountCents ? `${id}-amount-error` : undefined}>
          <legend className="text-lg font-bold">Amount</legend>
          <div className="mt-3 grid grid-cols-3 gap-2 sm:grid-cols-[repeat(4,minmax(0,1fr))_minmax(0,1.6fr)]" data-testid="egift-amounts">
            {EGIFT_PRESET_DOLLARS.map((preset) => (
              <AmountChip
                key={preset}
                label={formatWholeDollars(preset)}
                checked={choice === preset}
                onChange={() => {
                  setChoice(preset)
                  clearError('amountCents')
                }}
              />
            ))}
            <AmountChip
              label="Other amount"
              checked={choice === 'other'}
              onChange={() => {
                setChoice('other')
                clearError('amountCents')
              }}
              wide
            />
          </div>
          {choice === 'other' ? (
            <div className="mt-4">
              <label htmlFor={`${id}-other`} className="text-sm font-semibold">
                Your amount, in whole dollars
              </label>
              <div className="relative mt-1 max-w-48">
                <span aria-hidden="true" className="pointer-events-none absolute inset-y-0 left-3 flex items-center text-lg font-semibold text-ink-soft">
                  $
                </span>
                <input
                  ref={otherRef}
                  id={`${id}-other`}
                  name="amountCents"
                  inputMode="numeric"
                  autoComplete="off"
                  maxLength={12}
                  value={otherDollars}
                  onChange={(e) => {
                    setOtherDollars(e.target.value)
                    clearError('amountCents')
                  }}
                  onBlur={() => {
                    // Typed cents or letters are named as soon as the shopper leaves the field; an empty one waits for Continue.
                    if (!other.ok && other.reason !== 'empty') setErrors((e) => ({ ...e, amountCents: other.message }))
                  }}
                  aria-invalid={errors.amountCents ? true : undefined}
                  aria-describedby={[`${id}-other-hint`, errors.amountCents ? `${id}-amount-error` : null].filter(Boolean).join(' ')}
                  className={`${inputClass(Boolean(errors.amountCents))} pl-8 text-lg font-semibold tabular-nums`}
                />
              </div>
              <FieldHint id={`${id}-other-hint`}>
                From {formatWholeDollars(EGIFT_MIN_DOLLARS)} to {formatWholeDollars(EGIFT_MAX_DOLLARS)}.
              </FieldHint>
            </div>
          ) : null}
          <FieldError id={`${id}-amount-error`} error={errors.amountCents} />
        </fieldset>

        <fieldset className="space-y-4">
          <legend className="text-lg font-bold">Who it’s for</legend>
          <TextField
            label="Their name"
            name="recipientName"
            maxLength={EGIFT_NAME_MAX}
            autoComplete="off"
            value={recipientName}
            onChange={(v) => {
              setRecipientName(v)
              clearError('recipientName')
            }}
            error={errors.recipientName}
            placeholder="Gran"
          />
          <TextField
            label="Their e-mail address"
            name="recipientEmail"
            maxLength={FIELD_LIMITS.email}
            type="email"
            autoComplete="off"
            value={recipientEmail}
            onChange={(v) => {
              setRecipientEmail(v)
              clearError('recipientEmail')
            }}
            error={errors.recipientEmail}
            hint="We send the gift code here. Only they will see it."
          />
        </fieldset>

        <fieldset className="space-y-4">
          <legend className="text-lg font-bold">From you</legend>
          <TextField
            label="Your name"
            name="senderName"
            maxLength={EGIFT_NAME_MAX}
            autoComplete="given-name"
            value={senderName}
            onChange={(v) => {
              setSenderName(v)
              clearError('senderName')
            }}
            error={errors.senderName}
            hint="As it will be signed on the gift."
          />
          <MessageField
            value={message}
            onChange={(v) => {
              setMessage(v)
              clearError('message')
            }}
            error={errors.message}
          />
        </fieldset>

        <fieldset aria-describedby={errors.sendOn ? `${id}-sendon-error` : undefined}>
          <legend className="text-lg font-bold">When to send it</legend>
          <div className="mt-3 space-y-2">
            <WhenOption
              name="when"
              checked={when === 'now'}
              onChange={() => {
                setWhen('now')
                clearError('sendOn')
              }}
              label="Send as soon as it’s paid"
            />
            <WhenOption
              name="when"
              checked={when === 'later'}
              onChange={() => {
                setWhen('later')
                setSendOn((d) => d || range.min)
              }}
              label="Send on a day I choose"
            />
          </div>
          {when === 'later' ? (
            <div className="mt-4">
              <label htmlFor={`${id}-sendon`} className="text-sm font-semibold">
                Send on
              </label>
              <input
                id={`${id}-sendon`}
                name="sendOn"
                type="date"
                min={range.min}
                max={range.max}
                value={sendOn}
                onChange={(e) => {
                  setSendOn(e.target.value)
                  clearError('sendOn')
                }}
                aria-invalid={errors.sendOn ? true : undefined}
                aria-describedby={[`${id}-sendon-hint`, errors.sendOn ? `${id}-sendon-error` : null].filter(Boolean).join(' ')}
                className={`${inputClass(Boolean(errors.sendOn))} max-w-56`}
              />
              <FieldHint id={`${id}-sendon-hint`}>Any day in the next year. We e-mail it at 9 am your time.</FieldHint>
            </div>
          ) : null}
          <FieldError id={`${id}-sendon-error`} error={errors.sendOn} />
        </fieldset>

        <div className="lg:hidden">{preview}</div>

        {problem ? (
          <div
            ref={problemRef}
            tabIndex={-1}
            role="alert"
            className="rounded-xl border-2 border-cranberry/30 bg-cranberry-tint px-4 py-3 text-cranberry-dark"
            data-testid="egift-problem"
          >
            <p className="font-semibold">{problem.message}</p>
            {problem.signedOut ? (
              <Link
                to={demoMode ? '/utils/demo-sign-in' : '/auth/sign-in'}
                search={{ redirect: '/egifts' }}
                className="mt-1 inline-flex min-h-11 items-center font-semibold underline underline-offset-4"
              >
                Sign in again
              </Link>
            ) : (
              <SupportLine email={supportEmail} lead="Still stuck?" className="mt-1 text-sm" linkClassName="" />
            )}
          </div>
        ) : null}

        <div>
          <Button type="submit" disabled={sending} className="w-full text-lg sm:w-auto sm:px-10">
            {sending ? <span aria-hidden="true" className="size-4 animate-spin rounded-full border-2 border-white/40 border-t-white" /> : null}
            {sending ? 'Taking you to payment…' : amountLabel ? `Continue to pay ${amountLabel}` : 'Continue to payment'}
          </Button>
          <p className="mt-3 text-sm text-ink-soft">You’ll pay on the next page. The gift code is e-mailed once payment is through.</p>
        </div>
      </form>

      <div className="hidden lg:block">
        <div className="sticky top-24">
          <p className="mb-3 text-sm font-semibold uppercase tracking-[0.16em] text-pine">Preview</p>
          {preview}
        </div>
      </div>
    </div>
  )
}

function AmountChip({ label, checked, onChange, wide }: { label: string; checked: boolean; onChange: () => void; wide?: boolean }) {
  return (
    <label className={`relative block ${wide ? 'col-span-2 sm:col-span-1' : ''}`}>
      {/* The real radio lies over the chip, invisible: taps land on it, and the chip draws its state and focus. */}
      <input
        type="radio"
        name="amount"
        checked={checked}
        onChange={onChange}
        className="peer absolute inset-0 z-10 size-full cursor-pointer appearance-none opacity-0"
      />
      <span
        className={`flex min-h-12 cursor-pointer items-center justify-center rounded-xl border-2 px-3 py-2 text-center font-semibold transition-colors peer-focus-visible:outline-3 peer-focus-visible:outline-offset-2 peer-focus-visible:outline-pine ${
          checked ? 'border-cranberry bg-cranberry text-white' : 'border-ink/15 bg-cream-card text-ink hover:border-ink/35'
        } ${wide ? 'text-base' : 'text-lg tabular-nums'}`}
      >
        {label}
      </span>
    </label>
  )
}

function WhenOption({ name, label, checked, onChange }: { name: string; label: string; checked: boolean; onChange: () => void }) {
  return (
    <label className="flex min-h-11 cursor-pointer items-center gap-3 rounded-xl border-2 border-ink/10 bg-cream-card px-3 py-2 has-[:checked]:border-pine has-[:focus-visible]:outline-3 has-[:focus-visible]:outline-offset-2 has-[:focus-visible]:outline-pine">
      <input type="radio" name={name} checked={checked} onChange={onChange} className="size-5 accent-pine focus-visible:outline-none" />
      <span className="font-medium">{label}</span>
    </label>
  )
}

function MessageField({ value, onChange, error }: { value: string; onChange: (value: string) => void; error?: string }) {
  const id = useId()
  const length = value.trim().length
  const over = length - EGIFT_MESSAGE_MAX
  return (
    <div>
      <label htmlFor={id} className="text-sm font-semibold">
        A message <span className="font-normal text-ink-soft">(optional)</span>
      </label>
      <textarea
        id={id}
        name="message"
        rows={4}
        value={value}
        onChange={(e) => onChange(e.target.value)}
        placeholder="Happy holidays! Can’t wait to see which photos you choose."
        aria-invalid={error || over > 0 ? true : undefined}
        aria-describedby={[`${id}-count`, error ? `${id}-error` : null].filter(Boolean).join(' ')}
        className={`${inputClass(Boolean(error) || over > 0)} resize-y`}
      />
      <p
        id={`${id}-count`}
        className={`mt-1 text-right text-sm tabular-nums ${over > 0 ? 'font-semibold text-cranberry-dark' : 'text-ink-soft'}`}
        data-testid="message-count"
      >
        {over > 0 ? `${over} ${over === 1 ? 'character' : 'characters'} too long` : `${length} of ${EGIFT_MESSAGE_MAX} characters`}
      </p>
      <FieldError id={`${id}-error`} error={error} />
    </div>
  )
}
