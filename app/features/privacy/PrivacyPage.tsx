import type { ReactNode } from 'react'
import { REFERRAL_COOKIE, REFERRAL_COOKIE_DAYS } from '~/catalogue/referral-terms'
import { SESSION_COOKIE } from '~/contract/headers'
import { PREVIEW_RETENTION_DAYS, SESSION_TTL_DAYS } from '~/catalogue/retention-terms'
import { CONSENT_COOKIE, CONSENT_MAX_AGE_DAYS, setAnalyticsConsent, type AnalyticsConsent } from '~/lib/analytics'
import { usePublicConfig } from '~/lib/public-config'
import { useAnalyticsConsent } from './use-analytics-consent'

/** "30 days", "1 year": cookie lives read as a shopper would say them. */
function spanOf(days: number) {
  if (days % 365 === 0) return days === 365 ? '1 year' : `${days / 365} years`
  return days === 1 ? '1 day' : `${days} days`
}

const prose = 'mt-2 leading-relaxed text-ink-soft'

function Section({ id, title, children }: { id: string; title: string; children: ReactNode }) {
  return (
    <section aria-labelledby={id}>
      <h2 id={id} className="text-xl font-semibold">
        {title}
      </h2>
      {children}
    </section>
  )
}

/** /privacy: what Keepsake records, where it goes and how long it stays, in the shopper's words. */
export function PrivacyPage() {
  const { supportEmail, sessionReplayProjectId } = usePublicConfig()
  const replay = Boolean(sessionReplayProjectId)
  const cookies = [
    { name: SESSION_COOKIE, what: 'Keeps you signed in.', lasts: spanOf(SESSION_TTL_DAYS) },
    {
      name: REFERRAL_COOKIE,
      what: 'Remembers the invite code from a friend’s link, so the welcome credit is still there when you sign in.',
      lasts: spanOf(REFERRAL_COOKIE_DAYS),
    },
    { name: CONSENT_COOKIE, what: 'Remembers your answer about analytics, so we don’t ask again.', lasts: spanOf(CONSENT_MAX_AGE_DAYS) },
  ]
  return (
    <main id="main" className="mx-auto max-w-3xl px-4 py-10 sm:px-6">
      <p className="text-sm font-semibold uppercase tracking-[0.16em] text-pine">Your data</p>
      <h1 className="mt-2 text-4xl font-bold tracking-tight">Privacy</h1>
      <p className="mt-4 text-lg text-ink-soft">
        What Keepsake records while you shop, why, and how long we keep it. In short: your photos are used only to make what you order, and we record how the
        shop is used only if you say yes.
      </p>
      <div className="mt-8 space-y-8">
        <Section id="privacy-analytics" title="How the shop is used">
          <p className={prose}>
            If you allow analytics, we record the pages you view and what you do in the shop: choosing an ornament, making a preview, adding to your cart,
            checking out, buying or redeeming an e-gift, and opening a partner offer. Each record carries the page address, a random session id made for this
            browser tab, and the campaign id and country when the link you followed carried them.
          </p>
          <p className={prose}>
            {replay
              ? 'These records go to PostHog, the analytics service we use, and we look at them there to see what works and what confuses people.'
              : 'Keepsake stores these records itself; when you are signed in they are linked to your account. We look at them to see what works and what confuses people.'}{' '}
            Until you answer, nothing is sent anywhere; if you say no, nothing ever is.
          </p>
        </Section>

        <Section id="privacy-replay" title="Session replay">
          {replay ? (
            <p className={prose}>
              Only if you allow analytics, PostHog also records how pages are used in this tab — clicks, scrolling and moving between pages — and what those
              pages showed, your photos included, so we can watch where people get stuck. Everything you type into a form is masked in your browser before
              anything is sent. Replay stops the moment you turn analytics off.
            </p>
          ) : (
            <p className={prose}>This store does not record sessions: no clicks, scrolling or typing are replayed.</p>
          )}
        </Section>

        <YourChoice supportEmail={supportEmail} />

        <Section id="privacy-photos" title="Your photos">
          <p className={prose}>
            When you design an ornament, the two photos you choose — from your family album, or ones you upload — are used to draw the preview and to make the
            print file our print partner prints from.
          </p>
          <ul className="mt-3 space-y-2 text-ink-soft">
            <Point>
              Previews of designs that never reach a cart or an order are deleted after{' '}
              <strong className="font-semibold text-ink">{spanOf(PREVIEW_RETENTION_DAYS)}</strong>.
            </Point>
            <Point>Print files of orders are kept, so we can reprint an ornament that arrives damaged.</Point>
            <Point>Photos you upload stay in your uploads for your next design. Write to us to have them deleted.</Point>
          </ul>
        </Section>

        <Section id="privacy-orders" title="Orders and e-mail">
          <p className={prose}>
            To make and ship an order we keep your name, shipping address and e-mail address, and a phone number if you give one for the courier. We use your
            e-mail for the receipt and shipping notices. When you send an e-gift, we keep the recipient’s name and e-mail to deliver it. Payment is taken by our
            checkout provider: we never see or store your full card number.
          </p>
        </Section>

        <Section id="privacy-cookies" title="Cookies">
          <p className={prose}>Keepsake sets only these cookies of its own, and no advertising or third-party cookies.</p>
          <ul className="mt-4 divide-y divide-ink/10 rounded-card bg-cream-card px-4 shadow-card sm:px-5">
            {cookies.map((c) => (
              <li key={c.name} className="flex flex-col gap-1 py-4 sm:flex-row sm:items-baseline sm:gap-6">
                <div className="min-w-0 flex-1">
                  <p className="text-ink">{c.what}</p>
                  <p className="mt-0.5 font-mono text-sm text-ink-soft">{c.name}</p>
                </div>
                <p className="shrink-0 self-start rounded-full sm:self-baseline bg-pine-tint px-2.5 py-0.5 text-sm font-semibold text-pine-dark">
                  <span className="sr-only">Kept for </span>
                  {c.lasts}
                </p>
              </li>
            ))}
          </ul>
          <p className={prose}>
            Your browser also keeps a random session id for this tab, gone when you close it.
            {replay
              ? ' Once you allow analytics, PostHog keeps its own id for the tab too; if you then turn analytics off, it notes that in your browser so they stay off.'
              : ''}
          </p>
        </Section>
      </div>
    </main>
  )
}

