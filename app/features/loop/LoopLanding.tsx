import { Link } from '@tanstack/react-router'
import { ButtonLink } from '~/components/ui/Button'
import { PageHero, Section } from '~/components/ui/PageHero'
import { OrnamentArt } from '~/components/OrnamentArt'
import { campaigns } from './campaigns'

const featured = [
  { to: '/loop/modal/holidays', id: 'modal-holidays' },
  { to: '/loop/mothers-day', id: 'mothers-day' },
  { to: '/loop/fathers-day', id: 'fathers-day' },
  { to: '/loop/grandparents-day', id: 'grandparents-day' },
] as const

/** /loop: the promotions area — current campaigns and the way into the store. */
export function LoopLanding() {
  return (
    <main id="main">
      <PageHero
        eyebrow="Offers"
        title="Moments worth celebrating"
        lead="Seasonal campaigns, bundles and new keepsakes from your family album. Find an occasion and make something to hold."
        actions={<ButtonLink to="/loop/store">Visit the store</ButtonLink>}
        art={<OrnamentArt shape="star" className="w-40 drop-shadow-xl sm:w-48" />}
      />
      <Section title="Occasions" intro="Each occasion leads straight into the ornament designer with your album photos.">
        <ul className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
          {featured.map(({ to, id }) => {
            const c = campaigns[id]
            return (
              <li key={id}>
                <Link
                  to={to}
                  className="flex h-full flex-col rounded-card bg-cream-card p-5 shadow-card transition-shadow hover:shadow-lg focus-visible:shadow-lg"
                >
                  <OrnamentArt shape={c.shape} className="mx-auto h-24 w-auto" />
                  <span className="mt-4 text-sm font-semibold uppercase tracking-wider text-pine">{c.eyebrow}</span>
                  <span className="mt-1 text-lg font-semibold leading-snug">{c.title}</span>
                </Link>
              </li>
            )
          })}
        </ul>
      </Section>
    </main>
  )
}
