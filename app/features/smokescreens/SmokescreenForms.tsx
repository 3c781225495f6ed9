import { useQuery } from '@tanstack/react-query'
import { useEffect, useRef, useState, type FormEvent } from 'react'
import { Button } from '~/components/ui/Button'
import { StreetAddressFields } from '~/components/ui/AddressFields'
import { TextField } from '~/components/ui/fields'
import { FIELD_LIMITS } from '~/catalogue/field-limits'
import type { SmokescreenProduct } from '~/contract/smokescreens'
import type { ApiOutcome } from '~/lib/api-outcome'
import { currentUserQuery } from '~/features/account/account.functions'
import { smokescreenCopy } from '../../catalogue/smokescreen-products'
import { joinSmokescreenWaitlist, registerSmokescreenDelivery } from './smokescreens.functions'
import { fieldErrorsOf } from '~/lib/field-errors'

type Signup = { created: boolean; count: number }
type FieldErrors = Partial<Record<string, string>>

/** Sends one sign-up and keeps what the form shows: field errors, a problem, or the answer. */
function useSignup<F extends string>(fields: readonly F[], send: () => Promise<ApiOutcome<Signup>>) {
  const form = useRef<HTMLFormElement>(null)
  const [errors, setErrors] = useState<FieldErrors>({})
  const [problem, setProblem] = useState<string | null>(null)
  const [sending, setSending] = useState(false)
  const [answer, setAnswer] = useState<Signup | null>(null)
  const submit = async (event: FormEvent) => {
    event.preventDefault()
    if (sending) return
    setSending(true)
    setProblem(null)
    setErrors({})
    try {
      const outcome = await send()
      if (outcome.ok) {
        setAnswer(outcome.data)
      } else if (outcome.error.issues.length > 0) {
        const found = fieldErrorsOf(outcome.error, fields)
        setErrors(found.fields)
        setProblem(found.other.length > 0 ? found.other.join(' ') : 'Please check the highlighted fields.')
        const first = fields.find((f) => found.fields[f])
        if (first) form.current?.querySelector<HTMLElement>(`[name="${first}"]`)?.focus()
      } else if (outcome.error.code === 'rate_limited') {
        setProblem(`We’ve had a lot of sign-ups from your connection just now. ${outcome.error.message}.`)
      } else {
        setProblem(outcome.error.message)
      }
    } catch {
      setProblem('We couldn’t reach Keepsake. Check your connection and try again.')
    }
    setSending(false)
  }
  return { form, errors, problem, sending, answer, submit }
}

/** Name and e-mail start from the signed-in shopper, when there is one. */
function useShopperDefaults(set: (name: string, email: string) => void) {
  const { data: user } = useQuery(currentUserQuery())
  const filled = useRef(false)
  useEffect(() => {
    if (!user || filled.current) return
    filled.current = true
    set(`${user.firstName} ${user.lastName}`, user.email)
  }, [user, set])
}

const waitlistFields = ['name', 'email', 'note'] as const

/** "Notify me": name, e-mail and an optional note; sourcePage is the page it was sent from. */
export function WaitlistForm({ product, sourcePage, onDone }: { product: SmokescreenProduct; sourcePage: string; onDone: () => void }) {
  const [values, setValues] = useState({ name: '', email: '', note: '' })
  useShopperDefaults(useStableFill(setValues))
  const signup = useSignup(waitlistFields, () => joinSmokescreenWaitlist({ data: { product, sourcePage, ...values } }))
  const set = (field: keyof typeof values) => (value: string) => setValues((v) => ({ ...v, [field]: value }))
  if (signup.answer) return <ThankYou kind="waitlist" product={product} answer={signup.answer} email={values.email} onDone={onDone} />
  return (
    <form ref={signup.form} onSubmit={(e) => void signup.submit(e)} noValidate className="space-y-4" data-testid="waitlist-form">
      <TextField
        label="Your name"
        name="name"
        autoComplete="name"
        maxLength={FIELD_LIMITS.personName}
        value={values.name}
        onChange={set('name')}
        error={signup.errors.name}
      />
      <TextField
        label="E-mail"
        name="email"
        type="email"
        autoComplete="email"
        maxLength={FIELD_LIMITS.email}
        value={values.email}
        onChange={set('email')}
        error={signup.errors.email}
        hint="Only to tell you it’s ready. No newsletters."
      />
      <TextField
        label="Anything we should know?"
        optional
        multiline
        name="note"
        maxLength={FIELD_LIMITS.note}
        autoComplete="off"
        value={values.note}
        onChange={set('note')}
        error={signup.errors.note}
        hint="Who it’s for, or what you’d make first."
      />
      <Submit problem={signup.problem} sending={signup.sending} label="Notify me" sendingLabel="Adding you…" />
    </form>
  )
}

