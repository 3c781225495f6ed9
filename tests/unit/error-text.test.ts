/** A failure is shown in the shopper's words, never as an exception's text. */
import { describe, expect, it } from 'vitest'
import { ApiFailureError } from '~/lib/api-outcome'
import { ApiClientError } from '~/lib/api-client'
import { SOMETHING_WENT_WRONG, isOutage, shopperErrorText, wordsForStatus } from '~/lib/error-text'
import { dependencyUnavailable } from '~/api/errors'

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

describe('isOutage (issue 43, item 6)', () => {
  const outage = dependencyUnavailable('The store database')
  it('knows a 503 by its status, and across a server function (which keeps only the message) by its words', () => {
    expect(isOutage(new ApiClientError(503, 'unavailable', outage.message))).toBe(true)
    expect(isOutage(new ApiClientError(503, 'maintenance', 'Keepsake is restarting; try again in a moment'))).toBe(true)
    expect(isOutage(new ApiFailureError({ status: 503, code: 'unavailable', message: outage.message, issues: [] }))).toBe(true)
    expect(isOutage(new ApiClientError(503, 'unavailable', outage.message).named('Loading your cart'))).toBe(true)
    expect(isOutage(new Error(outage.message))).toBe(true)
  })

  it('leaves every other failure to the error page', () => {
    expect(isOutage(new ApiClientError(500, 'internal', 'Something went wrong on our side'))).toBe(false)
    expect(isOutage(new ApiClientError(0, 'network', wordsForStatus(0)))).toBe(false)
    expect(isOutage(new ApiClientError(404, 'not_found', 'Album not found'))).toBe(false)
    expect(isOutage(new Error('Something went wrong on our side'))).toBe(false)
    expect(isOutage('is not answering right now; try again in a moment')).toBe(false)
  })
})