function Point({ children }: { children: ReactNode }) {
  return (
    <li className="flex gap-3 leading-relaxed">
      <span aria-hidden="true" className="mt-2.5 size-1.5 shrink-0 rounded-full bg-pine" />
      <span>{children}</span>
    </li>
  )
}

const statusText: Record<AnalyticsConsent, string> = {
  granted: 'Analytics are on. Thank you — it helps us make the shop better.',
  denied: 'Analytics are off. Nothing about how you use the shop is sent.',
  undecided: 'You haven’t chosen yet, so nothing is sent.',
}

/** The same answer as the consent bar: changing it here takes effect at once. */
function YourChoice({ supportEmail }: { supportEmail: string }) {
  const consent = useAnalyticsConsent()
  const choices = [
    { value: 'granted', label: 'Allow analytics' },
    { value: 'denied', label: 'Turn analytics off' },
  ] as const
  return (
    <section aria-labelledby="privacy-choice" className="rounded-card bg-cream-card p-5 shadow-card sm:p-6">
      <h2 id="privacy-choice" className="text-xl font-semibold">
        Your choice
      </h2>
      <p role="status" className="mt-2 leading-relaxed text-ink-soft">
        {statusText[consent]}
      </p>
      <div className="mt-4 flex flex-wrap gap-3">
        {choices.map((choice) => {
          const chosen = consent === choice.value
          return (
            <button
              key={choice.value}
              type="button"
              aria-pressed={chosen}
              onClick={() => setAnalyticsConsent(choice.value)}
              className={`inline-flex min-h-11 flex-1 items-center justify-center gap-2 whitespace-nowrap rounded-full border-2 px-5 py-2.5 font-semibold transition-colors sm:flex-none ${
                chosen ? 'border-pine bg-pine-tint text-pine-dark' : 'border-ink/15 bg-cream-card text-ink hover:border-ink/30'
              }`}
            >
              {chosen ? (
                <svg
                  aria-hidden="true"
                  viewBox="0 0 20 20"
                  className="size-4"
                  fill="none"
                  stroke="currentColor"
                  strokeWidth="2.5"
                  strokeLinecap="round"
                  strokeLinejoin="round"
                >
                  <path d="M4 10.5l4 4 8-9" />
                </svg>
              ) : null}
              {choice.label}
            </button>
          )
        })}
      </div>
      <p className="mt-5 border-t border-ink/10 pt-4 leading-relaxed text-ink-soft">
        To see what we hold about you, or to have your photos, orders or account deleted, write to{' '}
        <a className="font-semibold text-cranberry underline" href={`mailto:${supportEmail}`}>
          {supportEmail}
        </a>{' '}
        and a person will answer within one working day.
      </p>
    </section>
  )
}
