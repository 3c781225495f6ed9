import { ButtonLink } from '~/components/ui/Button'
import { FeatureList, PageHero, Section } from '~/components/ui/PageHero'
import { ReferralArt } from './ReferralArt'

/** /referral: how the double-sided programme works. */
export function ReferralHome() {
  return (
    <main id="main">
      <PageHero
        tone="pine"
        eyebrow="Refer a friend"
        title="Share Keepsake, and you both get a gift"
        lead="Invite another family to turn their photos into keepsakes. They get credit on their first order, and you earn credit when it ships."
        actions={
          <ButtonLink to="/referral/redeem" variant="secondary">
            I have an invite
          </ButtonLink>
        }
        art={<ReferralArt className="w-52 sm:w-64" />}
      />
      <Section title="How referrals work">
        <FeatureList
          items={[
            { title: 'Share your link', body: 'Every Keepsake family has a personal invite link to send by message or e-mail.' },
            { title: 'Your friend saves', body: 'They sign in through your link and get credit on their first photo product.' },
            { title: 'You earn credit', body: 'When their first order is paid, credit lands in your Keepsake balance.' },
          ]}
        />
      </Section>
    </main>
  )
}
