import { ButtonLink } from '~/components/ui/Button'
import { EmptyState, Section } from '~/components/ui/PageHero'

/** /fmn/offer-wall: partner offers; until partners are signed up the wall says so plainly. */
export function OfferWall() {
  return (
    <main id="main">
      <Section>
        <h1 className="text-4xl font-bold tracking-tight">Offer wall</h1>
        <p className="mb-6 mt-2 text-lg text-ink-soft">Rewards from Keepsake’s partners, credited to your account.</p>
        <EmptyState
          title="No partner offers right now"
          body="New offers arrive with each season. In the meantime, this season’s ornament sale is on."
          action={<ButtonLink to="/photo-products">Shop ornaments</ButtonLink>}
        />
      </Section>
    </main>
  )
}
