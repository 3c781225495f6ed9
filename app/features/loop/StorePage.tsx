import { buttonClass } from '~/components/ui/Button'
import { PageHero, Section } from '~/components/ui/PageHero'
import { BundleShelf } from '~/features/bundles/BundleShelf'
import { OrnamentArt } from '~/components/OrnamentArt'
import { OrnamentGrid } from '~/features/photo-products/OrnamentGrid'
import { ComingSoon } from '~/features/smokescreens/ComingSoon'
import { CampaignPhotos } from './CampaignPhotos'
import { campaigns } from './campaigns'

/**
 * /loop/store/: the Keepsake store, as sections in the order a shopper reads them — their photos,
 * what is sold today, bundles, and what is coming.
 */
export function StorePage() {
  const store = campaigns.store
  return (
    <main id="main" data-campaign="store">
      <PageHero
        eyebrow={store.eyebrow}
        title={store.title}
        lead={store.lead}
        actions={
          <a href="#ornaments" className={buttonClass('primary')}>
            {store.cta}
          </a>
        }
        art={
          <div aria-hidden="true" className="flex items-end gap-2">
            <OrnamentArt shape="tree" className="w-24 -rotate-6 drop-shadow-lg sm:w-32" />
            <OrnamentArt shape="star" className="w-28 drop-shadow-lg sm:w-36" />
            <OrnamentArt shape="stocking" className="w-20 rotate-6 drop-shadow-lg sm:w-28" />
          </div>
        }
      />
      <div className="mx-auto max-w-6xl px-4 pt-10 sm:px-6">
        <CampaignPhotos shape={store.shape} heading={store.photosHeading} layout="grid" />
      </div>
      <Section id="ornaments" title="Photo ornaments" intro="A matching pair in each box: one of your photos on each ornament, a festive design on the backs.">
        <OrnamentGrid />
      </Section>
      <BundleShelf />
      <ComingSoon size="full" />
    </main>
  )
}
