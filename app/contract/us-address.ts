/**
 * The one address rule (issue 33, item 1; issue 42, item 3): every address the store takes (the checkout's shipping
 * address, an address book entry, a smokescreen delivery) is a US street address in a state we ship to (the 50 and DC,
 * decision 051) whose ZIP code belongs to that state. Each of them is `usAddress` with its own other fields, so the
 * rule and its messages cannot drift apart again.
 */
import { FIELD_LIMITS } from '../catalogue/field-limits'
import { stateNames, zipInState } from '../catalogue/zip-states'
import { optionalText, requiredText, usState, zipCode } from './field-messages'
import { z } from './zod'

/** The street, city, state and ZIP code of a US address, before the ZIP code is held to the state. */
export const usStreetAddressFields = {
  line1: requiredText('the street address', FIELD_LIMITS.addressLine),
  line2: optionalText('address line 2', FIELD_LIMITS.addressLine),
  city: requiredText('the city', FIELD_LIMITS.city),
  // A code usState already refused is said once.
  state: usState().refine((code) => !/^[A-Z]{2}$/.test(code) || stateNames.has(code), { error: 'Choose a state' }),
  postalCode: zipCode(),
}

/** The ZIP code belongs to the state (said once, on postalCode; a state that is not one is said on state already). */
export function zipCodeInState(address: { state: string; postalCode: string }, context: z.RefinementCtx) {
  // A ZIP code that is not one is said once, by zipCode(), never as being in another state.
  if (!/^\d{5}(-\d{4})?$/.test(address.postalCode)) return
  if (!stateNames.has(address.state) || zipInState(address.postalCode, address.state)) return
  context.addIssue({ code: 'custom', path: ['postalCode'], message: `ZIP code ${address.postalCode} is not in ${stateNames.get(address.state)}` })
}

/** An address the store takes: `fields` (who, how to reach them, the country) plus the street address, held to the rule. */
export const usAddress = <Fields extends z.ZodRawShape>(fields: Fields) =>
  z
    .object({ ...fields, ...usStreetAddressFields })
    // The street fields are spread last, so state and postalCode are theirs whatever `fields` holds.
    .superRefine((address, context) => zipCodeInState(address as { state: string; postalCode: string }, context))

/**
 * An address as the store keeps and answers it: the shape only (an order paid before the rule keeps the state it was
 * paid with). The address book's entries and the orders' shipping addresses are this.
 */
export const storedUsAddressSchema = z.object({
  name: z.string(),
  /** Empty when none was given. */
  email: z.string(),
  phone: z.string(),
  line1: z.string(),
  line2: z.string(),
  city: z.string(),
  state: z.string(),
  postalCode: z.string(),
  country: z.literal('US'),
})
