/**
 * How a parcel's gift message reaches its recipient (issue 42, item 2; decision 070). The local print shop prints it
 * on the parcel's packing slip. Printify prints no packing slip of ours: the message reaches the recipient only in
 * the gift-note e-mail sent when the parcel ships, so with Printify a message needs the recipient's e-mail.
 */
export const giftMessageRoutes = ['packing_slip', 'recipient_email'] as const
export type GiftMessageVia = (typeof giftMessageRoutes)[number]

/** How the print provider in use delivers a gift message. */
export const giftMessageVia = (provider: 'local' | 'printify'): GiftMessageVia => (provider === 'printify' ? 'recipient_email' : 'packing_slip')

/** The refusal of a gift message nobody would read: with Printify, a message without the recipient's e-mail. */
export const GIFT_MESSAGE_NEEDS_EMAIL = 'Add their e-mail: the gift message is sent to them by e-mail when the parcel ships, and is not printed in the box'

/** Whether a parcel's message would reach nobody: a message, sent only by e-mail, with no e-mail to send it to. */
export const giftMessageUnread = (via: GiftMessageVia, parcel: { giftMessage: string | null; recipientEmail: string | null }) =>
  via === 'recipient_email' && Boolean(parcel.giftMessage?.trim()) && !parcel.recipientEmail?.trim()