const deliveryFields = ['name', 'email', 'phone', 'line1', 'line2', 'city', 'state', 'postalCode'] as const

/** "Deliver to me": where they would want it, so we learn where to launch first. Nothing is charged. */
export function DeliveryForm({ product, onDone }: { product: SmokescreenProduct; onDone: () => void }) {
  const [values, setValues] = useState({ name: '', email: '', phone: '', line1: '', line2: '', city: '', state: '', postalCode: '' })
  useShopperDefaults(useStableFill(setValues))
  const signup = useSignup(deliveryFields, () => registerSmokescreenDelivery({ data: { product, country: 'US', ...values } }))
  const set = (field: keyof typeof values) => (value: string) => setValues((v) => ({ ...v, [field]: value }))
  if (signup.answer) return <ThankYou kind="delivery" product={product} answer={signup.answer} email={values.email} onDone={onDone} />
  return (
    <form ref={signup.form} onSubmit={(e) => void signup.submit(e)} noValidate className="space-y-4" data-testid="delivery-form">
      <div className="grid gap-4 sm:grid-cols-2">
        <TextField
          label="Full name"
          name="name"
          autoComplete="name"
          maxLength={FIELD_LIMITS.personName}
          value={values.name}
          onChange={set('name')}
          error={signup.errors.name}
        />
        <TextField
          label="E-mail"
          name="email"
          type="email"
          autoComplete="email"
          maxLength={FIELD_LIMITS.email}
          value={values.email}
          onChange={set('email')}
          error={signup.errors.email}
        />
      </div>
      <StreetAddressFields value={values} onChange={set} errors={signup.errors} />
      <TextField
        label="Phone"
        optional
        name="phone"
        type="tel"
        autoComplete="tel"
        maxLength={FIELD_LIMITS.phone}
        value={values.phone}
        onChange={set('phone')}
        error={signup.errors.phone}
      />
      <p className="text-sm text-ink-soft">We deliver in the United States only. Nothing is charged or shipped now.</p>
      <Submit problem={signup.problem} sending={signup.sending} label="Count me in" sendingLabel="Saving…" />
    </form>
  )
}

/** A fill for useShopperDefaults that keeps what the shopper already typed. */
function useStableFill<T extends { name: string; email: string }>(setValues: (update: (v: T) => T) => void) {
  const fill = useRef((name: string, email: string) => setValues((v) => ({ ...v, name: v.name || name, email: v.email || email })))
  return fill.current
}

function ThankYou({
  kind,
  product,
  answer,
  email,
  onDone,
}: {
  kind: 'waitlist' | 'delivery'
  product: SmokescreenProduct
  answer: Signup
  email: string
  onDone: () => void
}) {
  const what = smokescreenCopy[product].inSentence
  const done = useRef<HTMLHeadingElement>(null)
  useEffect(() => done.current?.focus(), [])
  const others = answer.count - 1
  return (
    <div className="py-4 text-center" data-testid="smokescreen-thanks" data-created={answer.created}>
      <div aria-hidden="true" className="mx-auto grid size-14 place-items-center rounded-full bg-pine-tint text-2xl text-pine">
        ✓
      </div>
      <h3 ref={done} tabIndex={-1} className="mt-4 text-2xl font-bold tracking-tight outline-none">
        {answer.created ? (kind === 'waitlist' ? 'You’re on the list' : 'Thanks — you’re counted in') : 'You’re already on the list'}
      </h3>
      <p className="mx-auto mt-2 max-w-sm text-ink-soft">
        {answer.created
          ? kind === 'waitlist'
            ? `We’ll e-mail ${email.trim()} as soon as ${what} is ready.`
            : `When ${what} launches, we’ll e-mail ${email.trim()} before anything ships. Nothing has been charged.`
          : `We already have you down for ${what}, so there’s nothing more to do. We’ll be in touch when it’s ready.`}
      </p>
      {answer.created ? (
        <p className="mt-2 text-sm font-semibold text-pine-dark">
          {others > 0 ? `${others} ${others === 1 ? 'other family has' : 'other families have'} asked for it too.` : 'You’re the first to ask for it!'}
        </p>
      ) : null}
      <Button className="mt-6" onClick={onDone}>
        Done
      </Button>
    </div>
  )
}

function Submit({ problem, sending, label, sendingLabel }: { problem: string | null; sending: boolean; label: string; sendingLabel: string }) {
  return (
    <div className="space-y-3 pt-1">
      <div role="alert" aria-live="assertive">
        {problem ? (
          <p className="rounded-xl bg-cranberry-tint px-4 py-3 text-sm font-semibold text-cranberry-dark" data-testid="smokescreen-problem">
            {problem}
          </p>
        ) : null}
      </div>
      <Button type="submit" disabled={sending} className="w-full sm:w-auto">
        {sending ? sendingLabel : label}
      </Button>
    </div>
  )
}
