import { describe, expect, it } from 'vitest'
import {
  addBusinessDays,
  arrivesBy,
  christmasDelivery,
  isBusinessDay,
  isoDay,
  localDay,
  parseIsoDay,
  shippingMethods,
  usHolidays,
} from '../../app/catalogue/shipping'

const d = parseIsoDay

describe('US business days', () => {
  it('knows the observed federal holidays, moved off weekends', () => {
    expect([...usHolidays(2026)].sort()).toEqual([
      '2026-01-01',
      '2026-01-19', // MLK Day, third Monday
      '2026-02-16',
      '2026-05-25', // Memorial Day, last Monday
      '2026-06-19',
      '2026-07-03', // July 4 is a Saturday: observed Friday
      '2026-09-07',
      '2026-10-12',
      '2026-11-11',
      '2026-11-26', // Thanksgiving, fourth Thursday
      '2026-12-25',
    ])
    // 2027: Christmas and July 4 on weekends; New Year 2028 is a Saturday, observed Dec 31, 2027.
    expect(usHolidays(2027).has('2027-12-24')).toBe(true)
    expect(usHolidays(2027).has('2027-07-05')).toBe(true)
    expect(usHolidays(2027).has('2027-12-31')).toBe(true)
  })

  it('skips weekends and holidays', () => {
    expect(isBusinessDay(d('2026-11-26'))).toBe(false) // Thanksgiving
    expect(isBusinessDay(d('2026-11-27'))).toBe(true) // the Friday after
    expect(isBusinessDay(d('2026-11-28'))).toBe(false) // Saturday
    expect(addBusinessDays(d('2026-11-25'), 1)).toEqual(d('2026-11-27'))
    expect(addBusinessDays(d('2026-11-27'), 1)).toEqual(d('2026-11-30'))
  })

  it('rolls over the year end: Dec 31 → Jan 2 (New Year’s Day skipped)', () => {
    expect(addBusinessDays(d('2025-12-31'), 1)).toEqual(d('2026-01-02'))
    // Dec 31, 2026 is a Thursday; Jan 1 a Friday holiday; the next business day is Monday Jan 4.
    expect(addBusinessDays(d('2026-12-31'), 1)).toEqual(d('2027-01-04'))
  })
})

describe('arrives by', () => {
  it('counts production and transit business days after the day of the order', () => {
    expect(shippingMethods.standard.productionDays + shippingMethods.standard.transitDays).toBe(8)
    expect(shippingMethods.express.productionDays + shippingMethods.express.transitDays).toBe(4)
    // A Monday order: standard arrives the Wednesday of the next week but one, express on Friday.
    expect(arrivesBy('standard', new Date('2026-12-07T15:00:00Z'), 'America/New_York')).toBe('2026-12-17')
    expect(arrivesBy('express', new Date('2026-12-07T15:00:00Z'), 'America/New_York')).toBe('2026-12-11')
  })

  it('in Thanksgiving week the holiday adds a day', () => {
    // Tuesday Nov 24, 2026: Wed, (Thanksgiving), Fri, Mon, Tue, Wed, Thu, Fri, Mon.
    expect(arrivesBy('standard', new Date('2026-11-24T17:00:00Z'), 'America/Chicago')).toBe('2026-12-07')
    expect(arrivesBy('express', new Date('2026-11-24T17:00:00Z'), 'America/Chicago')).toBe('2026-12-01')
  })

  it('across the year end', () => {
    // Wednesday Dec 30, 2026 by express: Thu Dec 31, (Jan 1), Mon Jan 4, Tue, Wed.
    expect(arrivesBy('express', new Date('2026-12-30T18:00:00Z'), 'America/New_York')).toBe('2027-01-06')
  })

  it('takes the day of the order from the shopper’s time zone: Hawaii is still on the day before', () => {
    const instant = new Date('2026-12-15T08:00:00Z') // Tue 03:00 in New York, Mon 22:00 in Honolulu
    expect(isoDay(localDay(instant, 'America/New_York'))).toBe('2026-12-15')
    expect(isoDay(localDay(instant, 'Pacific/Honolulu'))).toBe('2026-12-14')
    expect(arrivesBy('express', instant, 'America/New_York')).toBe('2026-12-21')
    expect(arrivesBy('express', instant, 'Pacific/Honolulu')).toBe('2026-12-18')
  })

  it('reads an unknown time zone as UTC', () => {
    expect(isoDay(localDay(new Date('2026-12-15T23:30:00Z'), 'Mars/Olympus'))).toBe('2026-12-15')
  })
})

describe('Christmas delivery', () => {
  it('is not announced before November or after Christmas Eve', () => {
    expect(christmasDelivery(new Date('2026-10-31T12:00:00Z'), 'UTC')).toBeNull()
    expect(christmasDelivery(new Date('2026-12-25T12:00:00Z'), 'UTC')).toBeNull()
    expect(christmasDelivery(new Date('2026-11-01T12:00:00Z'), 'UTC')).not.toBeNull()
  })

  it('names the last day to order by each method, and says when it has passed', () => {
    const early = christmasDelivery(new Date('2026-11-26T12:00:00Z'), 'America/New_York')!
    expect(early.year).toBe(2026)
    // Standard: the 8th business day after Mon Dec 14 is Thu Dec 24. Express: 4 business days after Sunday Dec 20
    // (Mon–Thu) is Dec 24 too, so a weekend order still makes it.
    expect(early.deadlines).toEqual([
      { method: 'standard', lastOrderDay: '2026-12-14', inTime: true },
      { method: 'express', lastOrderDay: '2026-12-20', inTime: true },
    ])
    for (const { method, lastOrderDay } of early.deadlines) {
      expect(arrivesBy(method, new Date(`${lastOrderDay}T20:00:00Z`), 'UTC') <= '2026-12-24').toBe(true)
      const dayAfter = isoDay(new Date(parseIsoDay(lastOrderDay).getTime() + 86_400_000))
      expect(arrivesBy(method, new Date(`${dayAfter}T20:00:00Z`), 'UTC') > '2026-12-24').toBe(true)
    }
    const between = christmasDelivery(new Date('2026-12-16T12:00:00Z'), 'America/New_York')!
    expect(between.deadlines.map((x) => x.inTime)).toEqual([false, true])
    const late = christmasDelivery(new Date('2026-12-21T12:00:00Z'), 'America/New_York')!
    expect(late.deadlines.map((x) => x.inTime)).toEqual([false, false])
  })

  it('counts the last day in the shopper’s time zone', () => {
    // 06:00 UTC on Dec 21 is still Dec 20 in Honolulu: express is still in time there, not in New York.
    const instant = new Date('2026-12-21T06:00:00Z')
    expect(christmasDelivery(instant, 'Pacific/Honolulu')!.deadlines[1]).toMatchObject({ inTime: true })
    expect(christmasDelivery(instant, 'America/New_York')!.deadlines[1]).toMatchObject({ inTime: false })
  })
})
