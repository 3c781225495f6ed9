import type { EgiftPurchase } from '~/contract/egifts'
import { EGIFT_CARD_ART } from './gift-card'
import { LocalDate } from '~/lib/dates'
import { formatAmount } from '~/catalogue/currency'
import { GiftStatusBadge } from './GiftStatus'

/** "Gifts you've sent": each gift with where it stands, and a way back to paying for one that waits. */
export function SentGifts({ purchases }: { purchases: EgiftPurchase[] }) {
  return (
    <ul className="grid gap-3 md:grid-cols-2" aria-label="Gifts you’ve sent" data-testid="sent-gifts" data-lazy-part="sent-gifts">
      {purchases.map((gift) => (
        <li key={gift.id} className="flex gap-4 rounded-card bg-cream-card p-4 shadow-card" data-testid="sent-gift">
          <img src={EGIFT_CARD_ART} alt="" width={96} height={60} className="mt-1 h-[3.75rem] w-24 shrink-0 rounded-lg object-cover" loading="lazy" />
          <div className="min-w-0 flex-1">
            <div className="flex flex-wrap items-start justify-between gap-x-3 gap-y-2">
              <h3 className="text-lg font-semibold leading-snug">
                {formatAmount(gift.amountCents)} to {gift.recipientName}
              </h3>
              <GiftStatusBadge gift={gift} />
            </div>
            <p className="mt-1 text-sm text-ink-soft">
              <span className="[overflow-wrap:anywhere]">{gift.recipientEmail}</span> · bought <LocalDate iso={gift.createdAt} />
            </p>
            {gift.message ? <p className="mt-1 line-clamp-2 break-words text-sm italic text-ink-soft">“{gift.message}”</p> : null}
            {gift.status === 'awaiting_payment' && gift.checkoutUrl ? (
              <a
                href={gift.checkoutUrl}
                className="mt-1 inline-flex min-h-11 items-center font-semibold text-cranberry-dark underline-offset-4 hover:underline"
                aria-label={`Finish paying for the ${formatAmount(gift.amountCents)} gift to ${gift.recipientName}`}
              >
                Finish paying →
              </a>
            ) : null}
          </div>
        </li>
      ))}
    </ul>
  )
}
