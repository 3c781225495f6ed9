import { useEffect, useRef, useState, type FormEvent } from 'react'
import { Button } from '~/components/ui/Button'
import { TextField } from '~/components/ui/fields'
import { FIELD_LIMITS } from '~/catalogue/field-limits'
import { SIGN_IN_LINK_TTL_MINUTES } from '~/catalogue/sign-in-terms'
import { ApiFailureError } from '~/lib/api-outcome'
import { shopperErrorText } from '~/lib/error-text'
import { requestSignInLink } from './sign-in.functions'

type Sent = { email: string }

/**
 * "E-mail me a sign-in link" (issue 16): the address of the shopper's album account, then "Check your
 * e-mail". The answer is the same whether or not the address has an account.
 */
export function SignInForm({
  redirect,
  headingLevel = 2,
  onSentChange,
}: {
  redirect?: string
  /** The level of "Check your e-mail": 1 where it replaces the page's own heading. */
  headingLevel?: 1 | 2
  onSentChange?: (sent: boolean) => void
}) {
  const [email, setEmail] = useState('')
  const [fieldError, setFieldError] = useState<string | undefined>()
  const [problem, setProblem] = useState<string | undefined>()
  const [sending, setSending] = useState(false)
  const [sent, setSent] = useState<Sent | null>(null)
  const sentHeading = useRef<HTMLHeadingElement>(null)
  const form = useRef<HTMLFormElement>(null)
  const Heading = headingLevel === 1 ? 'h1' : 'h2'

  useEffect(() => {
    if (sent) sentHeading.current?.focus()
    onSentChange?.(sent !== null)
  }, [sent, onSentChange])
  // A refused address is focused, so its message is read out (the house's forms do the same).
  useEffect(() => {
    if (fieldError) form.current?.querySelector<HTMLInputElement>('input[name="email"]')?.focus()
  }, [fieldError])

  async function send(address: string) {
    setSending(true)
    setFieldError(undefined)
    setProblem(undefined)
    try {
      const outcome = await requestSignInLink({ data: { email: address, ...(redirect ? { redirect } : {}) } })
      if (outcome.ok) {
        setSent({ email: address.trim() })
        return
      }
      const issue = outcome.error.issues.find((i) => i.path === 'body.email')
      if (outcome.error.status === 400 && issue) setFieldError(issue.message)
      else setProblem(shopperErrorText(new ApiFailureError(outcome.error)))
    } catch (error) {
      setProblem(shopperErrorText(error) ?? 'We could not send the link. Check your connection and try again.')
    } finally {
      setSending(false)
    }
  }

  function onSubmit(event: FormEvent) {
    event.preventDefault()
    void send(email)
  }

  if (sent) {
    return (
      <section aria-labelledby="check-email-heading" className="rounded-card bg-cream-card p-6 shadow-card sm:p-8">
        <svg viewBox="0 0 48 48" aria-hidden="true" className="mb-4 size-12 text-pine">
          <rect x="5" y="11" width="38" height="27" rx="5" fill="currentColor" opacity="0.14" />
          <rect x="5" y="11" width="38" height="27" rx="5" fill="none" stroke="currentColor" strokeWidth="2.5" />
          <path d="m7 14 17 13 17-13" fill="none" stroke="currentColor" strokeWidth="2.5" strokeLinecap="round" strokeLinejoin="round" />
        </svg>
        <Heading id="check-email-heading" ref={sentHeading} tabIndex={-1} className="text-3xl font-bold tracking-tight outline-none">
          Check your e-mail
        </Heading>
        <p className="mt-3 text-lg text-ink-soft">
          If <strong className="break-all text-ink">{sent.email}</strong> belongs to a Keepsake account, a sign-in link is on its way.
        </p>
        <ul className="mt-4 list-disc space-y-2 pl-5 text-ink-soft marker:text-pine">
          <li>The link works once, for {SIGN_IN_LINK_TTL_MINUTES} minutes.</li>
          <li>Open it in this browser to come straight back, signed in.</li>
          <li>Nothing there? Look in your spam folder, or check it is the address you use in the Keepsake app.</li>
        </ul>
        {problem ? (
          <p role="alert" className="mt-4 rounded-card bg-cranberry-tint px-4 py-3 font-semibold text-cranberry-dark" data-testid="sign-in-problem">
            {problem}
          </p>
        ) : null}
        <div className="mt-6 flex flex-wrap gap-3">
          <Button variant="secondary" onClick={() => void send(sent.email)} disabled={sending}>
            {sending ? 'Sending…' : 'Send another link'}
          </Button>
          <Button
            variant="quiet"
            onClick={() => {
              setSent(null)
              setProblem(undefined)
            }}
          >
            Use a different address
          </Button>
        </div>
      </section>
    )
  }

  return (
    <form ref={form} onSubmit={onSubmit} noValidate aria-label="E-mail me a sign-in link" className="max-w-md">
      <TextField
        label="E-mail address"
        name="email"
        type="email"
        value={email}
        onChange={setEmail}
        error={fieldError}
        hint="The address you use in the Keepsake app."
        autoComplete="email"
        maxLength={FIELD_LIMITS.email}
      />
      {problem ? (
        <p role="alert" className="mt-4 rounded-card bg-cranberry-tint px-4 py-3 font-semibold text-cranberry-dark" data-testid="sign-in-problem">
          {problem}
        </p>
      ) : null}
      <Button type="submit" className="mt-5 w-full sm:w-auto" disabled={sending}>
        {sending ? 'Sending your link…' : 'E-mail me a sign-in link'}
      </Button>
    </form>
  )
}
