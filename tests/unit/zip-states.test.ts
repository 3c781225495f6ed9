import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { usStates } from '../../app/catalogue/us-states'
import { stateNames, statesOfZip, zipInState } from '../../app/catalogue/zip-states'
import { addressBookEntryRequestSchema } from '../../app/contract/addresses'
import { localPaymentRequestSchema, shippingAddressSchema } from '../../app/contract/cart'
import { deliveryRequestSchema } from '../../app/contract/smokescreens'

/** A real address's ZIP code in each state and DC (a capital or largest city). */
const known: Record<string, string> = {
  AL: '36104',
  AK: '99501',
  AZ: '85001',
  AR: '72201',
  CA: '90210',
  CO: '80202',
  CT: '06103',
  DE: '19901',
  DC: '20500',
  FL: '32301',
  GA: '30303',
  HI: '96813',
  ID: '83702',
  IL: '60601',
  IN: '46204',
  IA: '50309',
  KS: '66603',
  KY: '40601',
  LA: '70802',
  ME: '04330',
  MD: '21401',
  MA: '02108',
  MI: '48933',
  MN: '55102',
  MS: '39201',
  MO: '65101',
  MT: '59601',
  NE: '68502',
  NV: '89101',
  NH: '03301',
  NJ: '08608',
  NM: '87501',
  NY: '10001',
  NC: '27601',
  ND: '58501',
  OH: '43215',
  OK: '73102',
  OR: '97301',
  PA: '17101',
  RI: '02903',
  SC: '29201',
  SD: '57501',
  TN: '37219',
  TX: '78701',
  UT: '84111',
  VT: '05602',
  VA: '23219',
  WA: '98501',
  WV: '25301',
  WI: '53703',
  WY: '82001',
}

const anAddress = { label: 'Home', name: 'Ava', line1: '1 Main St', city: 'Town' }
const prefixOf = (n: number) => String(n).padStart(3, '0')

describe('a ZIP code belongs to its state (issue 33)', () => {
  it('knows a real ZIP code of every state and DC, and of no other', () => {
    expect(Object.keys(known).sort()).toEqual(usStates.map(([code]) => code).sort())
    for (const [state, zip] of Object.entries(known)) {
      expect(statesOfZip(zip)).toEqual([state])
      expect(zipInState(`${zip}-0001`, state.toLowerCase())).toBe(true)
    }
  })

  it('keeps the prefixes that sit in another state’s range with their own state', () => {
    expect(statesOfZip('05501')).toEqual(['MA'])
    expect(statesOfZip('73301')).toEqual(['TX'])
    expect(statesOfZip('88510')).toEqual(['TX'])
    expect(statesOfZip('20101')).toEqual(['VA'])
    expect(statesOfZip('56901')).toEqual(['DC'])
    // Fishers Island, New York, shares Connecticut's 063.
    expect(statesOfZip('06390')).toEqual(['CT', 'NY'])
  })

  it('belongs to no state for Puerto Rico, military post offices, unused prefixes and malformed codes', () => {
    for (const zip of ['00901', '09001', '34001', '96201', '00000', '99', 'abcde', '123456', '12345-12']) expect(statesOfZip(zip)).toEqual([])
  })

  it('every prefix of 000–999 belongs to at most one state, but for 063', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 999 }), fc.integer({ min: 0, max: 99 }), (prefix, rest) => {
        const states = statesOfZip(`${prefixOf(prefix)}${String(rest).padStart(2, '0')}`)
        expect(states.length).toBeLessThanOrEqual(prefix === 63 ? 2 : 1)
      }),
    )
  })

  it('the address book takes a generated address exactly when its ZIP code belongs to its state', () => {
    fc.assert(
      fc.property(fc.constantFrom(...usStates.map(([code]) => code)), fc.integer({ min: 0, max: 99_999 }), (state, n) => {
        const postalCode = String(n).padStart(5, '0')
        const parsed = addressBookEntryRequestSchema.safeParse({ ...anAddress, state, postalCode })
        expect(parsed.success).toBe(zipInState(postalCode, state))
        if (!parsed.success) expect(parsed.error.issues.map((i) => i.path.join('.'))).toEqual(['postalCode'])
      }),
      { numRuns: 2000 },
    )
  })

  // Issue 42, item 3: one address rule for every address the store takes, not a looser one at the checkout.
  it('the checkout, the smokescreen delivery and the address book take a generated address alike: a state we ship to, its ZIP code in it', () => {
    const letter = fc.constantFrom(...'ABCDEFGHIJKLMNOPQRSTUVWXYZ')
    const state = fc.oneof(
      fc.constantFrom(...usStates.map(([code]) => code)),
      fc.tuple(letter, letter).map(([a, b]) => a + b),
    )
    const checkoutAddress = { name: 'Ava Stone', email: 'ava@example.com', line1: '1 Main St', city: 'Town', country: 'US' }
    fc.assert(
      fc.property(state, fc.integer({ min: 0, max: 99_999 }), fc.boolean(), (state, n, lower) => {
        const postalCode = String(n).padStart(5, '0')
        const sent = lower ? state.toLowerCase() : state
        const expected = addressBookEntryRequestSchema.safeParse({ ...anAddress, state: sent, postalCode }).success
        expect(expected).toBe(stateNames.has(state) && zipInState(postalCode, state))
        for (const parsed of [
          shippingAddressSchema.safeParse({ ...checkoutAddress, state: sent, postalCode }),
          localPaymentRequestSchema.safeParse({ cardNumber: '4242424242424242', shippingAddress: { ...checkoutAddress, state: sent, postalCode } }),
          deliveryRequestSchema.safeParse({ ...checkoutAddress, state: sent, postalCode, product: 'photo-mug' }),
        ]) {
          expect(parsed.success, JSON.stringify(parsed.error?.issues)).toBe(expected)
          if (!parsed.success) expect(parsed.error.issues).toHaveLength(1)
        }
      }),
      { numRuns: 2000 },
    )
  })

  it('says which state was not one and which ZIP code is not in the state, the same words everywhere', () => {
    const checkoutAddress = { name: 'Ava Stone', email: 'ava@example.com', line1: '1 Main St', city: 'Town', country: 'US' }
    const messages = (state: string, postalCode: string) =>
      [
        addressBookEntryRequestSchema.safeParse({ ...anAddress, state, postalCode }),
        shippingAddressSchema.safeParse({ ...checkoutAddress, state, postalCode }),
      ].map((parsed) => parsed.error?.issues.map((i) => [i.path.join('.'), i.message]))
    expect(messages('ZZ', '10002')).toEqual([[['state', 'Choose a state']], [['state', 'Choose a state']]])
    expect(messages('NY', '90210')).toEqual([[['postalCode', 'ZIP code 90210 is not in New York']], [['postalCode', 'ZIP code 90210 is not in New York']]])
  })
})
