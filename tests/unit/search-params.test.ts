import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { textOrUndefined, uuidOrUndefined } from '../../app/lib/search-params'
import { readSessionQuery, startSession } from '../../app/lib/session-context'

describe('the one-value query-string checks (the session context)', () => {
  it('accepts exactly the UUIDs zod accepts', () => {
    const zodUuid = z.uuid()
    const cases = [
      '00000000-0000-4000-8000-000000000000',
      '6f1c2a3b-4d5e-4f60-8a7b-9c0d1e2f3a4b',
      '6F1C2A3B-4D5E-4F60-8A7B-9C0D1E2F3A4B',
      '00000000-0000-0000-0000-000000000000',
      '6f1c2a3b-4d5e-9f60-8a7b-9c0d1e2f3a4b',
      '6f1c2a3b-4d5e-4f60-ca7b-9c0d1e2f3a4b',
      '6f1c2a3b4d5e4f608a7b9c0d1e2f3a4b',
      ' 6f1c2a3b-4d5e-4f60-8a7b-9c0d1e2f3a4b',
      '',
      'chosen',
    ]
    for (const value of cases) expect(uuidOrUndefined(value) !== undefined, value).toBe(zodUuid.safeParse(value).success)
    fc.assert(
      fc.property(fc.oneof(fc.uuid(), fc.string(), fc.stringMatching(/^[0-9a-fA-F-]{36}$/)), (value) => {
        expect(uuidOrUndefined(value) !== undefined).toBe(zodUuid.safeParse(value).success)
      }),
    )
  })

  it('drops what is not a string: numbers, lists and objects the router parsed from the URL', () => {
    for (const value of [123, ['a'], { a: 1 }, null, undefined, true]) {
      expect(uuidOrUndefined(value)).toBeUndefined()
      expect(textOrUndefined(value, 10)).toBeUndefined()
    }
  })

  it('keeps text within its length', () => {
    expect(textOrUndefined('cs_test_1', 255)).toBe('cs_test_1')
    expect(textOrUndefined('x'.repeat(256), 255)).toBeUndefined()
    expect(textOrUndefined('', 10, 1)).toBeUndefined()
  })

  it('the session context keeps each valid value and drops each invalid one on its own', () => {
    expect(readSessionQuery('market=us&uuid=6f1c2a3b-4d5e-4f60-8a7b-9c0d1e2f3a4b&data=abc')).toEqual({
      market: 'US',
      uuid: '6f1c2a3b-4d5e-4f60-8a7b-9c0d1e2f3a4b',
      data: 'abc',
    })
    expect(readSessionQuery(`market=usa&uuid=nope&data=${'x'.repeat(2049)}`)).toEqual({})
    expect(readSessionQuery('market=en-gb&data=')).toEqual({ market: 'EN-GB' })
    const stored = JSON.stringify({ sid: 'not-a-uuid', market: 'CA' })
    expect(startSession('', stored, () => '11111111-1111-4111-8111-111111111111')).toEqual({
      market: 'CA',
      uuid: null,
      data: null,
      sid: '11111111-1111-4111-8111-111111111111',
    })
  })
})
