/**
 * How long each free-text field a shopper fills in may be, without zod, so the forms can set
 * `maxLength` from the same numbers the contract refuses beyond (issue 15, bug 8: a field that
 * accepts 2,000 characters and then says "at most 100" is a trap).
 */
export const FIELD_LIMITS = {
  personName: 100,
  email: 254,
  phone: 32,
  addressLine: 200,
  city: 100,
  note: 500,
  /** An address book entry's own name ("Grandma Rose"). */
  addressLabel: 40,
  /** A parcel's gift message, printed on its packing slip. */
  giftMessage: 300,
} as const

/** A gift message fits the packing slip's message box in at most this many lines. */
export const GIFT_MESSAGE_MAX_LINES = 8

/** How many addresses one shopper may keep in their address book (issue 33). */
export const MAX_SAVED_ADDRESSES = 25
