/**
 * Which state a ZIP code belongs to, by its first three digits (the USPS sectional centre), for the
 * address book (issue 33): a saved address whose ZIP code is in another state is refused. Three-digit
 * prefixes are assigned to one state each, with a handful of exceptions recorded below; a prefix that is
 * not assigned to any of the 50 states or DC (Puerto Rico, military post offices, unused numbers) belongs
 * to none, and the contract ships to the states and DC only (decision 051).
 */
import { usStates } from './us-states'

export type StateCode = (typeof usStates)[number][0]

/** Inclusive ranges of three-digit ZIP prefixes per state. */
const PREFIXES: Record<StateCode, readonly (readonly [number, number])[]> = {
  AL: [[350, 369]],
  AK: [[995, 999]],
  AZ: [[850, 865]],
  AR: [[716, 729]],
  CA: [[900, 961]],
  CO: [[800, 816]],
  CT: [[60, 69]],
  DE: [[197, 199]],
  // 569 is the District's own unique-ZIP prefix (federal agencies).
  DC: [
    [200, 200],
    [202, 205],
    [569, 569],
  ],
  FL: [
    [320, 339],
    [341, 349],
  ],
  GA: [
    [300, 319],
    [398, 399],
  ],
  HI: [[967, 968]],
  ID: [[832, 838]],
  IL: [[600, 629]],
  IN: [[460, 479]],
  IA: [[500, 528]],
  KS: [[660, 679]],
  KY: [[400, 427]],
  LA: [[700, 714]],
  ME: [[39, 49]],
  MD: [[206, 219]],
  // 055 is Massachusetts' (Andover's unique ZIPs), inside Vermont's range.
  MA: [
    [10, 27],
    [55, 55],
  ],
  MI: [[480, 499]],
  MN: [[550, 567]],
  MS: [[386, 397]],
  MO: [[630, 658]],
  MT: [[590, 599]],
  NE: [[680, 693]],
  NV: [[889, 898]],
  NH: [[30, 38]],
  NJ: [[70, 89]],
  NM: [[870, 884]],
  // 005 is Holtsville's (the IRS); 063 holds Fishers Island, New York, which is reached through Connecticut.
  NY: [
    [5, 5],
    [63, 63],
    [100, 149],
  ],
  NC: [[270, 289]],
  ND: [[580, 588]],
  OH: [[430, 459]],
  OK: [
    [730, 732],
    [734, 749],
  ],
  OR: [[970, 979]],
  PA: [[150, 196]],
  RI: [[28, 29]],
  SC: [[290, 299]],
  SD: [[570, 577]],
  TN: [[370, 385]],
  // 733 (Austin's unique ZIPs) and 885 (El Paso) sit in other states' ranges.
  TX: [
    [733, 733],
    [750, 799],
    [885, 885],
  ],
  UT: [[840, 847]],
  VT: [
    [50, 54],
    [56, 59],
  ],
  // 201 is Northern Virginia's (Dulles), between the District's prefixes.
  VA: [
    [201, 201],
    [220, 246],
  ],
  WA: [[980, 994]],
  WV: [[247, 268]],
  WI: [[530, 549]],
  WY: [[820, 831]],
}

/** Each prefix's states: one, but for 063 (Connecticut, and Fishers Island, New York). */
const statesByPrefix = new Map<number, StateCode[]>()
for (const [state, ranges] of Object.entries(PREFIXES) as [StateCode, (typeof PREFIXES)[StateCode]][]) {
  for (const [from, to] of ranges) for (let prefix = from; prefix <= to; prefix++) statesByPrefix.set(prefix, [...(statesByPrefix.get(prefix) ?? []), state])
}

/** The states a five-digit (or ZIP+4) code can belong to: none when it is malformed or its prefix is no state's. */
export function statesOfZip(zip: string): readonly StateCode[] {
  const match = /^(\d{3})\d{2}(-\d{4})?$/.exec(zip.trim())
  return match ? (statesByPrefix.get(Number(match[1])) ?? []) : []
}

/** Whether the ZIP code belongs to the state (given by its two-letter code). */
export const zipInState = (zip: string, state: string) => statesOfZip(zip).includes(state.trim().toUpperCase() as StateCode)

export const stateNames: ReadonlyMap<string, string> = new Map(usStates)

/** Whether `code` is one of the states (or DC) we ship to. */
