import { ButtonLink } from '~/components/ui/Button'
import { FeatureList, PageHero, Section } from '~/components/ui/PageHero'
import { formatWholeDollars } from '~/lib/currency'

const amounts = [25, 50, 75, 100]

/** /egifts: Keepsake e-gifts for family members far away. */
export function EgiftsLanding() {
  return (
    <main id="main">
      <PageHero
        tone="cranberry"
        eyebrow="E-gifts"
        title="Give the gift of their own photos"
        lead="Send a Keepsake e-gift by e-mail and let them turn their favourite family moments into something to hold."
        actions={
          <ButtonLink to="/photo-products" variant="secondary">
            See what they can make
          </ButtonLink>
        }
        art={
          <ul className="grid grid-cols-2 gap-3" aria-label="E-gift amounts">
            {amounts.map((a) => (
              <li key={a} className="flex h-20 w-32 items-center justify-center rounded-2xl bg-cream text-2xl font-bold text-cranberry-dark shadow-card">
                {formatWholeDollars(a)}
              </li>
            ))}
          </ul>
        }
      />
      <Section title="How e-gifts work">
        <FeatureList
          items={[
            { title: 'Choose an amount', body: 'Pick a preset or your own amount and add a personal message.' },
            { title: 'We e-mail it', body: 'Your recipient gets a gift code on the day you choose.' },
            { title: 'They make a keepsake', body: 'The code becomes Keepsake credit for any photo product.' },
          ]}
        />
      </Section>
    </main>
  )
}
