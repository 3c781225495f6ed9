import { createFileRoute } from '@tanstack/react-router'
import { buyNowSearch } from '~/lib/search-params'
import { PageHero, Section } from '~/components/ui/PageHero'
import { buyNowHeaders } from '~/features/photo-products/buy-now-headers'
import { HowItWorks } from '~/features/photo-products/HowItWorks'
import { OrnamentArt } from '~/components/OrnamentArt'
import { OrnamentGrid } from '~/features/photo-products/OrnamentGrid'
import { photoProductQuery } from '~/features/photo-products/photo-products.functions'

export const Route = createFileRoute('/photo-products/buy-now')({
  // An unknown headerType falls back to the default header rather than failing the page.
  validateSearch: buyNowSearch,
  loader: ({ context }) => context.queryClient.ensureQueryData(photoProductQuery()),
  head: () => ({ meta: [{ title: 'Buy a photo ornament — Keepsake' }] }),
  component: BuyNowPage,
})

function BuyNowPage() {
  const { headerType } = Route.useSearch()
  const header = buyNowHeaders[headerType ?? 'default']
  return (
    <main id="main">
      <div data-testid="buy-now-header" data-header-type={headerType ?? 'default'}>
        <PageHero
          tone="pine"
          eyebrow={header.eyebrow}
          title={header.title}
          lead={header.lead}
          art={<OrnamentArt shape="star" className="w-36 drop-shadow-xl sm:w-44" />}
        />
      </div>
      <Section title="Pick your ornament">
        <OrnamentGrid />
      </Section>
      <HowItWorks />
    </main>
  )
}
