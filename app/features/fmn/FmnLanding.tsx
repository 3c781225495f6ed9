import { ButtonLink } from '~/components/ui/Button'
import { FeatureList, PageHero, Section } from '~/components/ui/PageHero'

export function FmnLanding() {
  return (
    <main id="main">
      <PageHero
        eyebrow="Partner offers"
        title="Good things for growing families"
        lead="Hand-picked offers from brands we trust. Take one up with the partner and collect its reward there."
        actions={<ButtonLink to="/fmn/offer-wall">Browse the offer wall</ButtonLink>}
      />
      <Section title="How partner offers work">
        <FeatureList
          items={[
            { title: 'Pick an offer', body: 'Every offer shows its reward and its terms up front.' },
            { title: 'Complete it with the partner', body: 'We send you straight to the partner’s own site — never anywhere else.' },
            { title: 'Collect your reward', body: 'Each partner gives its reward on its own site, as its terms say.' },
          ]}
        />
      </Section>
    </main>
  )
}
