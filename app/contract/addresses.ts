/**
 * The address book (issue 33, item 1): addresses a shopper saves on their account, their own and their
 * family's, each with a name of its own ("Grandma Rose"). Held to the one address rule (us-address.ts: a state we
 * ship to, its ZIP code in it) as the checkout's shipping address is, with the same messages. The e-mail is
 * optional here (a grandmother's address needs none). An address belongs to the shopper who saved it: no one
 * else, not even their family, can read or change it.
 */
import { FIELD_LIMITS } from '../catalogue/field-limits'
import { optionalEmailAddress, phoneNumber, requiredText } from './field-messages'
import { storedUsAddressSchema, usAddress } from './us-address'
import { z } from './zod'

export { MAX_SAVED_ADDRESSES } from '../catalogue/field-limits'
const ADDRESS_LABEL_MAX = FIELD_LIMITS.addressLabel

export const addressBookEntryRequestSchema = usAddress({
  label: requiredText('a name for this address, like “Grandma Rose”', ADDRESS_LABEL_MAX),
  name: requiredText('the recipient’s name', FIELD_LIMITS.personName),
  email: optionalEmailAddress(),
  phone: phoneNumber(),
  country: z.literal('US', { error: 'We ship to the United States only' }).default('US'),
})
export type AddressBookEntryRequest = z.input<typeof addressBookEntryRequestSchema>

export const addressBookEntrySchema = storedUsAddressSchema.extend({
  id: z.uuid(),
  label: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
})
export type AddressBookEntry = z.infer<typeof addressBookEntrySchema>

export const addressBookSchema = z.object({
  /** By name (A to Z), then oldest first. */
  addresses: z.array(addressBookEntrySchema),
  /** How many the shopper may keep (MAX_SAVED_ADDRESSES). */
  limit: z.number().int(),
})
export type AddressBook = z.infer<typeof addressBookSchema>

export const addressParamsSchema = z.object({ id: z.uuid({ error: 'Address id must be a UUID' }) })
