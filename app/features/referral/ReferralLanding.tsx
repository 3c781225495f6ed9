import { useQuery } from '@tanstack/react-query'
import { Link, type NotFoundRouteProps } from '@tanstack/react-router'
import { Suspense } from 'react'
import { ButtonLink } from '~/components/ui/Button'
import { FeatureList, PageHero, Section } from '~/components/ui/PageHero'
import type { ReferralInvite } from '~/contract/referral'
import type { ApiOutcome } from '~/lib/api-outcome'
import { InviteLoadFailed, type UnknownInvite } from './landing-loader'
import { OrnamentArt } from '~/components/OrnamentArt'
import { currentUserQuery } from '~/features/account/account.functions'
import { usePublicConfig } from '~/lib/public-config'
import { formatAmount } from '~/catalogue/currency'
import { onDarkButton } from './on-dark'
import { ReferralArt } from './ReferralArt'
import { logAction, useLogOnce } from './user-actions'

export type LandingVariant = 'refer' | 'r' | 'r0'

type Offer = { name: string; give: string; get: string }

/** The three paths are A/B variants of one page: only these words differ. */
const variants: Record<LandingVariant, { eyebrow: (o: Offer) => string; title: (o: Offer) => string; lead: (o: Offer) => string }> = {
  refer: {
    eyebrow: () => 'You’re invited',
    title: (o) => `${o.name} invited you to Keepsake`,
    lead: (o) => `${o.name} thinks your photos deserve a keepsake. Join through this invite and get ${o.give} off your first photo ornament.`,
  },
  r: {
    eyebrow: (o) => `A gift from ${o.name}`,
    title: (o) => `${o.name} sent you ${o.give} for your first keepsake`,
    lead: (o) => `${o.name} invited you: turn two of your family photos into an ornament you can hold, with ${o.give} off your first order.`,
  },
  r0: {
    eyebrow: (o) => `${o.name} invited you`,
    title: () => 'Your family photos, off the phone and onto the tree',
    lead: (o) => `${o.name} invited you to Keepsake. Claim the invite and your first order is ${o.give} less.`,
  },
}

/** The friend's landing page: who invited them, the offer, and the two ways in (the app, or signing in here). */
export function ReferralLanding({ variant, code, invite }: { variant: LandingVariant; code: string; invite: ApiOutcome<ReferralInvite> }) {
  const found = invite.ok ? true : invite.error.status === 404 || invite.error.status === 400 ? false : null
  useLogOnce('referred', 'viewed_landing', { variant, code: code.slice(0, 40).toUpperCase(), ...(found === false ? { found: false } : {}) })
  return (
    <main id="main" data-referral-variant={variant}>
      {invite.ok ? (
        <ValidInvite variant={variant} invite={invite.data} />
      ) : found === false ? (
        <InviteNotWorking />
      ) : (
        <Suspense fallback={null}>
          <InviteLoadFailed message={invite.error.message} />
        </Suspense>
      )}
    </main>
  )
}

