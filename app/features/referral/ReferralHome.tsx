import { Link } from '@tanstack/react-router'
import { FeatureList, PageHero, Section } from '~/components/ui/PageHero'
import { usePublicConfig } from '~/lib/public-config'
import { onDarkButton } from './on-dark'
import { ReferralArt } from './ReferralArt'
import { useLogOnce } from './user-actions'

const onPine = onDarkButton.solid('text-pine-dark')
const outlineOnPine = onDarkButton.outline

/** /referral, signed out: how the double-sided programme works, and the way in. */
export function ReferralHome() {
  const { demoMode } = usePublicConfig()
  useLogOnce('general', 'viewed_referral_home')
  return (
    <main id="main">
      <PageHero
        tone="pine"
        eyebrow="Refer a friend"
        title="Share Keepsake, and you both get a gift"
        lead="Invite another family to turn their photos into keepsakes. They get credit on their first order, and you earn credit when it’s paid."
        actions={
          <>
            <Link to={demoMode ? '/utils/demo-sign-in' : '/auth/sign-in'} search={{ redirect: '/referral' }} className={onPine}>
              Sign in to get your link
            </Link>
            <Link to="/referral/redeem" className={outlineOnPine}>
              I have an invite
            </Link>
          </>
        }
        art={<ReferralArt className="w-52 sm:w-64" on="pine" />}
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
