import type { ReactNode } from 'react'
import type { EgiftPurchase } from '~/contract/egifts'
import { LocalDate, formatCalendarDay } from '~/lib/dates'

type Tone = 'gold' | 'pine' | 'quiet' | 'cranberry'

const tones: Record<Tone, string> = {
  gold: 'bg-gold-tint text-gold-dark',
  pine: 'bg-pine-tint text-pine-dark',
  quiet: 'bg-cream-deep text-ink-soft',
  cranberry: 'bg-cranberry-tint text-cranberry-dark',
}

/** Where a bought gift stands, in the buyer's words. */
export function giftState(gift: EgiftPurchase): { key: string; label: ReactNode; tone: Tone } {
  switch (gift.status) {
    case 'awaiting_payment':
      return { key: 'awaiting-payment', label: 'Awaiting payment', tone: 'gold' }
    case 'cancelled':
      return { key: 'cancelled', label: 'Cancelled', tone: 'quiet' }
    case 'redeemed':
      return {
        key: 'redeemed',
        label: gift.redeemedAt ? (
          <>
            Redeemed <LocalDate iso={gift.redeemedAt} />
          </>
        ) : (
          'Redeemed'
        ),
        tone: 'pine',
      }
    case 'issued':
      if (gift.emailedAt) {
        return {
          key: 'emailed',
          label: (
            <>
              E-mailed <LocalDate iso={gift.emailedAt} />
            </>
          ),
          tone: 'pine',
        }
      }
      if (gift.sendOn) return { key: 'scheduled', label: `Scheduled for ${formatCalendarDay(gift.sendOn)}`, tone: 'gold' }
      return { key: 'sending', label: 'Sending now', tone: 'pine' }
  }
}

export function GiftStatusBadge({ gift }: { gift: EgiftPurchase }) {
  const state = giftState(gift)
  return (
    <span
      className={`inline-flex shrink-0 items-center gap-1.5 rounded-full px-3 py-1 text-sm font-semibold ${tones[state.tone]}`}
      data-testid="egift-status"
      data-status={state.key}
    >
      <span aria-hidden="true" className="size-2 rounded-full bg-current" />
      <span>{state.label}</span>
    </span>
  )
}
