import { Link, createFileRoute } from '@tanstack/react-router'
import { ButtonLink } from '~/components/ui/Button'
import { PageHero, Section } from '~/components/ui/PageHero'
import { HowItWorks } from '~/features/photo-products/HowItWorks'
import { OrnamentArt } from '~/components/OrnamentArt'
import { OrnamentGrid } from '~/features/photo-products/OrnamentGrid'
import { photoProductQuery } from '~/features/photo-products/photo-products.functions'
import { ChristmasDeliveryBanner } from '~/features/cart/ShippingPromise'
import { shippingCalendarQuery } from '~/features/cart/shipping.functions'

export const Route = createFileRoute('/photo-products/')({
  loader: ({ context }) => Promise.all([context.queryClient.ensureQueryData(photoProductQuery()), context.queryClient.prefetchQuery(shippingCalendarQuery())]),
  head: () => ({ meta: [{ title: 'Photo ornaments — Keepsake' }] }),
  component: PhotoProductsPage,
})

function PhotoProductsPage() {
  return (
    <main id="main">
      <PageHero
        eyebrow="Photo ornaments"
        title="Your family, on the tree this year"
        lead="Turn two photos from your album into a matching pair of glossy ornaments shaped like a tree, a star or a stocking — one photo on each, shipped in a gift box."
        actions={
          <>
            <ButtonLink to="/photo-products/photos">Start with your photos</ButtonLink>
            <ButtonLink to="/loop" variant="secondary">
              See this season’s offers
            </ButtonLink>
          </>
        }
        art={
          <div className="flex items-end gap-2">
            <OrnamentArt shape="star" className="w-24 -rotate-6 drop-shadow-lg sm:w-28" />
            <OrnamentArt shape="tree" className="w-32 drop-shadow-lg sm:w-40" />
            <OrnamentArt shape="stocking" className="w-24 rotate-6 drop-shadow-lg sm:w-28" />
          </div>
        }
      />
      <Section title="Choose your ornament" intro="Every ornament takes two photos. Sale prices apply to every order this season.">
        <ChristmasDeliveryBanner className="mb-6" />
        <OrnamentGrid />
      </Section>
      <HowItWorks />
      <p className="mx-auto max-w-6xl px-4 text-sm text-ink-soft sm:px-6">
        By ordering you agree to our{' '}
        <Link to="/photo-products/tou" className="font-semibold text-cranberry underline">
          terms of use
        </Link>
        .
      </p>
    </main>
  )
}
