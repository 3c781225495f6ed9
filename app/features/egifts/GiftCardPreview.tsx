import { EGIFT_CARD_ART } from './gift-card'

/**
 * The gift as its recipient will see it: the card with the amount, and a note with the message.
 * Empty fields show a faint placeholder, so the card never looks broken while the form is filled in.
 */
export function GiftCardPreview({
  amount,
  recipientName,
  senderName,
  message,
  caption,
  testId = 'egift-preview',
}: {
  /** Already formatted ("$50"); null while no amount is chosen. */
  amount: string | null
  recipientName: string
  senderName: string
  message: string
  caption?: string
  testId?: string
}) {
  const to = recipientName.trim()
  const from = senderName.trim()
  const note = message.trim()
  return (
    <figure className="mx-auto w-full max-w-md" data-testid={testId}>
      <div className="@container relative aspect-[8/5] overflow-hidden rounded-[1.4rem] shadow-card">
        <img src={EGIFT_CARD_ART} alt="" width={800} height={500} className="absolute inset-0 size-full" />
        <div className="absolute bottom-[13%] left-[6%] text-cream">
          <p className="font-semibold text-cream/90" style={{ fontSize: 'max(0.8rem, 4cqw)' }}>
            {to ? `For ${to}` : 'For someone special'}
          </p>
          <p className="font-bold leading-none tracking-tight tabular-nums" style={{ fontSize: '15cqw' }} data-testid={`${testId}-amount`}>
            {amount ?? '$—'}
          </p>
        </div>
      </div>
      <div className="relative mx-4 -mt-5 rounded-2xl border border-ink/5 bg-cream-card px-5 py-4 shadow-card sm:mx-6">
        <p className="font-semibold">{to ? `Dear ${to},` : <span className="italic text-ink-soft">Dear …,</span>}</p>
        <p className="mt-1 whitespace-pre-line break-words text-ink-soft" data-testid={`${testId}-message`}>
          {note ? `“${note}”` : <span className="italic text-ink-soft">Your message will appear here.</span>}
        </p>
        <p className="mt-2 text-right font-semibold">{from ? `— ${from}` : <span className="italic text-ink-soft">— you</span>}</p>
      </div>
      {caption ? <figcaption className="mt-3 text-center text-sm text-ink-soft">{caption}</figcaption> : null}
    </figure>
  )
}
