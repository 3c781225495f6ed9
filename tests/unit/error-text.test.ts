/** A failure is shown in the shopper's words, never as an exception's text. */
import { describe, expect, it } from 'vitest'
import { ApiFailureError } from '~/lib/api-outcome'
import { ApiClientError } from '~/lib/api-client'
import { SOMETHING_WENT_WRONG, shopperErrorText, wordsForStatus } from '~/lib/error-text'

describe('shopperErrorText', () => {
  it('never shows raw exception text: redacted, a zod issue list, a stack, a status code', () => {
    const zodIssues = JSON.stringify([{ origin: 'string', code: 'too_big', maximum: 200, path: ['code'], message: 'Too big' }], null, 2)
    for (const text of [
      'redacted',
      zodIssues,
      'TypeError: x is not a function',
      'Error: redacted',
      "Cannot read properties of undefined (reading 'id')",
      'Keepsake answered 503',
      '',
    ]) {
      expect(shopperErrorText(new Error(text))).toBeUndefined()
    }
    expect(shopperErrorText('a string')).toBeUndefined()
    expect(shopperErrorText(null)).toBeUndefined()
  })

  it('keeps our own refusals, which are written for shoppers', () => {
    const refusal = new ApiFailureError({ status: 409, code: 'conflict', message: 'This gift code has already been redeemed', issues: [] })
    expect(shopperErrorText(refusal)).toBe('This gift code has already been redeemed')
    expect(shopperErrorText(new ApiClientError(422, 'rule_broken', 'You cannot use your own invite.'))).toBe('You cannot use your own invite.')
  })

  it('words a failure by its status when it is ours to explain: signed out, unreachable, busy, broken', () => {
    expect(shopperErrorText(new ApiClientError(503, 'maintenance', 'Keepsake is down for maintenance'))).toBe(wordsForStatus(503))
    expect(shopperErrorText(new ApiClientError(401, 'unauthenticated', 'Missing session'))).toBe(wordsForStatus(401))
    expect(shopperErrorText(new ApiClientError(0, 'network', 'fetch failed'))).toBe(wordsForStatus(0))
    expect(shopperErrorText(new ApiClientError(500, 'internal', 'relation "x" does not exist'))).toBe(SOMETHING_WENT_WRONG)
    expect(shopperErrorText(new ApiClientError(400, 'validation_failed', '{"bad":true}'))).toBe(SOMETHING_WENT_WRONG)
  })

  it('every status has words that do not name the status', () => {
    for (let status = 0; status < 600; status++) expect(wordsForStatus(status)).not.toMatch(/\d{3}/)
    expect(wordsForStatus(503)).toMatch(/maintenance/)
  })
})
