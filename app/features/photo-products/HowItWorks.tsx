import { FeatureList, Section } from '~/components/ui/PageHero'

export function HowItWorks() {
  return (
    <Section id="how-it-works" title="How it works">
      <FeatureList
        items={[
          { title: '1. Pick a shape', body: 'A tree, a star or a stocking — a matching pair, one photo on each.' },
          { title: '2. Place your photos', body: 'Choose from your family album, drag and zoom until everyone is in the frame.' },
          { title: '3. We print and ship', body: 'What you see in the preview is exactly what we print, gift-boxed to your door.' },
        ]}
      />
    </Section>
  )
}
