import { Link, useNavigate } from '@tanstack/react-router'
import { ButtonLink } from '~/components/ui/Button'
import { PageHero, Section } from '~/components/ui/PageHero'
import { HowItWorks } from '~/features/photo-products/HowItWorks'
import { OrnamentArt } from '~/components/OrnamentArt'
import { ComingSoon } from '~/features/smokescreens/ComingSoon'
import { followAppLink } from '~/lib/app-link'
import { variantOfShape } from '~/catalogue/ornaments'
import { usePublicConfig } from '~/lib/public-config'
import { CampaignPhotos } from './CampaignPhotos'
import { campaigns, type Campaign, type CampaignId } from './campaigns'

/** One promotion campaign from the campaigns table: a page, or a sheet for the album app's web view. */
export function CampaignPage({ id }: { id: Exclude<CampaignId, 'store'> }) {
  const campaign: Campaign = campaigns[id]
  return campaign.presentation === 'sheet' ? <CampaignSheet id={id} campaign={campaign} /> : <CampaignFullPage id={id} campaign={campaign} />
}

type LayoutProps = { id: CampaignId; campaign: Campaign }

/** The attributes analytics and tests read: which campaign, and which side of its experiment. */
const campaignAttributes = ({ id, campaign }: LayoutProps) => ({
  'data-campaign': id,
  'data-experiment': campaign.experiment?.name,
  'data-experiment-variant': campaign.experiment?.variant,
  'data-presentation': campaign.presentation,
})

/** The campaign's call to action: the designer for its ornament, with whatever draft the shopper has there. */
function DesignerCta({ campaign, variant, className }: { campaign: Campaign; variant: 'primary' | 'secondary'; className?: string }) {
  return (
    <ButtonLink
      to="/photo-products/ornaments/$variantId"
      params={{ variantId: String(variantOfShape(campaign.shape).id) }}
      variant={variant}
      className={className}
    >
      {campaign.cta}
    </ButtonLink>
  )
}

function CampaignFullPage(props: LayoutProps) {
  const { campaign } = props
  return (
    <main id="main" {...campaignAttributes(props)}>
      <PageHero
        tone={campaign.tone}
        eyebrow={campaign.eyebrow}
        title={campaign.title}
        lead={campaign.lead}
        actions={<DesignerCta campaign={campaign} variant={campaign.tone === 'cream' ? 'primary' : 'secondary'} />}
        art={<OrnamentArt shape={campaign.shape} className="w-36 drop-shadow-xl sm:w-52" />}
      />
      <div className="mx-auto max-w-6xl px-4 pt-10 sm:px-6">
        <CampaignPhotos shape={campaign.shape} heading={campaign.photosHeading} layout="grid" />
      </div>
      <HowItWorks />
      <ComingSoon size="compact" />
      <Section>
        <p className="text-ink-soft">
          Looking for something else?{' '}
          <Link to="/loop/store" className="font-semibold text-cranberry underline">
            Visit the Keepsake store
          </Link>
          .
        </p>
      </Section>
    </main>
  )
}

const sheetTones = {
  cream: {
    top: 'bg-cream-deep text-ink',
    eyebrow: 'text-pine',
    lead: 'text-ink-soft',
    close: 'text-ink-soft hover:bg-ink/5 hover:text-ink',
    handle: 'bg-ink/20',
  },
  pine: { top: 'bg-pine text-cream', eyebrow: 'text-gold-tint', lead: 'text-cream/90', close: 'text-cream hover:bg-cream/10', handle: 'bg-cream/40' },
  cranberry: {
    top: 'bg-cranberry-dark text-cream',
    eyebrow: 'text-gold-tint',
    lead: 'text-cream/90',
    close: 'text-cream hover:bg-cream/10',
    handle: 'bg-cream/40',
  },
} as const

/**
 * A modal campaign, built to sit in the album app's web view as a sheet: rounded top, grab handle,
 * compact, the primary action in thumb reach. Close follows the app's store-tab deep link, or goes to
 * the store page when no app takes it (a phone's ordinary browser).
 */
function CampaignSheet(props: LayoutProps) {
  const { campaign } = props
  const { deepLinks } = usePublicConfig()
  const navigate = useNavigate()
  const tone = sheetTones[campaign.tone]
  return (
    <main id="main" {...campaignAttributes(props)} className="bg-ink/[0.07] pt-4 sm:px-6 sm:py-10">
      <div className="mx-auto max-w-xl overflow-hidden rounded-t-[1.75rem] bg-cream-card shadow-[0_-8px_30px_-12px_rgb(43_35_32/0.35)] sm:rounded-[1.75rem]">
        <div className={`${tone.top} px-5 pb-6 pt-2 sm:px-8`}>
          <div aria-hidden="true" className={`mx-auto h-1.5 w-10 rounded-full ${tone.handle}`} />
          <div className="mt-2 flex items-center justify-between gap-3">
            <p className={`text-sm font-semibold uppercase tracking-[0.16em] ${tone.eyebrow}`}>{campaign.eyebrow}</p>
            <a
              href={deepLinks.storeTab}
              onClick={(event) => {
                // Outside the app the deep link goes nowhere: the store page is the way back there.
                if (event.metaKey || event.ctrlKey || event.shiftKey || event.button !== 0) return
                event.preventDefault()
                followAppLink(deepLinks.storeTab, () => void navigate({ to: '/loop/store' }))
              }}
              className={`-mr-3 inline-flex min-h-11 items-center gap-1.5 rounded-full px-3 font-semibold ${tone.close}`}
              data-testid="sheet-close"
            >
              <span aria-hidden="true" className="text-lg leading-none">
                ✕
              </span>
              Close
            </a>
          </div>
          <div className="mt-2 flex items-center gap-4">
            <div className="min-w-0 flex-1">
              <h1 className="text-balance text-2xl font-bold leading-tight tracking-tight sm:text-3xl">{campaign.title}</h1>
              <p className={`mt-2 text-pretty ${tone.lead}`}>{campaign.lead}</p>
            </div>
            <OrnamentArt shape={campaign.shape} className="w-20 shrink-0 drop-shadow-lg sm:w-28" />
          </div>
        </div>
        <div className="px-5 pb-[max(1.5rem,env(safe-area-inset-bottom))] pt-6 sm:px-8 sm:pb-8">
          <CampaignPhotos shape={campaign.shape} heading={campaign.photosHeading} layout="strip" />
          <DesignerCta campaign={campaign} variant="primary" className="mt-6 w-full" />
          <ComingSoon size="sheet" />
        </div>
      </div>
    </main>
  )
}