function ValidInvite({ variant, invite }: { variant: LandingVariant; invite: ReferralInvite }) {
  const { deepLinks } = usePublicConfig()
  const { data: user } = useQuery(currentUserQuery())
  const offer = { name: invite.advocateFirstName, give: formatAmount(invite.referredCreditCents), get: formatAmount(invite.advocateRewardCents) }
  const text = variants[variant]
  return (
    <>
      <PageHero
        tone="cranberry"
        eyebrow={text.eyebrow(offer)}
        title={text.title(offer)}
        lead={text.lead(offer)}
        actions={
          <>
            <a
              href={deepLinks.download}
              onClick={() => logAction('referred', 'clicked_get_app', { variant })}
              className={onDarkButton.solid('text-cranberry-dark')}
            >
              Get the Keepsake app
            </a>
            {user && invite.yours ? (
              // Her own invite cannot be claimed (the API refuses it): she is sent to share it instead.
              <Link to="/referral" className={onDarkButton.outline}>
                This is your invite: share it
              </Link>
            ) : (
              <Link
                to="/referral/redeem"
                search={{ code: invite.code }}
                onClick={() => logAction('referred', 'clicked_sign_in', { variant })}
                className={onDarkButton.outline}
              >
                {user ? `Claim my ${offer.give}` : `Sign in to claim ${offer.give}`}
              </Link>
            )}
          </>
        }
        art={<ReferralArt className="w-52 sm:w-64" />}
      />
      <Section title="The invite">
        <ul className="grid gap-4 sm:grid-cols-2" data-testid="invite-offer">
          <li className="flex gap-4 rounded-card bg-cream-card p-5 shadow-card">
            <span aria-hidden="true" className="grid size-12 shrink-0 place-items-center rounded-full bg-cranberry-tint text-lg font-bold text-cranberry-dark">
              {offer.give}
            </span>
            <div>
              <h3 className="text-lg font-semibold">You get {offer.give} off</h3>
              <p className="mt-1 text-ink-soft">Credit on your first Keepsake order, applied at checkout once you claim the invite.</p>
            </div>
          </li>
          <li className="flex gap-4 rounded-card bg-cream-card p-5 shadow-card">
            <span aria-hidden="true" className="grid size-12 shrink-0 place-items-center rounded-full bg-pine-tint text-lg font-bold text-pine-dark">
              {offer.get}
            </span>
            <div>
              <h3 className="text-lg font-semibold">
                {offer.name} gets {offer.get} too
              </h3>
              <p className="mt-1 text-ink-soft">When your first order is paid, {offer.name} earns Keepsake credit as a thank-you.</p>
            </div>
          </li>
        </ul>
        <p className="mt-4 text-sm text-ink-soft">
          Invite code{' '}
          <span className="rounded-md bg-cream-deep px-2 py-1 font-mono font-semibold text-ink" data-testid="invite-code">
            {invite.code}
          </span>{' '}
          · We’ll remember it on this device for {invite.rememberedDays} days.
        </p>
      </Section>
      <Section title="Why families love Keepsake">
        <FeatureList
          items={[
            { title: 'Straight from your album', body: 'Pick photos you already shared with family — no uploading, no fuss.' },
            { title: 'See it before you buy', body: 'Drag and zoom your photos on a live preview of the ornament.' },
            { title: 'Gift-boxed to your door', body: 'A matching pair, one photo on each, shipped ready to give.' },
          ]}
        />
      </Section>
    </>
  )
}

function InviteNotWorking() {
  return (
    <div className="mx-auto max-w-3xl px-4 pb-16 pt-10 sm:px-6 sm:pt-14">
      <div aria-hidden="true" className="flex items-end justify-center gap-2">
        <OrnamentArt shape="star" className="w-12 -rotate-6 opacity-90" />
        <OrnamentArt shape="tree" className="w-16 opacity-90" />
        <OrnamentArt shape="stocking" className="w-12 rotate-6 opacity-90" />
      </div>
      <h1 className="mt-6 text-balance text-center text-3xl font-bold tracking-tight sm:text-4xl">This invite link isn’t working</h1>
      <div className="mx-auto mt-3 max-w-xl space-y-3 text-center text-lg text-ink-soft" data-testid="invite-not-found">
        <p>The link may be missing a few characters, or the invite has been turned off.</p>
        <p>Ask your friend to send you a new link — it’s on their Refer a friend page. Meanwhile, you can look around the store.</p>
      </div>
      <div className="mt-8 flex flex-wrap justify-center gap-3">
        <ButtonLink to="/photo-products">Browse photo ornaments</ButtonLink>
        <ButtonLink to="/referral" variant="secondary">
          How referrals work
        </ButtonLink>
      </div>
    </div>
  )
}

/** A landing's notFoundComponent: the friendly "this invite is not working" page of its variant. */
export function UnknownInvitePage({ variant, data }: NotFoundRouteProps & { variant: LandingVariant }) {
  const { code, invite } = data as UnknownInvite
  return <ReferralLanding variant={variant} code={code} invite={invite} />
}
