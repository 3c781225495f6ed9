import { ButtonLink } from '~/components/ui/Button'
import { FeatureList, PageHero, Section } from '~/components/ui/PageHero'
import { usePublicConfig } from '~/lib/public-config'
import { ReferralArt } from './ReferralArt'

type Variant = 'refer' | 'r' | 'r0'

const copy: Record<Variant, { eyebrow: string; title: string; lead: string }> = {
  refer: {
    eyebrow: 'You’re invited',
    title: 'A friend thinks your photos deserve a keepsake',
    lead: 'Join Keepsake through this invite and get credit on your first photo ornament.',
  },
  r: {
    eyebrow: 'A gift from a friend',
    title: 'Credit on your first keepsake, on us',
    lead: 'Turn two of your family photos into an ornament you can hold. Your friend’s invite takes money off your first order.',
  },
  r0: {
    eyebrow: 'Invitation',
    title: 'Your family photos, off the phone and onto the tree',
    lead: 'Open Keepsake with this invite to claim credit on your first order.',
  },
}

/** The friend's landing page; the three paths are A/B variants of the same page. */
export function ReferralLanding({ variant, code }: { variant: Variant; code: string }) {
  const { deepLinks } = usePublicConfig()
  const text = copy[variant]
  return (
    <main id="main" data-referral-variant={variant}>
      <PageHero
        tone="cranberry"
        eyebrow={text.eyebrow}
        title={text.title}
        lead={text.lead}
        actions={
          <>
            <a
              href={deepLinks.download}
              className="inline-flex min-h-11 items-center justify-center rounded-full bg-cream px-6 py-2.5 font-semibold text-cranberry-dark hover:bg-white"
            >
              Get the Keepsake app
            </a>
            <ButtonLink to="/referral/redeem" variant="secondary">
              I already have Keepsake
            </ButtonLink>
          </>
        }
        art={<ReferralArt className="w-52 sm:w-64" />}
      />
      <Section>
        <p className="text-ink-soft">
          Invite code <span className="rounded-md bg-cream-deep px-2 py-1 font-mono font-semibold text-ink">{code}</span>
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
    </main>
  )
}
