import { Link } from '@tanstack/react-router'
import { ButtonLink } from '~/components/ui/Button'
import { PageHero, Section } from '~/components/ui/PageHero'
import { HowItWorks } from '~/features/photo-products/HowItWorks'
import { OrnamentArt } from '~/features/photo-products/OrnamentArt'
import { usePublicConfig } from '~/lib/public-config'
import { campaigns, type CampaignId } from './campaigns'

/** One promotion campaign, from the campaigns table; sheets get a close action for the album app. */
export function CampaignPage({ id }: { id: CampaignId }) {
  const campaign = campaigns[id]
  const { deepLinks } = usePublicConfig()
  const sheet = campaign.presentation === 'sheet'
  return (
    <main id="main" data-campaign={id} data-experiment-variant={'experiment' in campaign ? campaign.experiment.variant : undefined}>
      {sheet ? (
        <div className="mx-auto flex max-w-6xl justify-end px-4 pt-3 sm:px-6">
          <a
            href={deepLinks.storeTab}
            className="inline-flex min-h-11 items-center gap-2 rounded-full px-4 font-semibold text-ink-soft hover:bg-ink/5 hover:text-ink"
          >
            <span aria-hidden="true">✕</span> Close
          </a>
        </div>
      ) : null}
      <PageHero
        tone={campaign.tone}
        eyebrow={campaign.eyebrow}
        title={campaign.title}
        lead={campaign.lead}
        actions={
          <ButtonLink to="/photo-products/buy-now" variant={campaign.tone === 'cream' ? 'primary' : 'secondary'}>
            {campaign.cta}
          </ButtonLink>
        }
        art={<OrnamentArt shape={campaign.art} className="w-40 drop-shadow-xl sm:w-52" />}
      />
      <HowItWorks />
      {id !== 'store' ? (
        <Section>
          <p className="text-ink-soft">
            Looking for something else?{' '}
            <Link to="/loop/store" className="font-semibold text-cranberry underline">
              Visit the Keepsake store
            </Link>
            .
          </p>
        </Section>
      ) : null}
    </main>
  )
}
